/**
 * Generic modals: the loading view every modal opens with (the trigger id expires in 3 s, so a
 * modal opens before any service call and fills itself after), and the result/notice view.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import { context, type Mrkdwn, md, modal, section } from '../../blockkit/index.js';
import { VIEW } from '../ids.js';

/** Shown at once while the real content is fetched. */
export function loadingView(title: string, what = 'Loading…'): ModalView {
  return modal({ callbackId: VIEW.info, title, blocks: [section(md`:hourglass_flowing_sand: ${what}`)] });
}

/** A modal with nothing to submit: a result, a refusal, an explanation. */
export function noticeView(title: string, text: Mrkdwn, extra: KnownBlock[] = []): ModalView {
  return modal({ callbackId: VIEW.info, title, blocks: [section(text), ...extra] });
}

/** Appended under a form when something went wrong after it was submitted. */
export function formProblem(text: Mrkdwn): KnownBlock {
  return context(md`:warning: ${text}`);
}
