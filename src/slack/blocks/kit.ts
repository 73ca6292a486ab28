/**
 * Block Kit primitives that enforce Slack's limits, so a long heading or a big list degrades
 * (cut with "…", capped) instead of making Slack refuse the whole message or modal. Every other
 * builder composes these; none writes raw text objects itself.
 */
import type {
  ActionsBlock,
  Button,
  ContextBlock,
  HeaderBlock,
  InputBlock,
  KnownBlock,
  ModalView,
  MrkdwnElement,
  PlainTextElement,
  PlainTextOption,
  SectionBlock,
} from '@slack/types';

/** Slack's documented limits (api.slack.com/reference/block-kit). */
export const SLACK_LIMITS = {
  messageBlocks: 50,
  modalBlocks: 100,
  sectionText: 3000,
  headerText: 150,
  contextElements: 10,
  modalTitle: 24,
  modalButton: 24,
  /** Option texts: 75 (the stricter of the figures Slack has published for select menus). */
  optionText: 75,
  optionValue: 150,
  options: 100,
  buttonText: 75,
  buttonValue: 2000,
  inputLabel: 2000,
  placeholder: 150,
  privateMetadata: 3000,
  blockId: 255,
  /** `text` of a message (the notification fallback). */
  messageText: 40000,
} as const;

const ELLIPSIS = '…';

/** Cuts `text` to at most `max` characters (code points), ending with "…" when it was cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}${ELLIPSIS}`;
}

/**
 * Escapes user text for mrkdwn: Slack reads `&`, `<` and `>` as control characters (links,
 * mentions, `<!channel>`), so a task heading must never be able to ping a channel.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A plain_text object cut to `max`. */
export function plain(text: string, max: number = SLACK_LIMITS.sectionText): PlainTextElement {
  return { type: 'plain_text', text: truncate(text, max), emoji: true };
}

/** A mrkdwn object; `text` is already mrkdwn (escape user parts with {@link escapeMrkdwn} or {@link md}). */
export function mrkdwn(text: string, max: number = SLACK_LIMITS.sectionText): MrkdwnElement {
  return { type: 'mrkdwn', text: truncate(text, max) };
}

/**
 * Tagged template for mrkdwn with user text: interpolated values are escaped, the literal parts are
 * trusted mrkdwn. `md\`*${heading}*\`` bolds a heading that cannot inject a mention.
 */
export function md(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce(
    (out, part, i) => out + part + (i < values.length ? escapeMrkdwn(String(values[i])) : ''),
    '',
  );
}

export function section(text: string, extra: Partial<SectionBlock> = {}): SectionBlock {
  return { type: 'section', text: mrkdwn(text), ...extra };
}

export function header(text: string): HeaderBlock {
  return { type: 'header', text: plain(text, SLACK_LIMITS.headerText) };
}

export function context(...texts: string[]): ContextBlock {
  return {
    type: 'context',
    elements: texts.slice(0, SLACK_LIMITS.contextElements).map((t) => mrkdwn(t)),
  };
}

export function button(
  text: string,
  actionId: string,
  extra: { value?: string; style?: 'primary' | 'danger'; url?: string } = {},
): Button {
  if (extra.value !== undefined && extra.value.length > SLACK_LIMITS.buttonValue) {
    throw new RangeError(`button value for ${actionId} is over ${SLACK_LIMITS.buttonValue} characters`);
  }
  return { type: 'button', text: plain(text, SLACK_LIMITS.buttonText), action_id: actionId, ...extra };
}

export function actions(blockId: string | undefined, ...elements: Button[]): ActionsBlock {
  return { type: 'actions', ...(blockId ? { block_id: blockId } : {}), elements };
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

/** Groups capped the same way: 100 groups, 100 options each. */
export function capGroups(groups: { label: string; options: PlainTextOption[] }[]) {
  return groups.slice(0, SLACK_LIMITS.options).map((g) => ({
    label: plain(g.label, SLACK_LIMITS.optionText),
    options: capOptions(g.options),
  }));
}

export function input(
  label: string,
  blockId: string,
  element: InputBlock['element'],
  extra: { optional?: boolean; hint?: string; dispatchAction?: boolean } = {},
): InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    label: plain(label, SLACK_LIMITS.inputLabel),
    element,
    ...(extra.optional ? { optional: true } : {}),
    ...(extra.hint ? { hint: plain(extra.hint, SLACK_LIMITS.inputLabel) } : {}),
    ...(extra.dispatchAction ? { dispatch_action: true } : {}),
  };
}

export interface ModalOptions {
  callbackId: string;
  title: string;
  blocks: KnownBlock[];
  submit?: string;
  close?: string;
  privateMetadata?: string;
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
  };
}

/** Caps a list of blocks, replacing the overflow by one context line. */
export function capBlocks(blocks: KnownBlock[], max: number = SLACK_LIMITS.messageBlocks): KnownBlock[] {
  if (blocks.length <= max) return blocks;
  const kept = blocks.slice(0, max - 1);
  return [...kept, context(`…and ${blocks.length - kept.length} more not shown.`)];
}

/** A message body: capped blocks plus a notification text. */
export function message(text: string, blocks: KnownBlock[]): { text: string; blocks: KnownBlock[] } {
  return {
    text: truncate(text, SLACK_LIMITS.messageText),
    blocks: capBlocks(blocks, SLACK_LIMITS.messageBlocks),
  };
}
