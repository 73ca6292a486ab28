/**
 * Log discovery: from a task card's button (the task known) or on any message (the task picked among
 * the linked channel's); recorded, confirmed in the card's thread, and the card's counts updated.
 */

import type { BlockSuggestion } from '@slack/bolt';
import type { KnownBlock, ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import {
  context,
  inline,
  input,
  type Mrkdwn,
  md,
  mention,
  message,
  modal,
  option,
  quote,
  section,
  textInput,
  truncate,
} from '../../blockkit/index.js';
import { LIMITS } from '../../planning/models.js';
import type { ActionArgs, MessageShortcutArgs, OptionsArgs } from '../bolt/routes.js';
import { type PlanningContext, planningOf } from '../kit/acting.js';
import { madeFromSlack, type TaskFacts } from '../kit/changes/index.js';
import { type FormOutput, form, minuteText, read } from '../kit/form.js';
import { COMMAND } from '../kit/ids.js';
import { formProblem, loadModal, modalRequest, noticeView } from '../kit/modal.js';
import { answerOptions, matches } from '../kit/options.js';
import { parseCarried, toCheckedWire, wireValue } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { messageShowsNothing, prefillDiscovery } from '../kit/slack-text.js';
import { submission } from '../kit/submission.js';
import { type CardLike, TaskCoords, taskCoordsFromMessage } from './card.js';
import { TASK_FIELD, TASK_VIEW } from './ids.js';
import { openTaskModal } from './live.js';

// ---------------------------------------------------------------------------------------------
// Log discovery
// ---------------------------------------------------------------------------------------------

/** What the discovery modal remembers, as code reads it (see {@link DiscoveryMeta}). */
export interface DiscoveryMeta {
  /** The task, when the modal was opened for one. */
  task?: TaskCoords;
  /** Else the linked planning channel whose tasks the modal offers. */
  planningChannel?: { teamId: string; channelId: string };
}

/** The discovery modal's private_metadata; on the wire `c` the task, `l` the planning channel. */
export const DiscoveryMeta = wireValue(
  z.object({
    c: TaskCoords.optional(),
    l: z.object({ teamId: z.string(), channelId: z.string() }).optional(),
  }),
  (w): DiscoveryMeta => ({
    ...(w.c ? { task: w.c } : {}),
    ...(w.l ? { planningChannel: w.l } : {}),
  }),
  ({ task, planningChannel }) => ({
    ...(task
      ? {
          c: {
            teamId: task.teamId,
            channelId: task.channelId,
            featureId: task.featureId,
            taskId: task.taskId,
          },
        }
      : {}),
    ...(planningChannel
      ? { l: { teamId: planningChannel.teamId, channelId: planningChannel.channelId } }
      : {}),
  }),
);

export const DISCOVERY_TITLE = 'Log discovery';

/** A picked task in the discovery select: `<featureId>|<taskId>`. */
export function taskOptionValue(featureId: string, taskId: string): string {
  return `${featureId}|${taskId}`;
}

export function parseTaskOptionValue(value: string): { featureId: string; taskId: string } | undefined {
  const [featureId, taskId, ...rest] = value.split('|');
  return featureId && taskId && rest.length === 0 ? { featureId, taskId } : undefined;
}

export function discoveryModal(form: {
  meta: DiscoveryMeta;
  heading?: string;
  text: string;
  picked?: { value: string; label: string };
  problem?: Mrkdwn;
}): ModalView {
  const where: KnownBlock[] = form.meta.task
    ? [section(md`On task *${inline(form.heading ?? 'this task', LIMITS.heading)}*`)]
    : [
        input('Task', TASK_FIELD.discoveryTask.block, {
          type: 'external_select',
          action_id: TASK_FIELD.discoveryTask.action,
          min_query_length: 0,
          placeholder: { type: 'plain_text', text: "Search this channel's tasks" },
          ...(form.picked ? { initial_option: option(form.picked.label, form.picked.value) } : {}),
        }),
      ];
  return modal({
    callbackId: TASK_VIEW.discovery,
    title: DISCOVERY_TITLE,
    submit: 'Log',
    close: 'Cancel',
    privateMetadata: toCheckedWire(DiscoveryMeta, form.meta),
    blocks: [
      ...where,
      input(
        'Discovery',
        TASK_FIELD.discovery.block,
        textInput(TASK_FIELD.discovery.action, { multiline: true, max: LIMITS.minuteText, value: form.text }),
      ),
      context(md`Discoveries go in the task's minutes, for the current iteration.`),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

/**
 * Logs a discovery on the task as `planning`'s person — the form's submitter, or the person a
 * workflow step acts as — then updates the task's cards and confirms it in the card's thread (both
 * best effort). Returns the task as its cards now show it, and whether the thread has the confirmation.
 */
export async function logDiscovery(
  svc: Services,
  planning: PlanningContext,
  client: WebClient,
  c: TaskCoords,
  text: string,
): Promise<{ after: TaskFacts | undefined; confirmed: boolean }> {
  const acting = await planning.acting();
  const discovery = await acting.planning.tasks.discoveryCreate(
    c.teamId,
    c.channelId,
    c.featureId,
    c.taskId,
    {
      details: text,
    },
  );
  // Logged: the cards and the thread's confirmation are best effort; the watch does not post it again.
  const reflected = await svc.changes.changed({
    ...madeFromSlack(acting, client, c),
    tasks: [c.taskId],
    minutes: [{ taskId: c.taskId, id: discovery.id }],
  });
  const after = reflected.tasks.get(c.taskId);
  const thread = await cardThread(svc, planning.workspaceId, c.taskId);
  if (!thread) return { after, confirmed: false };
  try {
    await client.chat.postMessage({
      channel: thread.channel,
      thread_ts: thread.ts,
      ...discoveryLogged(planning.slackUserId, after?.heading ?? 'the task', text),
      unfurl_links: false,
    });
    return { after, confirmed: true };
  } catch (error) {
    svc.deps.logger.warn({ action: 'discovery confirm', err: error }, 'could not confirm in the thread');
    return { after, confirmed: false };
  }
}

/** The confirmation posted in the task card's thread. */
export function discoveryLogged(by: string, heading: string, text: string) {
  const line = md`:bulb: ${mention(by)} logged a discovery on *${inline(heading, LIMITS.heading)}*:`;
  return message(line, [section(line), section(quote(truncate(text, LIMITS.minuteText)))]);
}

export const taskDiscoveryOpenAction = (svc: Services, args: ActionArgs) =>
  openTaskModal(svc, args, 'task discovery open', DISCOVERY_TITLE, async ({ planning }, c) => {
    const task = await planning.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId);
    return discoveryModal({ meta: { task: c }, heading: task.heading, text: '' });
  });

/** The task: the one the form is for, else the one picked among the planning channel's tasks. */
function formTask(picked: string | undefined, privateMetadata: string) {
  const meta = parseCarried(DiscoveryMeta, privateMetadata);
  const task = picked ? parseTaskOptionValue(picked) : undefined;
  return meta?.task ?? (meta?.planningChannel && task ? { ...meta.planningChannel, ...task } : undefined);
}

const DiscoveryForm = form({
  // Read as JSON: the schema turns what Slack carried into named fields.
  meta: read.metadata(TASK_FIELD.discovery, DiscoveryMeta),
  coords: read.value(TASK_FIELD.discoveryTask, TaskCoords, { map: formTask, message: 'Choose a task.' }),
  /** Kept to show the form again with the task picked. */
  picked: read.option(
    TASK_FIELD.discoveryTask,
    z.object({ value: z.string(), label: z.string() }).optional(),
  ),
  text: read.value(TASK_FIELD.discovery, minuteText('discovery')),
});

type DiscoveryForm = FormOutput<typeof DiscoveryForm>;

export const discoverySubmission = submission<DiscoveryForm>({
  action: 'discovery',
  title: DISCOVERY_TITLE,
  working: 'Logging the discovery…',
  parse: DiscoveryForm.parse,
  retry: (data, problem) =>
    discoveryModal({
      meta: data.meta,
      text: data.text,
      ...(data.picked ? { picked: data.picked } : {}),
      problem,
    }),
  // A discovery is created, not set: a retried submission must not log it twice.
  run: async (svc, { coords: c, text }, args) => {
    const { after, confirmed } = await logDiscovery(svc, planningOf(args.context), args.client, c, text);
    const where = confirmed ? md` It is confirmed in the task's thread.` : md``;
    return {
      text: md`:white_check_mark: Discovery logged on *${after?.heading ?? 'the task'}*.${where}`,
    };
  },
});

/** Where the task's card lives: the thread it was created from, else its first posted card. */
async function cardThread(svc: Services, workspaceId: string, taskId: string) {
  const origin = await svc.deps.store.taskOrigins.get(workspaceId, taskId);
  if (origin) return { channel: origin.slackChannelId, ts: origin.threadTs };
  const [card] = await svc.deps.store.cards.list(workspaceId, 'task', taskId);
  return card ? { channel: card.slackChannelId, ts: card.messageTs } : undefined;
}

const NOT_LINKED = md`This channel is not linked to a planning channel, and this message is not in a task card's thread. Use *Log discovery* in a task card's thread, or ask a workspace admin to run \`${COMMAND} link\` here.`;

const NO_TEXT = md`This message shows no text, so there is nothing to log as a discovery: nothing was recorded.`;

export async function logDiscoveryShortcut(svc: Services, args: MessageShortcutArgs) {
  const { shortcut, client } = args;
  const planning = planningOf(args.context);
  await loadModal(
    { ...modalRequest(svc, args, shortcut.trigger_id, 'log discovery open'), title: DISCOVERY_TITLE },
    async ({ planning: service }) => {
      const channel = shortcut.channel.id;
      const msg = shortcut.message;
      if (messageShowsNothing(msg)) return noticeView(DISCOVERY_TITLE, NO_TEXT);
      const permalink = await client.chat
        .getPermalink({ channel, message_ts: msg.ts })
        .then((r) => r.permalink)
        .catch(() => undefined);
      const text = prefillDiscovery(msg.text ?? '', permalink);
      const task = await taskOf(
        svc,
        planning.workspaceId,
        channel,
        msg as CardLike & { ts: string; thread_ts?: string },
      );
      if (task) {
        const read = await service.tasks.read(task.teamId, task.channelId, task.featureId, task.taskId);
        return discoveryModal({ meta: { task }, heading: read.heading, text });
      }
      const link = await svc.deps.store.links.get(planning.workspaceId, channel);
      if (!link) return noticeView(DISCOVERY_TITLE, NOT_LINKED);
      return discoveryModal({
        meta: { planningChannel: { teamId: link.teamId, channelId: link.channelId } },
        text,
      });
    },
  );
}

/** The task a message is about: a card itself, or any message of the thread a task was created from. */
async function taskOf(
  svc: Services,
  workspaceId: string,
  channel: string,
  msg: CardLike & { ts: string; thread_ts?: string },
): Promise<TaskCoords | undefined> {
  const card = taskCoordsFromMessage(msg);
  if (card) return card;
  const origin = await svc.deps.store.taskOrigins.findByThread(workspaceId, channel, msg.thread_ts ?? msg.ts);
  return origin
    ? {
        teamId: origin.teamId,
        channelId: origin.channelId,
        featureId: origin.featureId,
        taskId: origin.taskId,
      }
    : undefined;
}

export async function taskOptions(svc: Services, args: OptionsArgs) {
  const link = parseCarried(
    DiscoveryMeta,
    (args.body as BlockSuggestion).view?.private_metadata,
  )?.planningChannel;
  if (!link) {
    await args.ack({ options: [] });
    return;
  }
  await answerOptions(svc, args, 'task options', async ({ planning }, call) => {
    const page = await planning.features.list(link.teamId, link.channelId, { pageSize: 500 }, call);
    return page.features
      .filter((f) => f.stage !== 'deep context')
      .flatMap((f) =>
        f.tasks
          .filter((t) => matches(`${t.heading ?? ''} ${f.heading ?? ''}`, args.body.value))
          .map((t) => option(`${t.heading ?? t.id} · ${f.heading ?? f.id}`, taskOptionValue(f.id, t.id))),
      );
  });
}
