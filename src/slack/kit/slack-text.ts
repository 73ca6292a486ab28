/**
 * Text taken from a Slack message into a form: Slack's markup made plain, a heading and details
 * prefilled from it, its permalink kept at the end.
 */
import { decodeSlackEntities, showsNothing, truncate } from '../../blockkit/index.js';
import { LIMITS } from '../../planning/models.js';

// ---------------------------------------------------------------------------------------------
// Prefill
// ---------------------------------------------------------------------------------------------

/**
 * Slack message text → plain text: links and mentions lose their brackets, entities are decoded
 * (the form shows plain text, and the service stores what the user meant, not Slack's escaping).
 */
export function slackTextToPlain(text: string): string {
  return decodeSlackEntities(text.replace(/<([^<>|]+)\|([^<>]+)>/g, '$2').replace(/<([^<>]+)>/g, '$1'));
}

/** A message's text as plain text, trimmed: '' when it shows nothing (blockkit's `showsNothing`). */
export function messagePlainText(text: string): string {
  return showsNothing(text) ? '' : slackTextToPlain(text).trim();
}

/**
 * The heading (first non-empty line, cut to 200 with "…") and the details (the text, then the
 * permalink; cut to 2048 with the permalink always kept) of a task made from a message.
 */
export function prefillTask(text: string, permalink?: string): { heading: string; details: string } {
  const plain = messagePlainText(text);
  const firstLine =
    plain
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  const heading = truncate(withoutEmphasis(firstLine) || 'Task from a Slack message', LIMITS.heading);
  return { heading, details: withPermalink(plain, permalink, LIMITS.details) };
}

/**
 * A line without Slack's emphasis marks: `The *nightly export* failed` → `The nightly export failed`.
 * A heading is plain text in the service and wherever the app shows it: marks taken along would show
 * as stars, or end the app's own bold early.
 */
export function withoutEmphasis(line: string): string {
  return line.replace(/(^|[\s(“"'])([*_~`])(?=\S)(.+?)(?<=\S)\2(?=$|[\s)”"'.,!?:;])/g, '$1$3');
}

/**
 * Whether a message taken into a form (as evidence, a discovery) has nothing to take: its text
 * shows nothing and it carries no file (a file's message is taken as its link).
 */
export function messageShowsNothing(message: { text?: string; files?: unknown }): boolean {
  return showsNothing(message.text ?? '') && !(Array.isArray(message.files) && message.files.length > 0);
}

/** A discovery made from a message: its text then its permalink, within the 512 characters of a minute. */
export function prefillDiscovery(text: string, permalink?: string): string {
  return withPermalink(messagePlainText(text), permalink, LIMITS.minuteText);
}

/** `plain` then the permalink, cut to `max` with the permalink always kept. */
function withPermalink(plain: string, permalink: string | undefined, max: number): string {
  if (!permalink) return truncate(plain, max);
  const room = max - Array.from(permalink).length - 2;
  const body = room > 0 ? truncate(plain, room) : '';
  return body ? `${body}\n\n${permalink}` : truncate(permalink, max);
}
