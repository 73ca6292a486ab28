/**
 * Block Kit builders that enforce Slack's limits, so a long heading or a big list degrades (cut with
 * "…", capped with "…and N more") instead of making Slack refuse the whole message, modal or tab.
 * Every surface of the app — Slack listeners and the digest — builds its blocks from these; mrkdwn
 * comes in as {@link Mrkdwn} only (see mrkdwn.ts), plain text as strings.
 */
import type {
  ActionsBlock,
  Button,
  Checkboxes,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  HomeView,
  InputBlock,
  KnownBlock,
  ModalView,
  MrkdwnElement,
  PlainTextElement,
  PlainTextInput,
  PlainTextOption,
  SectionBlock,
  StaticSelect,
} from '@slack/types';
import { SLACK_LIMITS } from './limits.js';
import { clipMrkdwn, Mrkdwn, md, truncate } from './mrkdwn.js';

/** A plain_text object cut to `max`. */
export function plain(text: string, max: number = SLACK_LIMITS.sectionText): PlainTextElement {
  return { type: 'plain_text', text: truncate(text, max), emoji: true };
}

/** A mrkdwn object cut to `max`. */
export function mrkdwn(text: Mrkdwn, max: number = SLACK_LIMITS.sectionText): MrkdwnElement {
  return { type: 'mrkdwn', text: clipMrkdwn(text, max) };
}

/** A block id, refused (a programming error) when over Slack's limit: ids are read back, never cut. */
function blockId(id: string | undefined): { block_id?: string } {
  if (id === undefined) return {};
  if (id.length > SLACK_LIMITS.blockId) throw new RangeError(`block id ${id.slice(0, 40)}… is too long`);
  return { block_id: id };
}

export function section(
  text: Mrkdwn,
  extra: { blockId?: string; accessory?: SectionBlock['accessory']; fields?: Mrkdwn[] } = {},
): SectionBlock {
  return {
    type: 'section',
    ...blockId(extra.blockId),
    text: mrkdwn(text),
    ...(extra.fields?.length
      ? {
          fields: extra.fields
            .slice(0, SLACK_LIMITS.sectionFields)
            .map((f) => mrkdwn(f, SLACK_LIMITS.fieldText)),
        }
      : {}),
    ...(extra.accessory ? { accessory: extra.accessory } : {}),
  };
}

export function header(text: string, id?: string): HeaderBlock {
  return { type: 'header', ...blockId(id), text: plain(text, SLACK_LIMITS.headerText) };
}

export function divider(): DividerBlock {
  return { type: 'divider' };
}

/** A context line; over Slack's 10 elements, the rest are left out. */
export function context(...texts: Mrkdwn[]): ContextBlock {
  return {
    type: 'context',
    elements: texts.slice(0, SLACK_LIMITS.contextElements).map((t) => mrkdwn(t)),
  };
}

/** The same with a block id (e.g. a footer a reader looks for). */
export function contextWithId(id: string, ...texts: Mrkdwn[]): ContextBlock {
  return { ...context(...texts), ...blockId(id) };
}

/** A confirmation dialog, shown by Slack before a button's action is sent. */
export interface Confirm {
  title: string;
  text: Mrkdwn;
  confirm: string;
  deny?: string;
  style?: 'primary' | 'danger';
}

function confirmObject(c: Confirm) {
  return {
    title: plain(c.title, SLACK_LIMITS.confirmTitle),
    text: mrkdwn(c.text, SLACK_LIMITS.confirmText),
    confirm: plain(c.confirm, SLACK_LIMITS.confirmButton),
    deny: plain(c.deny ?? 'Cancel', SLACK_LIMITS.confirmButton),
    ...(c.style ? { style: c.style } : {}),
  };
}

export function button(
  text: string,
  actionId: string,
  extra: { value?: string; style?: 'primary' | 'danger'; url?: string; confirm?: Confirm } = {},
): Button {
  if (extra.value !== undefined && extra.value.length > SLACK_LIMITS.buttonValue) {
    throw new RangeError(`button value for ${actionId} is over ${SLACK_LIMITS.buttonValue} characters`);
  }
  const { confirm, ...rest } = extra;
  return {
    type: 'button',
    text: plain(text, SLACK_LIMITS.buttonText),
    action_id: actionId,
    ...rest,
    ...(confirm ? { confirm: confirmObject(confirm) } : {}),
  };
}

export function actions(
  id: string | undefined,
  ...elements: (Button | StaticSelect | Checkboxes)[]
): ActionsBlock {
  return { type: 'actions', ...blockId(id), elements: elements.slice(0, SLACK_LIMITS.actionElements) };
}

/**
 * A select option. The value is an identifier the app reads back, so it is never cut silently:
 * one over the limit is a programming error.
 */
export function option(text: string, value: string): PlainTextOption {
  if (value.length > SLACK_LIMITS.optionValue) {
    throw new RangeError(`option value is over ${SLACK_LIMITS.optionValue} characters`);
  }
  return { text: plain(text || value, SLACK_LIMITS.optionText), value };
}

/** At most 100 options, as Slack allows in one select or one options response. */
export function capOptions<O extends PlainTextOption>(options: O[]): O[] {
  return options.slice(0, SLACK_LIMITS.options);
}

export function input(
  label: string,
  id: string,
  element: InputBlock['element'],
  extra: { optional?: boolean; hint?: string; dispatchAction?: boolean } = {},
): InputBlock {
  return {
    type: 'input',
    block_id: blockId(id).block_id as string,
    label: plain(label, SLACK_LIMITS.inputLabel),
    element,
    ...(extra.optional ? { optional: true } : {}),
    ...(extra.hint ? { hint: plain(extra.hint, SLACK_LIMITS.inputLabel) } : {}),
    ...(extra.dispatchAction ? { dispatch_action: true } : {}),
  };
}

