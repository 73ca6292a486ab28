/**
 * Create task: the form from a message (its heading and details prefilled, the card then posted in
 * the message's thread) or from a feature card's Add task; `tasks.create` (and `tasks.assign`), the
 * card posted, and the feature's cards updated.
 */

import type { BlockAction, BlockSuggestion, ViewOutput } from '@slack/bolt';
import type { KnownBlock, ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { context, input, joinMd, type Mrkdwn, md, mention, modal, option } from '../../blockkit/index.js';
import type { Channel, Team } from '../../planning/models.js';
import { unconfirmedCall } from '../../slack-api/index.js';
import {
  type ActionArgs,
  actionValue,
  type MessageShortcutArgs,
  type OptionsArgs,
  type SubmitArgs,
} from '../bolt/routes.js';
import {
  type FeatureCoords,
  parseFeatureButton,
  type Req,
  readOnly,
  request,
  stale,
} from '../features/index.js';
import { type PlanningContext, planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { explainFailure } from '../kit/failures.js';
import {
  detailsText,
  type FormOutput,
  form,
  headingText,
  read,
  type StateValues,
  slackUserId,
} from '../kit/form.js';
import type { NamedPerson } from '../kit/identity.js';
import { FIELD } from '../kit/ids.js';
import {
  channelChoices,
  detailsInput,
  headingInput,
  redrawForTeam,
  teamChannelInputs,
  teamChoices,
} from '../kit/inputs.js';
import { postCard } from '../kit/live-cards.js';
import { formProblem, loadModal, modalRequest } from '../kit/modal.js';
import { answerOptions, matches } from '../kit/options.js';
import { parseCarried, parseJson } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { prefillTask } from '../kit/slack-text.js';
import { submission } from '../kit/submission.js';
import { openUrl } from '../kit/web-links.js';
import { liveTaskCard, type TaskCoords, type TaskView } from './card.js';
import { TASK_FIELD, TASK_VIEW } from './ids.js';
import { taskOnCard } from './live.js';

/** What the create-task modal remembers between its steps (ids only, never user text). */
export const TaskModalMeta = z.object({
  /** The Slack channel and thread of the message the task comes from (its card goes there). */
  channel: z.string(),
  /** Absent when the form was opened from a card that is not a message (a list, a modal): no thread. */
  threadTs: z.string().optional(),
  /** The planning channel of the Slack channel's link, or of the feature the form was opened for. */
  link: z.object({ teamId: z.string(), channelId: z.string() }).optional(),
  /** Opened from a feature card: `link` is the feature's planning channel, not this Slack channel's link. */
  fromFeature: z.boolean().optional(),
});

export type TaskModalMeta = z.infer<typeof TaskModalMeta>;

// ---------------------------------------------------------------------------------------------
// Modal
// ---------------------------------------------------------------------------------------------

export interface TaskForm {
  meta: TaskModalMeta;
  /** Shown when the Slack channel is linked. */
  linkedTo?: string;
  /** Offered when it is not: the user picks team then channel. */
  teams?: Team[];
  teamId?: string;
  channels?: Channel[];
  channelId?: string;
  heading: string;
  details: string;
  /** Kept when the form is shown again after a failure. */
  feature?: { id: string; heading?: string };
  assignee?: string;
  problem?: Mrkdwn;
}

export const TASK_TITLE = 'Create task';

export function createTaskModal(form: TaskForm): ModalView {
  const where: KnownBlock[] = form.meta.link
    ? [
        context(
          form.meta.fromFeature
            ? md`In *${form.linkedTo ?? "the feature's planning channel"}*, the feature's planning channel.`
            : md`In *${form.linkedTo ?? 'the linked planning channel'}* (this Slack channel's link).`,
        ),
      ]
    : teamChannelInputs(form);
  return modal({
    callbackId: TASK_VIEW.create,
    title: TASK_TITLE,
    submit: 'Create',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      ...where,
      input('Feature', TASK_FIELD.feature.block, {
        type: 'external_select',
        action_id: TASK_FIELD.feature.action,
        min_query_length: 0,
        placeholder: { type: 'plain_text', text: 'Search the features' },
        ...(form.feature
          ? { initial_option: option(form.feature.heading ?? form.feature.id, form.feature.id) }
          : {}),
      }),
      headingInput(form.heading),
      detailsInput(form.details),
      input(
        'Assignee',
        TASK_FIELD.assignee.block,
        {
          type: 'users_select',
          action_id: TASK_FIELD.assignee.action,
          ...(form.assignee ? { initial_user: form.assignee } : {}),
        },
        {
          optional: true,
          hint: 'They must be connected to the planning service (or be set up automatically).',
        },
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

/** A linked Slack channel's form has no team and channel to pick: its metadata says them. */
const linkOf = (privateMetadata: string) => (parseJson(privateMetadata) as TaskModalMeta | undefined)?.link;

const TaskSubmission = form({
  meta: read.metadata(FIELD.heading, TaskModalMeta),
  teamId: read.value(FIELD.team, z.string({ error: 'Choose a planning team.' }).min(1), {
    map: (picked, meta) => linkOf(meta)?.teamId ?? picked,
  }),
  channelId: read.value(FIELD.channel, z.string({ error: 'Choose a planning channel.' }).min(1), {
    map: (picked, meta) => linkOf(meta)?.channelId ?? picked,
  }),
  featureId: read.value(TASK_FIELD.feature, z.string({ error: 'Choose a feature.' }).min(1)),
  featureHeading: read.label(TASK_FIELD.feature, z.string().optional()),
  heading: read.value(FIELD.heading, headingText('A task needs a heading.')),
  details: read.value(FIELD.details, detailsText()),
  assignee: read.value(TASK_FIELD.assignee, slackUserId('Choose an assignee.').optional()),
});

type TaskSubmission = FormOutput<typeof TaskSubmission>;

/** A task to create: where, on which feature, what it says and who does it. */
export interface NewTask {
  teamId: string;
  channelId: string;
  featureId: string;
  featureHeading?: string;
  heading: string;
  details?: string;
  /** The Slack user to assign it to. */
  assignee?: string;
}

/** A task created: where it is, its card (when it could be posted), and what else went wrong. */
export interface CreatedTask {
  coords: TaskCoords;
  card?: { channel: string; ts: string };
  /** What did not work once the task existed (its assignment, its card), one sentence each. */
  notes: Mrkdwn[];
}

/**
 * Creates the task as `planning`'s person — the form's submitter, or the person a workflow step acts
 * as — assigns it, posts its live card at `where` and updates the feature's cards.
 */
export async function createTask(
  svc: Services,
  planning: PlanningContext,
  client: WebClient,
  data: NewTask,
  where: { channel: string; threadTs?: string },
): Promise<CreatedTask> {
  const acting = await planning.acting();
  const { planning: service } = acting;
  // The assignee is checked first (a guest, or someone who cannot get an account, must not leave a
  // task behind), but an account is only made for them once the task exists: the create is what the
  // service most often refuses (a feature in deep context, another organization's feature), and a
  // refused create then leaves no account. The assignment is a second change: an account made for
  // it is kept only if the service takes it (kit/identity.ts).
  const assignee = data.assignee ? await planning.named([data.assignee]) : undefined;
  const task = await service.tasks.create(data.teamId, data.channelId, data.featureId, {
    heading: data.heading,
    ...(data.details ? { details: data.details } : {}),
  });
  const coords = {
    teamId: data.teamId,
    channelId: data.channelId,
    featureId: data.featureId,
    taskId: task.id,
  };

  // From here the task exists: later failures are reported, never turned into "nothing was saved".
  const notes: Mrkdwn[] = [];
  let assigned: NamedPerson | undefined;
  if (assignee && data.assignee) {
    try {
      assigned = await assignee.apply(async ([person]) => {
        await service.tasks.assign(
          data.teamId,
          data.channelId,
          data.featureId,
          task.id,
          person.planningUserId,
        );
        return person;
      });
    } catch (error) {
      const why = await explainFailure(svc.deps, error, {
        action: 'tasks.assign',
        workspaceId: planning.workspaceId,
      });
      const reason = 'text' in why ? why.text : md`their connection failed.`;
      notes.push(md`It could not be assigned to ${mention(data.assignee)}: ${reason}`);
    }
  }
  const shown: TaskView = {
    coords,
    heading: task.heading ?? data.heading,
    ...(data.featureHeading ? { featureHeading: data.featureHeading } : {}),
    state: task.state,
    ...(assigned ? { assigneeSlackId: assigned.slackUserId, assigneeUserId: assigned.planningUserId } : {}),
    authorSlackId: planning.slackUserId,
    minutes: { discoveries: 0, answered: 0, waiting: 0 },
    ...openUrl(svc.deps.config, 'task', coords),
  };
  let cardTs: string | undefined;
  try {
    cardTs = await postCard(
      svc.deps,
      client,
      {
        workspaceId: planning.workspaceId,
        kind: 'task',
        entityId: task.id,
        // Where the task was just created: a press on the card is checked against it.
        place: {
          orgId: acting.identity.orgId,
          teamId: data.teamId,
          channelId: data.channelId,
          featureId: data.featureId,
        },
      },
      where,
      liveTaskCard(shown),
    );
  } catch (error) {
    svc.deps.logger.warn({ action: 'create-task card', err: error }, 'could not post the task card');
    notes.push(
      unconfirmedCall(error)
        ? md`Slack did not confirm its card in the thread: it may be there (it was not posted twice), but it will not follow changes.`
        : md`Its card could not be posted in the thread (is the app in that channel?).`,
    );
  }
  // Who created it and from which thread: the service does not record it (Delete is the author's).
  try {
    await svc.deps.store.taskOrigins.record({
      workspaceId: planning.workspaceId,
      ...coords,
      authorSlackId: planning.slackUserId,
      slackChannelId: where.channel,
      // From a message: its thread. From a feature card's Add task: the card's own thread (none when
      // the card could not be posted; the author is still remembered).
      threadTs: where.threadTs ?? cardTs ?? '',
    });
  } catch (error) {
    svc.deps.logger.warn({ action: 'create-task origin', err: error }, 'could not record the task origin');
  }
  // The feature's cards list its tasks by state: they show the new one. Assigned, the assignee hears
  // of it as from any other surface — once (a retried submission or workflow step does not run this
  // again), through their preferences and quiet hours — and the watch does not tell it again.
  await svc.changes.changed({
    ...madeFromSlack(acting, client, coords),
    changes: [
      { kind: 'taskAdded', taskId: coords.taskId, heading: shown.heading },
      ...(assigned
        ? [
            {
              kind: 'taskAssignee' as const,
              taskId: coords.taskId,
              heading: shown.heading,
              to: assigned.planningUserId,
            },
          ]
        : []),
    ],
    known: { tasks: new Map([[coords.taskId, taskOnCard(shown)]]) },
    // Its card was just posted as it is: not updated again.
    posted: [coords.taskId],
  });
  return { coords, ...(cardTs ? { card: { channel: where.channel, ts: cardTs } } : {}), notes };
}

async function run(svc: Services, data: TaskSubmission, args: SubmitArgs) {
  const { notes } = await createTask(svc, planningOf(args.context), args.client, data, data.meta);
  return {
    text: joinMd([
      md`:white_check_mark: Task *${data.heading}* created.`,
      ...notes.map((n) => md`:warning: ${n}`),
    ]),
  };
}

/** The form again, as submitted: the selects keep the options they had (read back from the view). */
function retry(data: TaskSubmission, problem: Mrkdwn, view: ViewOutput) {
  return createTaskModal({
    meta: data.meta,
    ...(data.meta.link
      ? {}
      : {
          teams: teamChoices(view.blocks),
          teamId: data.teamId,
          channels: channelChoices(view.blocks),
          channelId: data.channelId,
        }),
    heading: data.heading,
    details: data.details ?? '',
    feature: { id: data.featureId, heading: data.featureHeading },
    assignee: data.assignee,
    problem,
  });
}

export const createTaskSubmission = submission({
  action: 'create-task',
  title: TASK_TITLE,
  working: 'Creating the task…',
  parse: TaskSubmission.parse,
  run,
  retry,
});

export async function createTaskShortcut(svc: Services, args: MessageShortcutArgs) {
  const { shortcut, client } = args;
  const planning = planningOf(args.context);
  await loadModal(
    { ...modalRequest(svc, args, shortcut.trigger_id, 'create-task open'), title: TASK_TITLE },
    async ({ planning: service }) => {
      const channel = shortcut.channel.id;
      const messageTs = shortcut.message.ts;
      const [link, permalink] = await Promise.all([
        svc.deps.store.links.get(planning.workspaceId, channel),
        client.chat
          .getPermalink({ channel, message_ts: messageTs })
          .then((r) => r.permalink)
          .catch(() => undefined),
      ]);
      const { heading, details } = prefillTask(shortcut.message.text ?? '', permalink);
      const meta = {
        channel,
        threadTs: shortcut.message.thread_ts ?? messageTs,
        ...(link ? { link: { teamId: link.teamId, channelId: link.channelId } } : {}),
      };
      if (!link) {
        const { teams } = await service.teams.listAll({ pageSize: 100 });
        return createTaskModal({ meta, teams, heading, details });
      }
      const team = await service.teams.read(link.teamId);
      const planningChannel = team.channels.find((c) => c.id === link.channelId);
      return createTaskModal({
        meta,
        linkedTo: `${team.teamName ?? team.id} › ${planningChannel?.channelName ?? link.channelId}`,
        heading,
        details,
      });
    },
  );
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
 * The task card goes in the pressed card's thread when it is a message in a channel; from an
 * ephemeral list or a modal there is no thread to go in, so it goes in the channel itself (the
 * user's DM with the app when pressed in a modal).
 */
export async function featureAddTaskAction(svc: Services, args: ActionArgs) {
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
}

/** Picking a team in the create-task form: its channels, the heading, details and assignee as typed. */
export function createTaskTeamPicked(svc: Services, args: ActionArgs) {
  return redrawForTeam(svc, args, (picked, view, values) => {
    const typed = TaskSubmission.input(values, view.private_metadata);
    return createTaskModal({
      ...picked,
      meta: TaskModalMeta.parse(parseJson(view.private_metadata)),
      heading: typed.heading ?? '',
      details: typed.details ?? '',
      assignee: typed.assignee,
    });
  });
}

export async function featureOptions(svc: Services, args: OptionsArgs) {
  const view = (args.body as BlockSuggestion).view;
  // The form's own reading: the linked planning channel, else the team and channel picked so far.
  const typed = parseCarried(TaskModalMeta, view?.private_metadata)
    ? TaskSubmission.input((view?.state?.values ?? {}) as StateValues, view?.private_metadata)
    : undefined;
  const teamId = typed?.teamId;
  const channelId = typed?.channelId;
  if (!teamId || !channelId) {
    await args.ack({ options: [] });
    return;
  }
  await answerOptions(svc, args, 'feature options', async ({ planning }, call) => {
    const page = await planning.features.list(teamId, channelId, { pageSize: 500 }, call);
    return (
      page.features
        // Deep-context features are read-only: no new task can go there.
        .filter((f) => f.stage !== 'deep context' && matches(f.heading ?? '', args.body.value))
        .map((f) => option(f.heading ?? f.id, f.id))
    );
  });
}
