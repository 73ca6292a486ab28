/** Direct messages from the bot to one Slack user. */
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';

export async function directMessage(
  client: WebClient,
  userId: string,
  body: { text: string; blocks?: KnownBlock[] },
) {
  const opened = await client.conversations.open({ users: userId });
  const channel = opened.channel?.id;
  if (!channel) throw new Error('conversations.open returned no channel');
  await client.chat.postMessage({ channel, ...body });
}
