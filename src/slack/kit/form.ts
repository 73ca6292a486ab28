/**
 * Reading a submitted modal: field values out of `view.state.values`, checked with zod, and zod's
 * issues turned into Slack's `response_action: 'errors'` map (block id → message) so each error
 * shows on its own field.
 */
import type { ViewStateValue } from '@slack/bolt';
import { z } from 'zod';
import { SLACK_USER_ID } from '../../blockkit/index.js';
import { LIMITS } from '../../planning/index.js';
import type { Field } from './ids.js';

export type StateValues = Record<string, Record<string, ViewStateValue>>;

/** The state of a field; a block id may carry a suffix (`channel|<team>`), matched by prefix. */
function stateOf(values: StateValues, field: Field): { blockId: string; value?: ViewStateValue } {
  const blockId =
    Object.keys(values).find((id) => id === field.block || id.startsWith(`${field.block}|`)) ?? field.block;
  return { blockId, value: values[blockId]?.[field.action] };
}

/** The single value of a field: text, selected option, user, conversation or time; undefined when empty. */
export function fieldValue(values: StateValues, field: Field): string | undefined {
  const v = stateOf(values, field).value;
  const raw =
    v?.value ??
    v?.selected_option?.value ??
    v?.selected_user ??
    v?.selected_conversation ??
    v?.selected_time ??
    undefined;
  return raw === null || raw === undefined || raw === '' ? undefined : raw;
}

/** The text shown for the selected option (e.g. a notion's name), if any. */
export function fieldLabel(values: StateValues, field: Field): string | undefined {
  return stateOf(values, field).value?.selected_option?.text.text;
}

/** The values of a multi-choice field (checkboxes). */
export function fieldValues(values: StateValues, field: Field): string[] {
  return (stateOf(values, field).value?.selected_options ?? []).map((o) => o.value);
}

/** The block id a field has in this submission (with its suffix, if any). */
export function blockIdOf(values: StateValues, field: Field): string {
  return stateOf(values, field).blockId;
}

/**
 * A Slack user picked in a form (assignee, peer). Only a Slack user id is accepted: it is used in
 * `<@…>` mentions, where anything else could be markup.
 */
export const slackUserId = (required: string) =>
  z.string({ error: required }).regex(SLACK_USER_ID, 'Choose a person from the list.');

/** The value of an option that stands for "nothing chosen" ("(no team)", "the service is slow"). */
export const NO_CHOICE = 'none';

/** A choice in a select: required, and never {@link NO_CHOICE}. */
export const choice = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .refine((v) => v !== NO_CHOICE, required);

/** A minute entry (feedback, reply, discovery): 1 to 512 characters. */
export const minuteText = (what: string) =>
  z
    .string({ error: `Write your ${what}.` })
    .trim()
    .min(1, `Write your ${what}.`)
    .max(LIMITS.minuteText, `At most ${LIMITS.minuteText} characters.`);

export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: Record<string, string> };

/**
 * Validates `input` with `schema`; each issue's first path key names the form field it belongs to
 * (`fields[key]`), whose block gets the message.
 */
export function validateForm<S extends z.ZodType>(
  schema: S,
  input: unknown,
  values: StateValues,
  fields: Record<string, Field>,
): FormResult<z.output<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    const field = fields[key];
    const blockId = field ? blockIdOf(values, field) : Object.values(fields)[0]?.block;
    if (blockId && !(blockId in errors)) errors[blockId] = issue.message;
  }
  return { ok: false, errors };
}

/** The options of a static select in a view's blocks (to rebuild the view without fetching them again). */
export function selectOptions(blocks: unknown[], field: Field): { value: string; text: string }[] {
  for (const block of blocks) {
    const b = block as {
      block_id?: string;
      element?: { action_id?: string; options?: { value: string; text: { text: string } }[] };
    };
    if (
      b.element?.action_id === field.action &&
      (b.block_id === field.block || b.block_id?.startsWith(`${field.block}|`))
    ) {
      return (b.element.options ?? []).map((o) => ({ value: o.value, text: o.text.text }));
    }
  }
  return [];
}
