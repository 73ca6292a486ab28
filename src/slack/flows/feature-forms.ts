/**
 * Opening the forms of a feature card (its buttons and its assumptions' menu): each opens at once
 * (loading) and fills itself with the feature as it is now, read with the acting user's own client.
 * A feature in deep context is read-only: the form says so instead of letting someone type in vain.
 */
import type { Context } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { md, modal } from '../../blockkit/index.js';
import type { Feature } from '../../planning/models.js';
import { type FeatureCoords, featureBlocks } from '../blocks/feature.js';
import {
  ASSUMPTION_TITLE,
  assumptionDeleteModal,
  assumptionModal,
  EXPERIMENT_TITLE,
  experimentModal,
  FEATURE_EDIT_TITLE,
  FEATURE_TITLE,
  featureModal,
} from '../blocks/feature-forms.js';
import { createTaskModal, TASK_TITLE, type TaskModalMeta } from '../blocks/task.js';
import { noticeView } from '../blocks/views.js';
import { loadModal, type ModalRequest } from '../context/modal.js';
import type { Services } from '../context/services.js';
import { VIEW } from '../ids.js';
import { readFeatureView } from './feature.js';

type Req = ModalRequest & { context: Context };

const readOnly = (title: string, feature: Feature) =>
  noticeView(
    title,
    md`:lock: *${feature.heading ?? feature.id}* is in deep context: it is read-only, so nothing of it can change.`,
  );

const gone = (title: string) =>
  noticeView(title, md`That assumption no longer exists (it may have been deleted).`);

/** Add assumption (no `assmId`) or edit one. */
export function openAssumptionForm(req: Req, coords: FeatureCoords, assmId?: string) {
  const title = ASSUMPTION_TITLE;
  return loadModal({ ...req, title }, async ({ planning }) => {
    const feature = await planning.features.read(coords.teamId, coords.channelId, coords.featureId);
    if (feature.stage === 'deep context') return readOnly(title, feature);
    const assm = assmId ? feature.assumptions.find((a) => a.id === assmId) : undefined;
    if (assmId && !assm) return gone(title);
    return assumptionModal({
      meta: { coords, ...(assmId ? { assmId } : {}) },
      featureHeading: feature.heading,
      heading: assm?.heading,
    });
  });
}

export function openAssumptionDelete(req: Req, coords: FeatureCoords, assmId: string) {
  const title = 'Delete assumption';
  return loadModal({ ...req, title }, async ({ planning }) => {
    const feature = await planning.features.read(coords.teamId, coords.channelId, coords.featureId);
    if (feature.stage === 'deep context') return readOnly(title, feature);
    const assm = feature.assumptions.find((a) => a.id === assmId);
    if (!assm) return gone(title);
    return assumptionDeleteModal({ meta: { coords, assmId }, heading: assm.heading });
  });
}

/** The experiment form, with its participants shown as the Slack users the app knows. */
export function openExperimentForm(svc: Services, req: Req, coords: FeatureCoords, assmId: string) {
  const title = EXPERIMENT_TITLE;
  return loadModal({ ...req, title }, async (acting) => {
    const view = await readFeatureView(svc, acting, coords);
    if (view.feature.stage === 'deep context') return readOnly(title, view.feature);
    const assm = view.feature.assumptions.find((a) => a.id === assmId);
    if (!assm) return gone(title);
    const picked = view.participants?.[assm.id];
    const participants = (picked?.length ? picked : (assm.experiment?.authorUserIds ?? []))
      .map((id) => view.people?.[id])
      .filter((id): id is string => id !== undefined);
    return experimentModal({
      meta: { coords, assmId },
      heading: assm.heading,
      state: assm.experiment?.state,
      confirmed: assm.experiment?.confirmed,
      details: assm.experiment?.details,
      participants,
    });
  });
}

export function openFeatureEdit(req: Req, coords: FeatureCoords) {
  const title = FEATURE_EDIT_TITLE;
  return loadModal({ ...req, title }, async ({ planning }) => {
    const f = await planning.features.read(coords.teamId, coords.channelId, coords.featureId);
    if (f.stage === 'deep context') return readOnly(title, f);
    return featureModal({
      meta: { mode: 'edit', coords },
      heading: f.heading,
      details: f.details,
      priority: f.priority,
      focus: f.focus,
    });
  });
}

/** The card in a modal, with its buttons (a press there answers in the user's DM). */
export function openFeatureDetails(svc: Services, req: Req, coords: FeatureCoords) {
  const title = 'Feature';
  return loadModal({ ...req, title }, async (acting): Promise<ModalView> => {
    const view = await readFeatureView(svc, acting, coords);
    return modal({ callbackId: VIEW.info, title, blocks: featureBlocks(view) });
  });
}

/**
 * Add task: the create-task form with this feature chosen. The task card goes in the feature card's
 * thread when the button was pressed on one (`where.threadTs`), else in the Slack channel.
 */
export function openAddTask(req: Req, coords: FeatureCoords, where: { channel: string; threadTs?: string }) {
  return loadModal({ ...req, title: TASK_TITLE }, async ({ planning }) => {
    const [feature, team] = await Promise.all([
      planning.features.read(coords.teamId, coords.channelId, coords.featureId),
      planning.teams.read(coords.teamId),
    ]);
    if (feature.stage === 'deep context') return readOnly(TASK_TITLE, feature);
    const channel = team.channels.find((c) => c.id === coords.channelId);
    const meta: TaskModalMeta = {
      channel: where.channel,
      ...(where.threadTs ? { threadTs: where.threadTs } : {}),
      link: { teamId: coords.teamId, channelId: coords.channelId },
      fromFeature: true,
    };
    return createTaskModal({
      meta,
      linkedTo: `${team.teamName ?? team.id} › ${channel?.channelName ?? coords.channelId}`,
      heading: '',
      details: '',
      feature: { id: feature.id, heading: feature.heading },
    });
  });
}

/**
 * New feature (global shortcut, `/plan feature new`): the form with the teams to choose from, team
 * and channel defaulting to the link of the Slack channel it was opened in.
 */
export function openNewFeatureForm(svc: Services, req: Req, workspaceId: string, slackChannel?: string) {
  return loadModal({ ...req, title: FEATURE_TITLE }, async ({ planning }) => {
    const link = slackChannel ? await svc.deps.store.links.get(workspaceId, slackChannel) : undefined;
    const [{ teams }, team] = await Promise.all([
      planning.teams.listAll({ pageSize: 100 }),
      link ? planning.teams.read(link.teamId) : Promise.resolve(undefined),
    ]);
    return featureModal({
      meta: { mode: 'new', ...(slackChannel ? { slackChannel } : {}) },
      teams,
      ...(link && team ? { teamId: link.teamId, channels: team.channels, channelId: link.channelId } : {}),
    });
  });
}
