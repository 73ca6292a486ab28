/**
 * `/plan digest`: this channel's digest settings and next run; a time, on/off and weekends
 * (workspace admins, as linking is); `now` posts one at once.
 */
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

    if (action.kind === 'show') return reply(await settingsReply(svc, link));
    if (action.kind === 'now') {
      const access = await svc.digestAccess(link);
      if (!access)
        return reply(
          notice(md`No planning account can read this channel: connect one with \`/plan connect\`.`),
        );
      // The factory's client (no blind resend of a post); the app's client if it has no token.
      const slack = ctx.client.token ? svc.deps.clients.slack(ctx.client.token) : ctx.client;
      const result = await postDigestNow(link, { store, slack, planning: access }).catch((error: unknown) => {
        // It may be in the channel: said so, never "nothing was saved".
        if (unconfirmedCall(error)) return { status: 'unconfirmed' as const };
        throw error;
      });
      return reply(digestNowMessage(result, link.slackChannelId));
    }

    const done = await changeDigest(svc, planning.workspaceId, command.channel_id, action);
    return reply(await settingsReply(svc, done?.link ?? link, done?.changed));
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

/** A link with its digest as the settings show it. */
export type LinkSchedule = DigestSettingsView & { link: ChannelLink };

/** The link's digest as the settings show it: the real next run (as the scheduler runs it) and the last. */
export async function digestSchedule(svc: Services, link: ChannelLink): Promise<LinkSchedule> {
  const last = await svc.deps.store.digests.lastPosted(link.workspaceId, link.slackChannelId);
  return {
    link,
    // A digest already posted today makes the next one another day's.
    nextRun: nextRun(link, new Date(), last?.localDate),
    ...(last ? { lastPostedDate: last.localDate } : {}),
  };
}

async function settingsReply(svc: Services, link: ChannelLink, changed?: string) {
  return digestSettingsMessage({ ...(await digestSchedule(svc, link)), ...(changed ? { changed } : {}) });
}
