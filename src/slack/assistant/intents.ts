/**
 * What a question typed in an assistant thread asks, read without any model: the few questions
 * people put to a planning tool, each recognized by its usual wordings. A question none matches is
 * `unknown` — answered with what the assistant can do, never with silence. Pure.
 */
import { decodeSlackEntities } from '../../blockkit/index.js';

export type Intent = { kind: 'waiting' } | { kind: 'unknown' };

/** The prompts Slack shows on a new thread (at most 4), each a question the assistant answers. */
export const SUGGESTED_PROMPTS = [
  { title: 'What is waiting for me?', message: "What's waiting for me?" },
] as const;

/** My open work: "what's waiting for me", "my tasks", "what should I do next", "on my plate". */
const WAITING =
  /\b(waiting for me|waits for me|my (open )?tasks|on my plate|what should i (do|work on)|my to-?do|assigned to me|what do i have)\b/;

/** The intent of `text`, as the person typed it (Slack's escapes decoded, case and spacing ignored). */
export function intentOf(text: string): Intent {
  const q = decodeSlackEntities(text).toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
  if (WAITING.test(q)) return { kind: 'waiting' };
  return { kind: 'unknown' };
}
