/**
 * The one way a form is submitted. Checked at once, without I/O: bad input answers
 * `response_action: 'errors'` on the right fields. Good input is acked at once with a "working"
 * view, then the work runs and the modal is updated with the result — or, when the service fails,
 * with the form again (what the user typed kept) and why. A key per view makes a retried or double
 * submission do the work once.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewOutput, ViewSubmitAction } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { modal } from '../../blocks/kit.js';
import { connectBlocks } from '../../blocks/messages.js';
import { loadingView } from '../../blocks/views.js';
import { afterPendingAcks } from '../../context/ack.js';
import { explainFailure } from '../../context/failures.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import type { FormResult, StateValues } from '../../forms.js';
import { VIEW } from '../../ids.js';

/** Thrown by `run` when the form itself must be corrected: shown under the form, nothing else done. */
export class FormProblem extends Error {
  override name = 'FormProblem';
}

export type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** Submissions are remembered this long: a retry within it never repeats the work. */
const SUBMISSION_TTL_MS = 24 * 60 * 60 * 1000;

export interface SubmissionSpec<T> {
  /** Names the flow in logs and idempotency keys. */
  action: string;
  title: string;
  /** What the working view says. */
  working: string;
  /** Parses and checks the form; must not do I/O. */
  parse(values: StateValues, privateMetadata: string): FormResult<T>;
  /** Does the work; returns the view to show when it is done. */
  run(data: T, args: SubmitArgs): Promise<ModalView>;
  /** The form again, with what was typed and the problem, when the work failed. */
  retry(data: T, problem: string, view: ViewOutput): ModalView;
  /** Whether a retried submission must not repeat the work (creates); default true. */
  idempotent?: boolean;
}

export async function handleSubmission<T>(svc: Services, args: SubmitArgs, spec: SubmissionSpec<T>) {
  const { ack, view, client } = args;
  const parsed = spec.parse(view.state.values as StateValues, view.private_metadata);
  if (!parsed.ok) {
    await ack({ response_action: 'errors', errors: parsed.errors });
    return;
  }
  await ack({ response_action: 'update', view: loadingView(spec.title, spec.working) });
  await afterPendingAcks();

  const { deps } = svc;
  const planning = planningOf(args.context);
  const key = spec.idempotent === false ? undefined : `${spec.action}:${planning.workspaceId}:${view.id}`;
  const update = (next: ModalView) => client.views.update({ view_id: view.id, view: next });

  if (key) {
    const claim = await deps.store.interactions.begin(key, SUBMISSION_TTL_MS);
    if (claim.state === 'pending') return; // the first submission is still working and will update the view
    if (claim.state === 'done') {
      await update(JSON.parse(claim.result) as ModalView);
      return;
    }
  }
  try {
    const result = await spec.run(parsed.data, args);
    if (key) await deps.store.interactions.finish(key, JSON.stringify(result));
    await update(result);
  } catch (error) {
    if (key) await deps.store.interactions.abandon(key);
    if (error instanceof FormProblem) {
      await update(spec.retry(parsed.data, error.message, view));
      return;
    }
    const explanation = await explainFailure(deps, error, {
      action: spec.action,
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
    const next =
      'connect' in explanation
        ? modal({ callbackId: VIEW.info, title: spec.title, blocks: connectBlocks(explanation.connect) })
        : spec.retry(parsed.data, explanation.text, view);
    await update(next).catch((e: unknown) =>
      deps.logger.error({ action: spec.action, err: e }, 'views.update failed'),
    );
  }
}
