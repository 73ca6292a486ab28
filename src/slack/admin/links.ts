/**
 * Links and digests: this workspace's linked channels (never another workspace's: the store is
 * asked for this one's only), each with its digest settings as `/plan digest` shows them — the
 * real next run included — and buttons to change the time and zone, turn it on or off, include or
 * skip weekends, follow changes made outside Slack or not, record thread replies as discoveries or
 * not (link/settings.ts, as the link form sets them), keep the plan in the channel's canvas or stop
 * (leaving it, or deleting it: src/slack/canvas/), and unlink. Linking stays the link form's (`/plan link`, or the button here).
 */
import type { KnownBlock, ModalView } from '@slack/types';
import {
  actions,
  button,
  channelMention,
  context,
  joinMd,
  md,
  modal,
  section,
} from '../../blockkit/index.js';
import type { TeamExpanded } from '../../planning/index.js';
import { digestLastLine, digestStateLines, type LinkSchedule } from '../digest/index.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND } from '../kit/ids.js';
import { CANVAS_SETTING_LABEL, linkSettingsLine } from '../link/index.js';
import {
  type AdminPlace,
  type Flash,
  flashBlocks,
  formButton,
  PAGE_SIZE,
  pager,
  placeTitle,
  placeValue,
  targetValue,
} from './common.js';
import { ADMIN_ACTION, ADMIN_VIEW } from './ids.js';

/** The page of `all` that `place` shows. */
export const pageOf = <T>(all: readonly T[], place: AdminPlace): T[] =>
  all.slice((place.page - 1) * PAGE_SIZE, place.page * PAGE_SIZE);

/** The planning teams the links point at, read once each; a team the service refuses is left out. */
export async function linkedTeams(acting: Acting, teamIds: string[]): Promise<Map<string, TeamExpanded>> {
  const ids = [...new Set(teamIds)];
  const teams = await Promise.all(ids.map((id) => acting.planning.teams.read(id).catch(() => undefined)));
  return new Map(teams.filter((t) => t !== undefined).map((t) => [t.id, t]));
}

export function linksView(
  place: AdminPlace,
  links: LinkSchedule[],
  teams: Map<string, TeamExpanded>,
  total: number,
  flash?: Flash,
  /** The Slack channels whose plan is kept in their canvas. */
  canvases: ReadonlySet<string> = new Set(),
): ModalView {
  const blocks: KnownBlock[] = [
    ...flashBlocks(flash),
    section(md`The channels linked in this workspace and their daily digests.`, {
      accessory: formButton('Link a Slack channel', { form: 'link' }, 'primary'),
    }),
  ];
  for (const view of links) {
    const { link } = view;
    const channel = channelMention(link.slackChannelId);
    const team = teams.get(link.teamId);
    const planningChannel = team?.channels.find((c) => c.id === link.channelId);
    const target = targetValue({ id: link.slackChannelId });
    blocks.push(
      section(joinMd(digestStateLines(view), ' ')),
      context(
        md`Linked to *${team?.teamName ?? link.teamId} › ${planningChannel?.channelName ?? link.channelId}*`,
        digestLastLine(view),
        md`${linkSettingsLine(link)} ${canvases.has(link.slackChannelId) ? 'The plan is kept in the channel’s canvas.' : 'No canvas of the plan.'}`,
      ),
      actions(
        undefined,
        formButton('Change time', { form: 'digestTime', id: link.slackChannelId }),
        link.digestEnabled
          ? button('Turn off', ADMIN_ACTION.digestOff, { value: target })
          : button('Turn on', ADMIN_ACTION.digestOn, { value: target }),
        link.weekdaysOnly
          ? button('Include weekends', ADMIN_ACTION.weekendsOn, { value: target })
          : button('Skip weekends', ADMIN_ACTION.weekendsOff, { value: target }),
        link.watchEnabled
          ? button('Stop following changes', ADMIN_ACTION.watchOff, { value: target })
          : button('Follow changes', ADMIN_ACTION.watchOn, { value: target }),
        link.threadDiscoveries
          ? button('Stop recording replies', ADMIN_ACTION.threadDiscoveriesOff, { value: target })
          : button('Record thread replies', ADMIN_ACTION.threadDiscoveriesOn, { value: target }),
        ...(canvases.has(link.slackChannelId)
          ? [
              button('Stop the canvas', ADMIN_ACTION.canvasOff, { value: target }),
              button('Delete the canvas', ADMIN_ACTION.canvasDelete, {
                value: target,
                style: 'danger',
                confirm: {
                  title: 'Delete the canvas?',
                  text: md`The canvas of the plan in ${channel} is deleted for everyone. Stop the canvas instead to leave it as it is.`,
                  confirm: 'Delete',
                  style: 'danger',
                },
              }),
            ]
          : [button(CANVAS_SETTING_LABEL, ADMIN_ACTION.canvasOn, { value: target })]),
        button('Unlink', ADMIN_ACTION.unlink, {
          value: target,
          style: 'danger',
          confirm: {
            title: 'Unlink the channel?',
            text: md`${channel} is no longer linked to its planning channel and gets no digest. It can be linked again at any time.`,
            confirm: 'Unlink',
            style: 'danger',
          },
        }),
      ),
    );
  }
  if (links.length === 0) {
    blocks.push(
      section(
        total === 0
          ? md`No channel is linked yet: \`${COMMAND} link\` in a channel, or *Link a Slack channel* here.`
          : md`No link on this page.`,
      ),
    );
  }
  blocks.push(...pager(place, links.length, total, 'linked channel'));
  return modal({
    callbackId: ADMIN_VIEW.section,
    title: placeTitle(place),
    privateMetadata: placeValue(place),
    blocks,
  });
}