/**
 * A plain-text input element. A prefilled `value` is cut to `max` (Slack refuses the whole view
 * otherwise) and left out when empty; `dispatchOnEnter` sends a block action on Enter (search boxes).
 */
export function textInput(
  actionId: string,
  options: {
    max?: number;
    min?: number;
    multiline?: boolean;
    placeholder?: string;
    value?: string | undefined;
    dispatchOnEnter?: boolean;
  } = {},
): PlainTextInput {
  const { max, min, value } = options;
  return {
    type: 'plain_text_input',
    action_id: actionId,
    ...(options.multiline ? { multiline: true } : {}),
    ...(min === undefined ? {} : { min_length: min }),
    ...(max === undefined ? {} : { max_length: max }),
    ...(options.placeholder ? { placeholder: plain(options.placeholder, SLACK_LIMITS.placeholder) } : {}),
    ...(value ? { initial_value: max === undefined ? value : truncate(value, max) } : {}),
    ...(options.dispatchOnEnter
      ? { dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] } }
      : {}),
  };
}

/**
 * Caps a list of blocks at `max`, replacing the overflow by one context line. The last `keepTail`
 * blocks (a footer) stay after it.
 */
export function capBlocks(blocks: KnownBlock[], max: number, keepTail = 0): KnownBlock[] {
  if (blocks.length <= max) return blocks;
  const tail = keepTail > 0 ? blocks.slice(-keepTail) : [];
  const kept = blocks.slice(0, max - 1 - tail.length);
  const left = blocks.length - kept.length - tail.length;
  return [...kept, context(md`…and ${left} more not shown.`), ...tail];
}

export interface ModalOptions {
  callbackId: string;
  title: string;
  blocks: KnownBlock[];
  submit?: string;
  close?: string;
  privateMetadata?: string;
  /** Slack sends `view_closed` when the user closes it. */
  notifyOnClose?: boolean;
}

/**
 * A modal view. Over 100 blocks it keeps the first 99 and says that the rest was left out; a
 * private_metadata over Slack's 3000 characters is refused (it carries ids, never user text).
 */
export function modal({
  callbackId,
  title,
  blocks,
  submit,
  close = 'Close',
  privateMetadata,
  notifyOnClose,
}: ModalOptions): ModalView {
  if (privateMetadata !== undefined && privateMetadata.length > SLACK_LIMITS.privateMetadata) {
    throw new RangeError(
      `private_metadata of ${callbackId} is over ${SLACK_LIMITS.privateMetadata} characters`,
    );
  }
  return {
    type: 'modal',
    callback_id: callbackId,
    title: plain(title, SLACK_LIMITS.modalTitle),
    blocks: capBlocks(blocks, SLACK_LIMITS.modalBlocks),
    close: plain(close, SLACK_LIMITS.modalButton),
    ...(submit ? { submit: plain(submit, SLACK_LIMITS.modalButton) } : {}),
    ...(privateMetadata !== undefined ? { private_metadata: privateMetadata } : {}),
    ...(notifyOnClose ? { notify_on_close: true } : {}),
  };
}

/** A Home tab view, capped at Slack's 100 blocks. */
export function homeView(blocks: KnownBlock[], callbackId?: string): HomeView {
  return {
    type: 'home',
    ...(callbackId ? { callback_id: callbackId } : {}),
    blocks: capBlocks(blocks, SLACK_LIMITS.homeBlocks),
  };
}

/** A message body: the notification text and capped blocks, both from safe mrkdwn. */
export interface MessageBody {
  text: string;
  blocks: KnownBlock[];
}

/**
 * A message: `text` is what notifications show alone, so it is mrkdwn too (escaped user text);
 * over 50 blocks the overflow is summarised, keeping the last `keepTail` blocks (a footer).
 */
export function message(text: Mrkdwn, blocks: KnownBlock[], keepTail = 0): MessageBody {
  return {
    text: clipMrkdwn(text, SLACK_LIMITS.messageText),
    blocks: capBlocks(blocks, SLACK_LIMITS.messageBlocks, keepTail),
  };
}

/**
 * One section listing `lines` under a title with their count; lines that do not fit in Slack's
 * 3,000 characters are summarised as "…and N more". No block for an empty list.
 *
 * @param total the number shown after the title when it is not the number of lines (e.g. items).
 */
export function listSection(
  title: Mrkdwn,
  lines: readonly Mrkdwn[],
  options: { blockId?: string; total?: number } = {},
): SectionBlock[] {
  if (lines.length === 0) return [];
  let text = `*${title.text}* (${options.total ?? lines.length})`;
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] as Mrkdwn).text;
    const remaining = lines.length - i - 1;
    // Keep room for the "…and N more" tail in case a later line does not fit.
    const tailRoom = remaining > 0 ? moreLine(remaining + 1).length : 0;
    if (text.length + 1 + line.length + tailRoom > SLACK_LIMITS.sectionText) {
      text += moreLine(lines.length - i);
      break;
    }
    text += `\n${line}`;
  }
  // Assembled from safe parts only.
  return [section(new Mrkdwn(text), { blockId: options.blockId })];
}

const moreLine = (count: number) => `\n…and ${count} more`;

/** Lines packed into as few sections as Slack's 3,000-character limit allows (none is left out). */
export function packSections(lines: readonly Mrkdwn[]): SectionBlock[] {
  const texts: string[] = [];
  let current = '';
  for (const { text } of lines) {
    if (current && current.length + 1 + text.length > SLACK_LIMITS.sectionText) {
      texts.push(current);
      current = '';
    }
    current = current ? `${current}\n${text}` : text;
  }
  if (current) texts.push(current);
  return texts.map((text) => section(new Mrkdwn(text)));
}
