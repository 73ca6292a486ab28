/**
 * The create-task modal, the prefill from a Slack message, and reading a task card back (the card
 * itself is built in task-card.ts). A card carries the task's coordinates (message metadata, the
 * first block's id and every button's value), so a shortcut or a button on it knows its task.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import { z } from 'zod';
import { context, input, type Mrkdwn, md, modal, option, textInput, truncate } from '../../blockkit/index.js';
import { type Channel, LIMITS, type Team } from '../../planning/models.js';
import { ACTION, FIELD, TASK_CARD_BLOCK_PREFIX, TASK_CARD_EVENT, VIEW } from '../ids.js';
import { parseCarried } from '../round-trip.js';
import { teamChannelInputs } from './link.js';
import { formProblem } from './views.js';

/** Where a task lives in the service. */
export const TaskCoords = z.object({
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  featureId: z.string().min(1),
  taskId: z.string().min(1),
});
export type TaskCoords = z.infer<typeof TaskCoords>;

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
// Prefill
// ---------------------------------------------------------------------------------------------

/**
 * Slack message text → plain text: links and mentions lose their brackets, entities are decoded
 * (the form shows plain text, and the service stores what the user meant, not Slack's escaping).
 */
export function slackTextToPlain(text: string): string {
  return text
    .replace(/<([^<>|]+)\|([^<>]+)>/g, '$2')
    .replace(/<([^<>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The heading (first non-empty line, cut to 200 with "…") and the details (the text, then the
 * permalink; cut to 2048 with the permalink always kept) of a task made from a message.
 */
export function prefillTask(text: string, permalink?: string): { heading: string; details: string } {
  const plain = slackTextToPlain(text).trim();
  const firstLine =
    plain
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  const heading = truncate(firstLine || 'Task from a Slack message', LIMITS.heading);
  return { heading, details: withPermalink(plain, permalink, LIMITS.details) };
}

/** A discovery made from a message: its text then its permalink, within the 512 characters of a minute. */
export function prefillDiscovery(text: string, permalink?: string): string {
  return withPermalink(slackTextToPlain(text).trim(), permalink, LIMITS.minuteText);
}

/** `plain` then the permalink, cut to `max` with the permalink always kept. */
function withPermalink(plain: string, permalink: string | undefined, max: number): string {
  if (!permalink) return truncate(plain, max);
  const room = max - Array.from(permalink).length - 2;
  const body = room > 0 ? truncate(plain, room) : '';
  return body ? `${body}\n\n${permalink}` : truncate(permalink, max);
}

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
    : teamChannelInputs({
        teams: form.teams ?? [],
        teamId: form.teamId,
        channels: form.channels,
        channelId: form.channelId,
      });
  return modal({
    callbackId: VIEW.createTask,
    title: TASK_TITLE,
    submit: 'Create',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      ...where,
      input('Feature', FIELD.feature.block, {
        type: 'external_select',
        action_id: FIELD.feature.action,
        min_query_length: 0,
        placeholder: { type: 'plain_text', text: 'Search the features' },
        ...(form.feature
          ? { initial_option: option(form.feature.heading ?? form.feature.id, form.feature.id) }
          : {}),
      }),
      input(
        'Heading',
        FIELD.heading.block,
        textInput(FIELD.heading.action, { max: LIMITS.heading, value: form.heading }),
      ),
      input(
        'Details',
        FIELD.details.block,
        textInput(FIELD.details.action, { multiline: true, max: LIMITS.details, value: form.details }),
        { optional: true },
      ),
      input(
        'Assignee',
        FIELD.assignee.block,
        {
          type: 'users_select',
          action_id: FIELD.assignee.action,
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

// ---------------------------------------------------------------------------------------------
// Card
// ---------------------------------------------------------------------------------------------

// The card itself is built in ./task-card.ts (liveTaskCard); here: reading a card back.

/** A message as Slack hands it to a shortcut or an action. */
export interface CardLike {
  metadata?: { event_type?: string; event_payload?: unknown };
  blocks?: unknown[];
}

/** The task a card is about, or `undefined` when the message is not a task card. */
export function taskCoordsFromMessage(msg: CardLike | undefined): TaskCoords | undefined {
  if (!msg) return undefined;
  if (msg.metadata?.event_type === TASK_CARD_EVENT) {
    const parsed = TaskCoords.safeParse(msg.metadata.event_payload);
    if (parsed.success) return parsed.data;
  }
  for (const block of msg.blocks ?? []) {
    const b = block as { block_id?: string; elements?: { action_id?: string; value?: string }[] };
    if (b.block_id?.startsWith(TASK_CARD_BLOCK_PREFIX)) {
      const [teamId, channelId, featureId, taskId] = b.block_id
        .slice(TASK_CARD_BLOCK_PREFIX.length)
        .split('|');
      const parsed = TaskCoords.safeParse({ teamId, channelId, featureId, taskId });
      if (parsed.success) return parsed.data;
    }
    const feedback = b.elements?.find((e) => e.action_id === ACTION.feedbackOpen);
    if (feedback?.value) {
      const parsed = parseCoords(feedback.value);
      if (parsed) return parsed;
    }
  }
  return undefined;
}

/** Coordinates from a button value or private_metadata (JSON), or `undefined`. */
export function parseCoords(json: string): TaskCoords | undefined {
  return parseCarried(TaskCoords, json);
}
