/**
 * A feature card's form buttons — Add assumption, Add task, Edit, Details — and its assumptions'
 * menu (Experiment, Edit, Delete): each opens its form for the feature the button carries.
 */
import type { BlockAction } from '@slack/bolt';
import { md } from '../../../blockkit/index.js';
import {
  AssumptionMenuValue,
  type CardLike,
  featureCoordsFrom,
  parseFeatureButton,
} from '../../blocks/feature.js';
import { notice } from '../../blocks/messages.js';
import { planningOf } from '../../context/middleware.js';
import { modalRequest } from '../../context/modal.js';
import { privateSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import {
  openAddTask,
  openAssumptionDelete,
  openAssumptionForm,
  openExperimentForm,
  openFeatureDetails,
  openFeatureEdit,
} from '../../flows/feature-forms.js';
import { parseCarried } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';

const STALE = md`This button is out of date: run \`/plan features\` for fresh cards.`;

async function stale(args: ActionArgs) {
  await privateSurface(args, planningOf(args.context).slackUserId).show(notice(STALE));
}

const request = (svc: Services, args: ActionArgs, action: string) =>
  modalRequest(svc, args, args.body.trigger_id, action);

export function featureAddAssumptionAction(svc: Services) {
  return async (args: ActionArgs) => {
    const value = parseFeatureButton(actionValue(args.action));
    if (!value) return stale(args);
    await openAssumptionForm(request(svc, args, 'add assumption open'), value);
  };
}

export function featureEditAction(svc: Services) {
  return async (args: ActionArgs) => {
    const value = parseFeatureButton(actionValue(args.action));
    if (!value) return stale(args);
    await openFeatureEdit(request(svc, args, 'edit feature open'), value);
  };
}

export function featureDetailsAction(svc: Services) {
  return async (args: ActionArgs) => {
    const value = parseFeatureButton(actionValue(args.action));
    if (!value) return stale(args);
    await openFeatureDetails(svc, request(svc, args, 'feature details open'), value);
  };
}

/**
 * The task card goes in the pressed card's thread when it is a message in a channel; from an
 * ephemeral list or a modal there is no thread to go in, so it goes in the channel itself (the
 * user's DM with the app when pressed in a modal).
 */
export function featureAddTaskAction(svc: Services) {
  return async (args: ActionArgs) => {
    const value = parseFeatureButton(actionValue(args.action));
    if (!value) return stale(args);
    const body = args.body as BlockAction;
    const container = body.container as { type?: string; is_ephemeral?: boolean; message_ts?: string };
    const channel = body.channel?.id;
    const threadTs =
      container.type === 'message' && !container.is_ephemeral
        ? (body.message?.thread_ts ?? container.message_ts)
        : undefined;
    await openAddTask(request(svc, args, 'add task open'), value, {
      channel: channel ?? planningOf(args.context).slackUserId,
      ...(threadTs ? { threadTs } : {}),
    });
  };
}

/** An assumption's menu on a card: the feature comes from the card it is on. */
export function assumptionMenuAction(svc: Services) {
  return async (args: ActionArgs) => {
    const body = args.body as BlockAction;
    const chosen = parseCarried(AssumptionMenuValue, actionValue(args.action));
    const coords = featureCoordsFrom((body.message ?? body.view) as CardLike | undefined);
    if (!chosen || !coords) return stale(args);
    const req = request(svc, args, `assumption ${chosen.op} open`);
    if (chosen.op === 'edit') await openAssumptionForm(req, coords, chosen.assmId);
    else if (chosen.op === 'delete') await openAssumptionDelete(req, coords, chosen.assmId);
    else await openExperimentForm(svc, req, coords, chosen.assmId);
  };
}
