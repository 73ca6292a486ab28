/**
 * Generic modals: the loading view every modal opens with (the trigger id expires in 3 s, so a
 * modal opens before any service call and fills itself after), and the result/notice view.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import { VIEW } from '../ids.js';
import { context, modal, section } from './kit.js';

/** Shown at once while the real content is fetched. */
export function loadingView(title: string, what = 'Loading…'): ModalView {
  return modal({ callbackId: VIEW.info, title, blocks: [section(`:hourglass_flowing_sand: ${what}`)] });
}

/** A modal with nothing to submit: a result, a refusal, an explanation. `text` is mrkdwn. */
export function noticeView(title: string, text: string, extra: KnownBlock[] = []): ModalView {
  return modal({ callbackId: VIEW.info, title, blocks: [section(text), ...extra] });
}

/** Appended under a form when something went wrong after it was submitted. */
export function formProblem(text: string): KnownBlock {
  return context(`:warning: ${text}`);
}
