/**
 * `/plan digest`: this channel's digest settings and next run; a time, on/off and weekends
 * (workspace admins, as linking is); `now` posts one at once.
 */
import { md } from '../../blockkit/index.js';
import { nextRun, parseDigestCommand, postDigestNow } from '../../digest/index.js';
import type { ChannelLink, ChannelLinkPatch } from '../../store/index.js';
import type { Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { notice } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { digestNowMessage, digestSettingsMessage } from './blocks.js';

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
      const result = await postDigestNow(link, { store, slack, planning: access });
      return reply(digestNowMessage(result, link.slackChannelId));
    }

    const [patch, changed] = changeOf(action);
    const updated = await store.links.update(planning.workspaceId, command.channel_id, patch);
    return reply(await settingsReply(svc, updated ?? link, changed));
  },
};

function changeOf(
  action: Exclude<ReturnType<typeof parseDigestCommand>, { kind: 'show' | 'now' | 'help' | 'error' }>,
): [ChannelLinkPatch, string] {
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

async function settingsReply(svc: Services, link: ChannelLink, changed?: string) {
  const last = await svc.deps.store.digests.lastPosted(link.workspaceId, link.slackChannelId);
  return digestSettingsMessage({
    link,
    // A digest already posted today makes the next one another day's.
    nextRun: nextRun(link, new Date(), last?.localDate),
    lastPostedDate: last?.localDate,
    changed,
  });
}
