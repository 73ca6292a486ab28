/**
 * The Home tab's notification controls: the checkboxes (which DMs) and the two quiet-hour selects.
 * Each change saves the whole choice as the tab shows it (Slack sends the view's state with the
 * action), in the person's Slack time zone. Saving the same choice twice changes nothing.
 */
import type { WebClient } from '@slack/web-api';
import { md } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { NOTIFICATION_KINDS } from '../kit/dm-kinds.js';
import type { Services } from '../kit/services.js';
import { slackUserFacts } from '../kit/slack-user.js';
import { privateSurface, showFailure } from '../kit/surfaces.js';
import { HOME_ACTION } from './ids.js';
import { publishHome } from './publish.js';

interface StateValue {
  selected_options?: { value?: string }[] | null;
  selected_option?: { value?: string } | null;
}

/** The value of `actionId` anywhere in the view's state. */
function stateOf(values: Record<string, Record<string, StateValue>> | undefined, actionId: string) {
  for (const block of Object.values(values ?? {})) if (block[actionId]) return block[actionId];
  return undefined;
}

const HOUR = /^([01]\d|2[0-3]):00$/;

/**
 * Saves the tab's choices. Quiet hours are saved once both ends are picked; with one picked, the
 * stored ones stay and the tab is drawn again showing that end as picked (the other with its
 * placeholder), so picking the other completes them. "No quiet hours" on either end turns them off.
 */
export async function notifyPrefsAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const values = args.body.view?.state?.values as Record<string, Record<string, StateValue>> | undefined;
  const kinds = stateOf(values, HOME_ACTION.notifyKinds);
  const on = new Set((kinds?.selected_options ?? []).map((o) => o.value));
  const hour = (id: string) => {
    const v = stateOf(values, id)?.selected_option?.value;
    return v && HOUR.test(v) ? v : undefined;
  };
  const start = hour(HOME_ACTION.quietStart);
  const end = hour(HOME_ACTION.quietEnd);
  const pickedHour = args.action.action_id !== HOME_ACTION.notifyKinds;
  const turnedOff = pickedHour && actionValue(args.action) === 'off';
  const oneEnd = pickedHour && !turnedOff && (start === undefined) !== (end === undefined);
  try {
    const { timeZone = 'UTC' } = await slackUserFacts(args.client as WebClient, planning.slackUserId);
    const previous = await svc.deps.store.notifications.prefs(planning.workspaceId, planning.slackUserId);
    const quiet =
      start && end ? (start !== end ? { start, end } : undefined) : turnedOff ? undefined : previous?.quiet;
    await svc.deps.store.notifications.savePrefs(planning.workspaceId, planning.slackUserId, {
      // Without the checkboxes in the state (an older tab), the kinds stay as they were.
      muted: kinds ? NOTIFICATION_KINDS.filter((k) => !on.has(k)) : (previous?.muted ?? []),
      ...(quiet ? { quiet } : {}),
      timeZone,
    });
    if (oneEnd) {
      await publishHome(svc, args.client as WebClient, planning, {
        banner: start
          ? md`Quiet hours from ${start}: now choose until when.`
          : md`Quiet hours until ${end ?? ''}: now choose from when.`,
        quietPicked: { ...(start ? { start } : {}), ...(end ? { end } : {}) },
      });
    } else if (pickedHour) {
      // The tab may still say what an earlier pick asked for ("now choose until when"), or show an
      // hour on the other select: it is drawn again from what was saved.
      const saved = await svc.deps.store.notifications.prefs(planning.workspaceId, planning.slackUserId);
      await publishHome(svc, args.client as WebClient, planning, {
        banner: saved?.quiet
          ? md`:white_check_mark: Quiet hours saved: from ${saved.quiet.start} until ${saved.quiet.end} (${saved.timeZone}).`
          : md`:white_check_mark: No quiet hours.`,
      });
    }
  } catch (error) {
    await showFailure(
      svc.deps,
      privateSurface({ client: args.client as WebClient }, planning.slackUserId),
      error,
      {
        action: 'notification preferences',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      },
    );
  }
}

/**
 * “Let workflow steps act for me”, ticked or not: saved for the person in this workspace as the
 * checkbox now shows it (Slack sends the box's selected options with the action).
 */
export async function workflowActForAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const action = args.action as { selected_options?: { value?: string }[] };
  const on = (action.selected_options ?? []).some((o) => o.value === 'on');
  try {
    await svc.deps.store.workflowConsents.set(planning.workspaceId, planning.slackUserId, on);
    svc.deps.logger.info(
      { workspaceId: planning.workspaceId, on },
      'workflow steps acting for a person: preference saved',
    );
  } catch (error) {
    await showFailure(
      svc.deps,
      privateSurface({ client: args.client as WebClient }, planning.slackUserId),
      error,
      { action: 'workflow preference', workspaceId: planning.workspaceId, slackUserId: planning.slackUserId },
    );
  }
}
