/**
 * Draft tasks: a message's thread (read with `conversations.replies`) turned into proposed tasks,
 * one per action-like line (proposals.ts), shown as an editable list in a modal — a heading each,
 * blank to leave it out, and the feature of the channel's plan they go to. Nothing is created
 * until the person presses Create; then each kept heading becomes a task through the tasks topic
 * (its card posted in the thread, the feature's cards updated), once however often Slack sends the
 * submission, and the modal lists each with its card's permalink.
 *
 * The same form takes the tasks the assistant's model proposes (proposed.ts): then there is no
 * thread, and the cards are posted in the channel the person was looking at, as new messages.
 */
import type { ViewOutput } from '@slack/bolt';
import type { KnownBlock, ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import {
  capOptions,
  channelMention,
  context,
  inline,
  input,
  joinMd,
  type Mrkdwn,
  md,
  modal,
  option,
  textInput,
} from '../../blockkit/index.js';
import { LIMITS } from '../../planning/models.js';
import type { MessageShortcutArgs, SubmitArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { FormResult, StateValues } from '../kit/form.js';
import { fieldValue } from '../kit/form.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND } from '../kit/ids.js';
import { formProblem, loadModal, modalRequest, noticeView, withoutFormProblem } from '../kit/modal.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { type Outcome, submission } from '../kit/submission.js';
import { type CreatedTask, createTask } from '../tasks/index.js';
import { ASSISTANT_VIEW, DRAFT_FIELD } from './ids.js';
import { proposals } from './proposals.js';

export const DRAFT_TITLE = 'Draft tasks';

/**
 * Where the cards go (a thread of `channel`, or `channel` itself when there is no thread) and which
 * planning channel the tasks go to: ids only. `threadTs` was required before proposals from the
 * model: forms opened then still carry it.
 */
export const DraftMeta = z.object({
  channel: z.string().min(1),
  threadTs: z.string().min(1).optional(),
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  /** How many task fields the form has. */
  count: z.number().int().min(1),
});
export type DraftMeta = z.infer<typeof DraftMeta>;

/** Messages of a thread read at most. */
export const THREAD_READ = 200;

const FROM_THREAD = md`One task per action-like line of the thread. Edit them, or empty a line to leave it out: nothing is created until you press *Create tasks*.`;

/** The editable list: the feature (chosen already when `featureId` is one of them), then a heading per proposed task. */
export function draftModal(form: {
  meta: DraftMeta;
  features: readonly { id: string; heading?: string }[];
  headings: readonly string[];
  /** What the list is, above it; the thread's lines unless told. */
  intro?: Mrkdwn;
  featureId?: string;
}): ModalView {
  const options = capOptions(form.features.map((f) => option(f.heading ?? f.id, f.id)));
  const chosen = options.find((o) => o.value === form.featureId);
  const blocks: KnownBlock[] = [
    context(form.intro ?? FROM_THREAD),
    input('Feature', DRAFT_FIELD.feature.block, {
      type: 'static_select',
      action_id: DRAFT_FIELD.feature.action,
      placeholder: { type: 'plain_text', text: 'Choose the feature' },
      options,
      ...(chosen ? { initial_option: chosen } : {}),
    }),
    ...form.headings.map((heading, i) =>
      input(
        `Task ${i + 1}`,
        DRAFT_FIELD.task(i).block,
        textInput(DRAFT_FIELD.task(i).action, { max: LIMITS.heading, value: heading }),
        { optional: true },
      ),
    ),
  ];
  return modal({
    callbackId: ASSISTANT_VIEW.draftTasks,
    title: DRAFT_TITLE,
    submit: 'Create tasks',
    close: 'Cancel',
    blocks,
    privateMetadata: JSON.stringify(form.meta),
  });
}

/**
 * The form for tasks whose cards go to `channel` (in `threadTs` when given), as the person reads the
 * channel's plan — or why there is none: the channel not linked, no heading, no feature to add to.
 */
export async function draftFormFor(
  svc: Services,
  acting: Acting,
  where: { channel: string; threadTs?: string },
  proposed: {
    /** The headings, read once the channel is known to be linked. */
    headings: () => Promise<readonly string[]>;
    none: Mrkdwn;
    intro?: Mrkdwn;
    /** A feature to choose at once, by its heading (case aside), when the channel has it. */
    featureHeading?: string;
  },
): Promise<ModalView> {
  const link = await svc.deps.store.links.get(acting.workspaceId, where.channel);
  if (!link) {
    return noticeView(
      DRAFT_TITLE,
      md`${channelMention(where.channel)} is not linked to a planning channel, so its tasks would have nowhere to go: a workspace admin can run \`${COMMAND} link\` there first.`,
    );
  }
  const [headings, page] = await Promise.all([
    proposed.headings(),
    acting.planning.features.list(link.teamId, link.channelId, { pageSize: 500 }),
  ]);
  if (headings.length === 0) return noticeView(DRAFT_TITLE, proposed.none);
  const features = page.features.filter((f) => f.stage !== 'deep context');
  if (features.length === 0) {
    return noticeView(
      DRAFT_TITLE,
      md`The linked planning channel has no feature to add tasks to yet: create one with \`${COMMAND} feature new\`.`,
    );
  }
  const wanted = proposed.featureHeading?.trim().toLowerCase();
  const featureId = wanted ? features.find((f) => f.heading?.trim().toLowerCase() === wanted)?.id : undefined;
  const meta: DraftMeta = {
    channel: where.channel,
    ...(where.threadTs ? { threadTs: where.threadTs } : {}),
    teamId: link.teamId,
    channelId: link.channelId,
    count: headings.length,
  };
  return draftModal({
    meta,
    features,
    headings,
    ...(proposed.intro ? { intro: proposed.intro } : {}),
    ...(featureId ? { featureId } : {}),
  });
}

/** The message shortcut: the modal opens at once, then fills with the thread's proposals. */
export async function draftTasksShortcut(svc: Services, args: MessageShortcutArgs) {
  const { shortcut, client } = args;
  await loadModal(
    { ...modalRequest(svc, args, shortcut.trigger_id, 'draft tasks open'), title: DRAFT_TITLE },
    (acting) => {
      const channel = shortcut.channel.id;
      const threadTs = shortcut.message.thread_ts ?? shortcut.message.ts;
      return draftFormFor(
        svc,
        acting,
        { channel, threadTs },
        {
          headings: async () => {
            const thread = await client.conversations.replies({ channel, ts: threadTs, limit: THREAD_READ });
            return proposals(thread.messages ?? []);
          },
          none: md`I found no action-like line in this thread (a bullet, a checklist box, a “TODO”, a “we should…”, an imperative): nothing to propose.`,
        },
      );
    },
  );
}

interface DraftSubmission {
  meta: DraftMeta;
  featureId: string;
  headings: string[];
}

/** Checks the form without I/O: a feature, and at least one heading kept. */
export function parseDraft(values: StateValues, privateMetadata: string): FormResult<DraftSubmission> {
  const meta = parseCarried(DraftMeta, privateMetadata);
  if (!meta)
    return { ok: false, errors: { [DRAFT_FIELD.feature.block]: 'This form is out of date: open it again.' } };
  const featureId = fieldValue(values, DRAFT_FIELD.feature);
  const headings = Array.from(
    { length: meta.count },
    (_, i) => fieldValue(values, DRAFT_FIELD.task(i))?.trim() ?? '',
  ).filter((h) => h !== '');
  const errors: Record<string, string> = {};
  if (!featureId) errors[DRAFT_FIELD.feature.block] = 'Choose the feature.';
  if (headings.length === 0) errors[DRAFT_FIELD.task(0).block] = 'Keep at least one task.';
  if (!featureId || headings.length === 0) return { ok: false, errors };
  return { ok: true, data: { meta, featureId, headings } };
}

/** A created task's line: its heading, linked to its card when it has one. */
async function createdLine(client: WebClient, heading: string, created: CreatedTask): Promise<Mrkdwn> {
  const permalink = created.card
    ? await client.chat
        .getPermalink({ channel: created.card.channel, message_ts: created.card.ts })
        .then((r) => r.permalink)
        .catch(() => undefined)
    : undefined;
  const name = inline(heading, 150);
  return permalink ? md`• <${permalink}|${name}>` : md`• ${name}`;
}

async function run(svc: Services, data: DraftSubmission, args: SubmitArgs): Promise<Outcome> {
  const planning = planningOf(args.context);
  const { meta } = data;
  const lines: Mrkdwn[] = [];
  const notes: Mrkdwn[] = [];
  for (const heading of data.headings) {
    try {
      const created = await createTask(
        svc,
        planning,
        args.client,
        { teamId: meta.teamId, channelId: meta.channelId, featureId: data.featureId, heading },
        { channel: meta.channel, ...(meta.threadTs ? { threadTs: meta.threadTs } : {}) },
      );
      lines.push(await createdLine(args.client, heading, created));
      notes.push(...created.notes);
    } catch (error) {
      // Nothing created yet: the form comes back with why. Once some exist, the rest is reported.
      if (lines.length === 0) throw error;
      svc.deps.logger.warn(
        { action: 'draft tasks', workspaceId: planning.workspaceId, err: error },
        'a drafted task was not created',
      );
      notes.push(md`“${inline(heading, 100)}” was not created: the planning service did not take it.`);
    }
  }
  const text = joinMd([
    md`:white_check_mark: Created ${String(lines.length)} task${lines.length === 1 ? '' : 's'}:`,
    ...lines,
    ...notes.map((n) => md`:warning: ${n}`),
  ]);
  return { title: DRAFT_TITLE, text };
}

/** The form again as it was submitted, with why above it. */
const retry = (_data: DraftSubmission, problem: Mrkdwn, view: ViewOutput): ModalView =>
  modal({
    callbackId: ASSISTANT_VIEW.draftTasks,
    title: DRAFT_TITLE,
    submit: 'Create tasks',
    close: 'Cancel',
    blocks: [formProblem(problem), ...withoutFormProblem(view.blocks as KnownBlock[])],
    privateMetadata: view.private_metadata,
  });

export const draftSubmission = submission({
  action: 'draft tasks',
  title: DRAFT_TITLE,
  working: 'Creating the tasks…',
  parse: parseDraft,
  run,
  retry,
});
