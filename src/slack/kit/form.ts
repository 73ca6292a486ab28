/**
 * Forms declared once. A form lists each input once: its field (block and action id: its errors
 * show on that block), how its raw value is read (`read.value`, `.label`, `.option`, `.values`,
 * `.options`, `.number`, `.users`, `.checked`, `.metadata` for the private_metadata) and its zod
 * schema. That one list reads a submitted modal, checks it, and turns zod's issues into Slack's
 * `response_action: 'errors'` map (block id → the first message for it). Rules across inputs are the
 * form's zod refinements, shown on the input their path names.
 *
 * ```ts
 * const Rename = form({
 *   meta: read.metadata(FIELD.heading, TaskCoords), // a bad private_metadata is said on the heading
 *   heading: read.value(FIELD.heading, z.string({ error: 'Write a heading.' }).trim().min(1)),
 *   notify: read.checked(NOTIFY_FIELD, 'notify'),
 * });
 * Rename.parse(view.state.values, view.private_metadata);
 * // FormResult<{ meta: TaskCoords; heading: string; notify: boolean }>
 * ```
 */
import type { ViewStateValue } from '@slack/bolt';
import { z } from 'zod';
import { SLACK_USER_ID, showsNothing } from '../../blockkit/index.js';
import { LIMITS } from '../../planning/index.js';
import type { Field } from './ids.js';
import { parseJson } from './round-trip.js';

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
function fieldLabel(values: StateValues, field: Field): string | undefined {
  return stateOf(values, field).value?.selected_option?.text.text;
}

/** The selected options of a multi-choice field (checkboxes, a multi-select), with their text. */
function fieldOptions(values: StateValues, field: Field): { value: string; label: string }[] {
  return (stateOf(values, field).value?.selected_options ?? []).map((o) => ({
    value: o.value,
    label: o.text.text,
  }));
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

/** Text that must show something: trimmed, and refused with `required` when it shows nothing ({@link showsNothing}). */
export const requiredText = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .refine((text) => !showsNothing(text), required);

/** A heading (a task's, a feature's, an assumption's): required, within the service's limit. */
export const headingText = (required: string) =>
  requiredText(required).max(LIMITS.heading, `At most ${LIMITS.heading} characters.`);

/** Text that may be left out, within `max`: trimmed, and none when it shows nothing ({@link showsNothing}). */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .optional()
    .transform((text) => (text === undefined || showsNothing(text) ? undefined : text));

/** Details: optional, within the service's limit. */
export const detailsText = () => optionalText(LIMITS.details);

/** A minute entry (feedback, reply, discovery): 1 to 512 characters. */
export const minuteText = (what: string) =>
  requiredText(`Write your ${what}.`).max(LIMITS.minuteText, `At most ${LIMITS.minuteText} characters.`);

export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: Record<string, string> };

/** What a submitted modal gives a form to read. */
export interface FormSource {
  readonly values: StateValues;
  /** The view's private_metadata as Slack gives it back: text, maybe empty, maybe not JSON. */
  readonly privateMetadata: string;
}

/** One input of a form: where its errors show, how its raw value is read, and its schema. */
export interface FormInput<R = unknown, S extends z.ZodType = z.ZodType> {
  /** The field whose block shows this input's errors (its suffixed block id, if it has one). */
  readonly on: Field;
  readonly schema: S;
  /** The raw value, unchecked. */
  readonly read: (source: FormSource) => R;
  /** What every error of this input says, whatever zod's issue says. */
  readonly message?: string;
}

export interface ReadOptions<R, M> {
  /**
   * The value the form checks, made from what the field holds and the private_metadata: a linked
   * channel's team instead of the team select, a picked task's coordinates.
   */
  map?: (value: R, privateMetadata: string) => M;
  /** What every error of this input says, whatever zod's issue says. */
  message?: string;
}

/**
 * How one kind of input is read: given its field, its schema and maybe {@link ReadOptions}. (The raw
 * value's type is the reader's or the map's, never guessed from where the input is used.)
 */
type Reader<R> = <S extends z.ZodType, M = R>(
  field: Field,
  schema: S,
  options?: ReadOptions<R, M>,
) => FormInput<NoInfer<M>, S>;

const reader =
  <R>(get: (values: StateValues, field: Field) => R): Reader<R> =>
  <S extends z.ZodType, M = R>(
    field: Field,
    schema: S,
    { map, message }: ReadOptions<R, M> = {},
  ): FormInput<M, S> => ({
    on: field,
    schema,
    read: map
      ? ({ values, privateMetadata }) => map(get(values, field), privateMetadata)
      : // Without a map, M is R (its default): the value is the field's.
        ({ values }) => get(values, field) as unknown as M,
    ...(message === undefined ? {} : { message }),
  });

