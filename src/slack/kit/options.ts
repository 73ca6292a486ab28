/**
 * Answering a searchable select (an options request). Slack waits 3 seconds for the list, and a
 * select that gets nothing shows the user an error: the list is answered within a fixed budget,
 * with one call attempt each (no retries), and a slow or failing service gets one option that says
 * so — it cannot be submitted (see `choice` in form.ts).
 */
import type { PlainTextOption } from '@slack/types';
import { capOptions, option } from '../../blockkit/index.js';
import type { CallOptions } from '../../planning/index.js';
import type { OptionsArgs } from '../bolt/routes.js';
import { planningOf } from './acting.js';
import { NO_CHOICE } from './form.js';
import type { Acting } from './identity.js';
import type { Services } from './services.js';

/** What the list may take, leaving room for the answer to reach Slack. */
export const OPTIONS_BUDGET_MS = 2_000;

export const SLOW_OPTION = option('⏳ The planning service is slow — type again in a moment', NO_CHOICE);
export const FAILED_OPTION = option('⚠️ Could not load the list — type again in a moment', NO_CHOICE);

export async function answerOptions(
  svc: Services,
  args: OptionsArgs,
  action: string,
  load: (acting: Acting, call: CallOptions) => Promise<PlainTextOption[]>,
  budgetMs = OPTIONS_BUDGET_MS,
): Promise<void> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
  });
  // The budget's timer answers first; the signal then stops the call, so its own bound is only a backstop.
  const call: CallOptions = { signal: controller.signal, retries: 0, timeoutMs: budgetMs + 1_000 };
  const work = planningOf(args.context)
    .acting()
    .then((acting) => load(acting, call));
  try {
    const found = await Promise.race([work, late]);
    if (found === 'late') {
      controller.abort();
      svc.deps.logger.warn({ action, budgetMs }, 'options: the list was not ready in time');
      await args.ack({ options: [SLOW_OPTION] });
      return;
    }
    await args.ack({ options: capOptions(found) });
  } catch (error) {
    svc.deps.logger.warn({ action, err: error }, 'options: could not load the list');
    await args.ack({ options: [FAILED_OPTION] });
  } finally {
    clearTimeout(timer);
    // The abandoned work may still fail later (aborted): nobody waits for it, so it must not reject unheard.
    work.catch(() => undefined);
  }
}

/** Matching what a user typed in a searchable select. */

/** Case- and accent-insensitive substring match; an empty query matches everything. */
export function matches(text: string, query: string | undefined): boolean {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[_\s]+/g, ' ');
  const q = fold(query ?? '').trim();
  return q === '' || fold(text).includes(q);
}
