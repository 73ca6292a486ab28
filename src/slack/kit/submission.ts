/**
 * The one way a form is submitted. Checked at once, without I/O: bad input answers
 * `response_action: 'errors'` on the right fields. Good input is acked at once with a "working"
 * view, then the work runs and the modal is updated with the result — or, when anything fails
 * before the work is done (the service, the store), with the form again (what the user typed kept)
 * and why. A key per view makes a retried or double submission do the work once.
 *
 * Once the work is done (a task exists), the outcome is recorded before any further Slack call, and
 * a Slack failure after it never turns it into "nothing was saved": the user is told in their DM.
 */
import type { ViewOutput } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { type Mrkdwn, md, modal } from '../../blockkit/index.js';
import { ONCE_TTL, OnceKeyUnavailableError, type OnceRun } from '../../store/index.js';
import type { SubmitArgs, ViewHandler } from '../bolt/routes.js';
import { planningOf } from './acting.js';
import { explainFailure } from './failures.js';
import type { FormResult, StateValues } from './form.js';
import { VIEW } from './ids.js';
import { connectBlocks, notice, type Reply } from './messages.js';
import { loadingView, noticeView } from './modal.js';
import type { Services } from './services.js';
import { dmSurface } from './surfaces.js';

/** Thrown by `run` when the form itself must be corrected: shown under the form, nothing else done. */
export class FormProblem extends Error {
  override name = 'FormProblem';
  constructor(readonly problem: Mrkdwn) {
    super(problem.text);
  }
}

/**
 * What a submission did, said in the modal: a notice (`text`, under `title` or the form's), or a
 * whole next view. `text` is also what the user's DM says when the modal cannot be updated.
 */
export type Outcome = { text: Mrkdwn; title?: string } | { text: Mrkdwn; view: ModalView };

/** When the store cannot tell whether the form was already submitted, nothing is done. */
const STORE_DOWN = md`I could not save this right now (a storage problem on our side); nothing was saved — try again in a minute.`;

export interface SubmissionSpec<T> {
  /** Names the flow in logs and idempotency keys. */
  action: string;
  title: string;
  /** What the working view says. */
  working: string;
  /** Parses and checks the form; must not do I/O. */
  parse(values: StateValues, privateMetadata: string): FormResult<T>;
  /**
   * Does the work and says what it did. Anything it throws means nothing was done; once it has
   * changed something in the service, what remains (a card, a DM) must be best effort and reported
   * in the outcome.
   */
  run(svc: Services, data: T, args: SubmitArgs): Promise<Outcome>;
  /** The form again, with what was typed and the problem, when the work failed. */
  retry(data: T, problem: Mrkdwn, view: ViewOutput): ModalView;
  /** Whether a retried submission must not repeat the work (creates); default true. */
  idempotent?: boolean;
}

/** What is stored for a finished submission, for a retry to show again. */
interface Recorded {
  view: ModalView;
  /** The same outcome as a message, for the user's DM when the modal cannot be updated. */
  message: Reply;
}

/**
 * The title the person saw on the form they submitted: one form can be opened under several titles
 * (*Edit feature* and *New feature*), and what follows keeps the one they saw. `spec.title` when the
 * view carries none.
 */
function titleOf(view: ViewOutput, spec: Pick<SubmissionSpec<unknown>, 'title'>): string {
  return view.title?.text || spec.title;
}

/**
 * A form's route: the ack from the submission alone — field errors, or a working view — then,
 * after the router's gate, the work once per view.
 */
export function submission<T>(spec: SubmissionSpec<T>): ViewHandler<Services> {
  return (svc, args) => {
    const { view } = args;
    const parsed = spec.parse(view.state.values as StateValues, view.private_metadata);
    if (!parsed.ok) return { ack: { response_action: 'errors', errors: parsed.errors } };
    return {
      ack: { response_action: 'update', view: loadingView(titleOf(view, spec), spec.working) },
      work: () => complete(svc, args, spec, parsed.data),
    };
  };
}

async function complete<T>(svc: Services, args: SubmitArgs, spec: SubmissionSpec<T>, data: T) {
  const { view, client } = args;
  const { deps } = svc;
  const planning = planningOf(args.context);
  const log = { action: spec.action, workspaceId: planning.workspaceId };
  const key = spec.idempotent === false ? undefined : `${spec.action}:${planning.workspaceId}:${view.id}`;
  const update = (next: ModalView) => client.views.update({ view_id: view.id, view: next });
  /** The form again with why; if even that fails, the user has only the working view left: log it. */
  const giveBack = (problem: Mrkdwn) =>
    update(spec.retry(data, problem, view)).catch((error: unknown) =>
      deps.logger.error({ ...log, err: error }, 'could not show the form again'),
    );

  /** The work, its outcome as it is recorded for a retry. */
  const work = async (): Promise<Recorded> => {
    const outcome = await spec.run(svc, data, args);
    return {
      view: 'view' in outcome ? outcome.view : noticeView(outcome.title ?? titleOf(view, spec), outcome.text),
      message: notice(outcome.text),
    };
  };

  let done: OnceRun<Recorded>;
  try {
    // Once the work is done nothing may undo it: a retry sees its recorded outcome, never does it again.
    done = key
      ? await deps.store.once.run(key, ONCE_TTL.submission, work)
      : { state: 'done', value: await work(), first: true };
  } catch (error) {
    if (error instanceof OnceKeyUnavailableError) {
      deps.logger.error({ ...log, err: error }, 'store failed before a submission');
      await giveBack(STORE_DOWN);
      return;
    }
    if (error instanceof FormProblem) {
      await giveBack(error.problem);
      return;
    }
    const explanation = await explainFailure(deps, error, {
      action: spec.action,
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    }).catch(() => ({ text: STORE_DOWN }));
    if ('connect' in explanation) {
      await update(
        modal({
          callbackId: VIEW.info,
          title: titleOf(view, spec),
          blocks: connectBlocks(explanation.connect),
        }),
      ).catch((e: unknown) => deps.logger.error({ ...log, err: e }, 'views.update failed'));
    } else {
      await giveBack(explanation.text);
    }
    return;
  }
  // The first submission is still working and will update the view.
  if (done.state === 'pending') return;
  await show(svc, args, done.value, log);
}

/** Shows a finished submission's outcome in the modal, or in the user's DM when Slack refuses. */
async function show(svc: Services, args: SubmitArgs, recorded: Recorded, log: Record<string, unknown>) {
  try {
    await args.client.views.update({ view_id: args.view.id, view: recorded.view });
  } catch (error) {
    svc.deps.logger.warn({ ...log, err: error }, 'could not show a submission outcome in its modal');
    try {
      await dmSurface(args.client, planningOf(args.context).slackUserId).show(recorded.message);
    } catch (dmError) {
      svc.deps.logger.error({ ...log, err: dmError }, 'could not tell the user about a submission outcome');
    }
  }
}
