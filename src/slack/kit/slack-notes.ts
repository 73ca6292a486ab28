/**
 * Notes of what Slack itself changed (store/slack-notes.ts), written by the flows' refresh funnels
 * after a change made from Slack: the watch of linked channels (src/slack/watch/) finds them and
 * neither echoes the change in a card's thread nor DMs it a second time. Best effort: the change is
 * made and told already; a note that cannot be written is logged, never a failure of the flow.
 */
import type { SlackDeps } from './deps.js';

export async function noteFromSlack(
  deps: Pick<SlackDeps, 'store' | 'logger'>,
  workspaceId: string,
  notes: readonly string[],
): Promise<void> {
  if (notes.length === 0) return;
  try {
    await deps.store.slackNotes.note(workspaceId, notes);
  } catch (error) {
    deps.logger.warn({ workspaceId, err: error }, 'could not note a change made from Slack');
  }
}
