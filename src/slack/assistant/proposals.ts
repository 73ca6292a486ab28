/**
 * Tasks proposed from a conversation, without any model: one per action-like line of its messages —
 * a bullet or a numbered item, a checklist box, a "TODO", a "we should…", "let's…", "need to…",
 * or a line starting with an imperative verb — cleaned into a heading. Pure.
 */
import { truncate } from '../../blockkit/index.js';
import { LIMITS } from '../../planning/models.js';
import { messagePlainText, withoutEmphasis } from '../kit/slack-text.js';

/** Proposed at most (a modal holds a field for each). */
export const MAX_PROPOSALS = 15;

const BULLET = /^\s*(?:[-*•◦‣–]|\d+[.)]|\[[ xX]?\]|☐|☑|✅)\s+/;
const TODO = /^\s*(?:todo|to-do|action item|action|ai)\s*[:\-–]\s*/i;
const SUGGESTION =
  /^\s*(?:(?:so\s+|i think\s+|maybe\s+)?(?:we|i|you|someone)\s+(?:should|need to|must|have to|ought to|could)|let's|lets|need to|we'll|i'll)\s+/i;
const IMPERATIVE =
  /^(?:add|fix|write|update|create|remove|delete|check|review|test|ship|deploy|document|move|rename|investigate|ask|send|set up|setup|follow up|prepare|draft|schedule|book|call|email|refactor|migrate|implement|build|design|make|clean up|upgrade|merge|release|publish|verify|confirm|share|decide|research|measure|track|file|open|close|finish|start)\b/i;

/** The heading a line proposes, or undefined when it asks for nothing. */
export function proposalOf(line: string): string | undefined {
  const plain = withoutEmphasis(line.trim());
  // Too short to be a task, or an introduction ("Next steps:") rather than a step.
  if (plain.length < 4 || plain.endsWith(':')) return undefined;
  let rest: string | undefined;
  if (BULLET.test(plain)) rest = plain.replace(BULLET, '');
  else if (TODO.test(plain)) rest = plain.replace(TODO, '');
  else if (SUGGESTION.test(plain)) rest = plain.replace(SUGGESTION, '');
  else if (IMPERATIVE.test(plain)) rest = plain;
  if (rest === undefined) return undefined;
  // A bullet may itself say "TODO:" or "we should".
  const heading = rest
    .replace(TODO, '')
    .replace(SUGGESTION, '')
    .replace(/[.!;:]+$/, '')
    .trim();
  if (heading.length < 3 || heading.endsWith('?')) return undefined;
  return truncate(heading.charAt(0).toUpperCase() + heading.slice(1), LIMITS.heading);
}

/** The tasks a thread's messages propose, in order, each once (case aside), at most MAX_PROPOSALS. */
export function proposals(messages: readonly { text?: string }[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of messages) {
    for (const line of messagePlainText(m.text ?? '').split('\n')) {
      const heading = proposalOf(line);
      if (!heading || seen.has(heading.toLowerCase())) continue;
      seen.add(heading.toLowerCase());
      out.push(heading);
      if (out.length === MAX_PROPOSALS) return out;
    }
  }
  return out;
}
