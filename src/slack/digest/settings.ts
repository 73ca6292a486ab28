/**
 * `/plan digest`: this channel's digest settings and next run; a time, on/off and weekends
 * (workspace admins, as linking is); `now` posts one at once.
 */
import type { WebClient } from '@slack/web-api';
import { md } from '../../blockkit/index.js';
import { type DigestCommand, nextRun, parseDigestCommand, postDigestNow } from '../../digest/index.js';
import { unconfirmedCall } from '../../slack-api/index.js';
import type { ChannelLink, ChannelLinkPatch } from '../../store/index.js';
import type { Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { notice } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { type DigestSettingsView, digestNowMessage, digestSettingsMessage } from './blocks.js';

/** Whether `/plan digest <text>` changes the settings (a time, on/off, weekends). */
const changesSettings = (text: string) =>
  ['time', 'enable', 'weekends'].includes(parseDigestCommand(text).kind);

/**
 * `/plan digest [HH:MM [Area/City] | on | off | weekends on|off | now]`: shows or changes this
 * channel's daily digest. Members may look or ask for a digest now; changing the settings is for
 * workspace admins, as linking is.
 */
export const digestSubcommand: Subcommand<Services> = {
  name: 'digest',
  usage: 'digest [HH:MM | on | off | weekends on|off | now]',
  summary: "show or change this channel's daily digest, or post one now",
  access: (text) => (changesSettings(text) ? 'admin' : 'member'),
  doing: 'change the digest settings',
  async run(svc, ctx) {
    const { command, reply } = ctx;
    const planning = planningOf(ctx.context);
    const action = parseDigestCommand(ctx.text);
    if (action.kind === 'error') return reply(notice(md`${action.message}\n${action.usage}`));
    if (action.kind === 'help') return reply(notice(action.usage));

    const store = svc.deps.store;
    const link = await store.links.get(planning.workspaceId, command.channel_id);
    if (!link)
      return reply(notice(md`This channel is not linked yet: an admin can link it with \`/plan link\`.`));

    if (action.kind === 'show') return reply(await settingsReply(svc, link, ctx.client));
    if (action.kind === 'now') {
      const access = await svc.digestAccess(link);
      if (!access)
        return reply(
          notice(md`No planning account can read this channel: connect one with \`/plan connect\`.`),
        );
      // The factory's client (no blind resend of a post) with the request's bot token; the app's
      // client if it has no token.
      const slack = ctx.client.token
        ? { client: svc.deps.clients.slackBots, token: ctx.client.token }
        : { client: ctx.client };
      const result = await postDigestNow(link, { store, slack, planning: access }).catch((error: unknown) => {
        // It may be in the channel: said so, never "nothing was saved".
        if (unconfirmedCall(error)) return { status: 'unconfirmed' as const };
        throw error;
      });
      if (result.status === 'posted') await recordDigestNow(svc, link, result.ts);
      return reply(digestNowMessage(result, link.slackChannelId));
    }

    const done = await changeDigest(svc, planning.workspaceId, command.channel_id, action);
    return reply(await settingsReply(svc, done?.link ?? link, ctx.client, done?.changed));
  },
};

/** A change of a channel's digest settings: a time (and zone), on/off, weekends. */
export type DigestChange = Extract<DigestCommand, { kind: 'time' | 'enable' | 'weekends' }>;

/**
 * Applies `change` to the link of `slackChannelId` in this workspace, through the store (which
 * restarts the schedule from now: see `digestFrom`). `/plan digest` and the admin modal's links
 * section both change settings here. Undefined when the channel is not linked (any more).
 */
export async function changeDigest(
  svc: Services,
  workspaceId: string,
  slackChannelId: string,
  change: DigestChange,
): Promise<{ link: ChannelLink; changed: string } | undefined> {
  const [patch, changed] = changeOf(change);
  const link = await svc.deps.store.links.update(workspaceId, slackChannelId, patch);
  return link ? { link, changed } : undefined;
}

function changeOf(action: DigestChange): [ChannelLinkPatch, string] {
  switch (action.kind) {
    case 'time':
      return [
        {
          digestTime: action.time,
          digestEnabled: true,
          ...(action.timeZone ? { timeZone: action.timeZone } : {}),
        },
        `Digest time set to ${action.time}${action.timeZone ? ` (${action.timeZone})` : ''}.`,
      ];
    case 'enable':
      return [{ digestEnabled: action.enabled }, `Digest turned ${action.enabled ? 'on' : 'off'}.`];
    case 'weekends':
      return [{ weekdaysOnly: !action.include }, action.include ? 'Weekends included.' : 'Weekends skipped.'];
  }
}

/**
 * Remembers a digest posted on demand, so the settings show it as the last one. Best effort: the
 * digest is in the channel whatever the store says, so a failure here is logged, never told.
 */
async function recordDigestNow(svc: Services, link: ChannelLink, messageTs: string) {
  await svc.deps.store.links
    .recordDigestNow(link.workspaceId, link.slackChannelId, messageTs)
    .catch((error: unknown) =>
      svc.deps.logger.warn(
        { err: error, workspaceId: link.workspaceId },
        'digest: the post now was not recorded',
      ),
    );
}

/** A link with its digest as the settings show it. */
export type LinkSchedule = DigestSettingsView & { link: ChannelLink };

/**
 * The link's digest as the settings show it: the real next run (as the scheduler runs it) and the
 * last digest posted — scheduled (its claim) or on demand (the link's record), whichever is later —
 * with a link to it when `slack` can ask for one.
 */
export async function digestSchedule(
  svc: Services,
  link: ChannelLink,
  slack?: WebClient,
): Promise<LinkSchedule> {
  const scheduled = await svc.deps.store.digests.lastPosted(link.workspaceId, link.slackChannelId);
  const now = link.lastDigestNow;
  const last: { postedAt: Date; messageTs?: string } | undefined =
    scheduled && (!now || scheduled.postedAt >= now.postedAt) ? scheduled : now;
  const permalink =
    slack && last?.messageTs ? await permalinkOf(svc, slack, link, last.messageTs) : undefined;
  return {
    link,
    // A digest already posted today makes the next one another day's.
    nextRun: nextRun(link, new Date(), scheduled?.localDate),
    ...(last ? { lastDigest: { postedAt: last.postedAt, ...(permalink ? { permalink } : {}) } } : {}),
  };
}

/** The digest message's permalink (chat.getPermalink), or undefined when Slack does not give one. */
async function permalinkOf(svc: Services, slack: WebClient, link: ChannelLink, messageTs: string) {
  try {
    const { permalink } = await slack.chat.getPermalink({
      channel: link.slackChannelId,
      message_ts: messageTs,
    });
    return permalink && URL.canParse(permalink) ? permalink : undefined;
  } catch (error) {
    // Deleted, or the channel is out of the bot's reach: the line says when, without a link.
    svc.deps.logger.info(
      { err: error, workspaceId: link.workspaceId },
      'digest: no permalink to the last digest',
    );
    return undefined;
  }
}

async function settingsReply(svc: Services, link: ChannelLink, slack: WebClient, changed?: string) {
  return digestSettingsMessage({
    ...(await digestSchedule(svc, link, slack)),
    ...(changed ? { changed } : {}),
  });
}