type Picked = { value: string; label: string };

/**
 * How each input of a form is read. Each takes the field (its errors show on its block), the
 * schema, and optionally how the value is {@link ReadOptions.map mapped} and one message for all
 * its errors.
 */
export const read = {
  /** The single value: text, the selected option's value, a user, a conversation, a time. */
  value: reader(fieldValue),

  /** The text shown for the selected option (a team's or a notion's name). */
  label: reader(fieldLabel),

  /** The selected option, its value and its text (the text is the value when it has none). */
  option: reader<Picked | undefined>((values, field) => {
    const value = fieldValue(values, field);
    return value === undefined ? undefined : { value, label: fieldLabel(values, field) ?? value };
  }),

  /** The values of the selected options (checkboxes, a multi-select); none is `[]`. */
  values: reader((values, field) => fieldOptions(values, field).map((o) => o.value)),

  /** The selected options with their text (a multi-select whose names the form shows again). */
  options: reader(fieldOptions),

  /** The value as a number (`Number`), undefined when empty: the schema says what is a valid one. */
  number: reader((values, field) => {
    const raw = fieldValue(values, field);
    return raw === undefined ? undefined : Number(raw);
  }),

  /** The people picked in a multi-user select; none is `[]`. */
  users: reader((values, field) => stateOf(values, field).value?.selected_users ?? []),

  /** Whether the checkbox `option` (its value) is ticked. */
  checked: (field: Field, option: string) =>
    reader((values, f) => fieldOptions(values, f).some((o) => o.value === option))(field, z.boolean()),

  /**
   * The private_metadata: what the form carries (ids), checked by `schema`, its errors shown on
   * `on`. Read as JSON unless `parse` says how (undefined when absent or not JSON).
   */
  metadata: <S extends z.ZodType, P = unknown>(
    on: Field,
    schema: S,
    parse: (privateMetadata: string) => P = parseJson as (privateMetadata: string) => P,
  ): FormInput<NoInfer<P>, S> => ({
    on,
    schema,
    read: ({ privateMetadata }) => parse(privateMetadata),
  }),
};

type Inputs = Record<string, FormInput>;
type ShapeOf<I extends Inputs> = { [K in keyof I]: I[K]['schema'] };
/** What a form's inputs read, unchecked. */
export type FormInputOf<I extends Inputs> = { [K in keyof I]: ReturnType<I[K]['read']> };

export interface Form<T, I> {
  /** The schema the inputs make (with the form's refinements). */
  readonly schema: z.ZodType<T>;
  /** What was submitted, unchecked: to draw the form again as typed (a team picked, a redraw). */
  input(values: StateValues, privateMetadata?: string): I;
  /** Reads and checks the submission: the data, or each block's first error (Slack's `errors`). */
  parse(values: StateValues, privateMetadata?: string): FormResult<T>;
}

/** The data a form gives once checked. */
export type FormOutput<F> = F extends Form<infer T, unknown> ? T : never;

/**
 * A form from its inputs, in the order their errors are found. `refine` adds rules across inputs
 * (zod's `refine`/`superRefine` on the form's object): an issue's path names the input whose block
 * shows it; an issue naming none shows on the first input's block.
 */
export function form<I extends Inputs, S extends z.ZodType = z.ZodObject<ShapeOf<I>>>(
  inputs: I,
  options: { refine?: (object: z.ZodObject<ShapeOf<I>>) => S } = {},
): Form<z.output<S>, FormInputOf<I>> {
  const entries = Object.entries(inputs);
  const object = z.object(
    Object.fromEntries(entries.map(([key, input]) => [key, input.schema])) as ShapeOf<I>,
  );
  const schema = (options.refine ? options.refine(object) : object) as S;
  const first = entries[0]?.[1];

  const input = (values: StateValues, privateMetadata = '') =>
    Object.fromEntries(
      entries.map(([key, i]) => [key, i.read({ values, privateMetadata })]),
    ) as FormInputOf<I>;

  const parse = (values: StateValues, privateMetadata = ''): FormResult<z.output<S>> => {
    const parsed = schema.safeParse(input(values, privateMetadata));
    if (parsed.success) return { ok: true, data: parsed.data };
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      const named = Object.hasOwn(inputs, key) ? inputs[key] : undefined;
      const shownOn = named ?? first;
      if (!shownOn) continue;
      const blockId = stateOf(values, shownOn.on).blockId;
      if (!(blockId in errors)) errors[blockId] = named?.message ?? issue.message;
    }
    return { ok: false, errors };
  };

  return { schema: schema as z.ZodType<z.output<S>>, input, parse };
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
