/**
 * Opening modals. A trigger id lives 3 seconds, so a modal opens at once — the form itself, or a
 * loading view filled after the service answers. When Slack refuses to open it (the trigger expired
 * on a slow network, a rate limit), the user is told privately instead of seeing nothing.
 */
import type { Context, RespondFn } from '@slack/bolt';
import type { KnownBlock, ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { contextWithId, type Mrkdwn, md, modal, section } from '../../blockkit/index.js';
import { slackErrorCode } from '../../slack-api/index.js';
import { planningOf } from './acting.js';
import type { SlackDeps } from './deps.js';
import type { Acting } from './identity.js';
import { BLOCK, VIEW } from './ids.js';
import { warning } from './messages.js';
import { privateSurface, type Surface, showFailure, viewSurface } from './surfaces.js';

/** An open modal: its id and the hash of the view it shows (so a later update never overwrites a newer one). */
export interface OpenedModal {
  id: string;
  hash: string;
}

export interface ModalRequest {
  deps: SlackDeps;
  client: WebClient;
  triggerId: string;
  /** Where the user is told when the modal cannot be opened (response_url, or their DM). */
  fallback: Surface;
  /** Names the flow in logs. */
  action: string;
}

const REFUSED: Record<string, ReturnType<typeof md>> = {
  expired_trigger_id: md`Slack did not let me open the form in time. Please try again.`,
  ratelimited: md`Slack is limiting how fast forms open right now. Please try again in a moment.`,
};

/** Opens `view` at once; undefined (the user told, the refusal logged) when Slack refuses. */
export async function openModal(req: ModalRequest, view: ModalView): Promise<OpenedModal | undefined> {
  return showModal(req, view, 'open');
}

/**
 * Pushes `view` over the modal the user is in (a button inside it gave the trigger id), with the
 * same refusal handling; Slack keeps at most three views in a stack.
 */
export async function pushModal(req: ModalRequest, view: ModalView): Promise<OpenedModal | undefined> {
  return showModal(req, view, 'push');
}

async function showModal(
  req: ModalRequest,
  view: ModalView,
  how: 'open' | 'push',
): Promise<OpenedModal | undefined> {
  try {
    const opened =
      how === 'push'
        ? await req.client.views.push({ trigger_id: req.triggerId, view })
        : await req.client.views.open({ trigger_id: req.triggerId, view });
    const { id, hash } = opened.view ?? {};
    if (!id || !hash) throw new Error(`views.${how} answered without a view id`);
    return { id, hash };
  } catch (error) {
    const code = slackErrorCode(error);
    req.deps.logger.warn(
      { action: req.action, slackError: code, err: error },
      'Slack refused to open a modal',
    );
    try {
      await req.fallback.show(
        warning((code ? REFUSED[code] : undefined) ?? md`Slack could not open the form. Please try again.`),
      );
    } catch (tellError) {
      req.deps.logger.error(
        { action: req.action, err: tellError },
        'could not tell the user about a failure',
      );
    }
    return undefined;
  }
}

/**
 * Most forms: a loading modal at once (opened, or pushed over the current one with `push`), then
 * the real view built with the acting user's own client and put in its place. A failure ends in
 * the modal as one sentence, or as Connect.
 */
export async function loadModal(
  req: ModalRequest & { context: Context; title: string; push?: boolean },
  build: (acting: Acting) => Promise<ModalView>,
): Promise<void> {
  const loading = loadingView(req.title);
  const opened = req.push ? await pushModal(req, loading) : await openModal(req, loading);
  if (!opened) return;
  const planning = planningOf(req.context);
  try {
    const view = await build(await planning.acting());
    await req.client.views.update({ view_id: opened.id, hash: opened.hash, view });
  } catch (error) {
    await showFailure(req.deps, viewSurface(req.client, opened.id, req.title), error, {
      action: req.action,
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}

/** A {@link ModalRequest} for a request with a trigger id; refusals are told on its response_url, else by DM. */
export function modalRequest(
  svc: { deps: SlackDeps },
  args: { client: WebClient; respond?: RespondFn; context: Context },
  triggerId: string,
  action: string,
): ModalRequest & { context: Context } {
  return {
    deps: svc.deps,
    client: args.client,
    context: args.context,
    triggerId,
    fallback: privateSurface(args, planningOf(args.context).slackUserId),
    action,
  };
}

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
  return contextWithId(BLOCK.formProblem, md`:warning: ${text}`);
}

/** A form's blocks as Slack handed them back, without the problem line a refusal put there. */
export function withoutFormProblem(blocks: readonly KnownBlock[]): KnownBlock[] {
  return blocks.filter((b) => b.block_id !== BLOCK.formProblem);
}
