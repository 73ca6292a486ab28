/**
 * How every Workflow Builder step runs: once per execution, as the person its builder named, ending
 * with `complete` or `fail`.
 * - Slack retries `function_executed` it did not see acked; the execution id is taken once
 *   (`store.once`, as a form submission is): a retry does no work again, it only repeats the outcome
 *   the first delivery recorded (or nothing while the first one is still working).
 * - The person named in the step's "act as" input must be the person who ran the workflow (Slack's
 *   interactivity input, from the trigger), or have turned on “Let workflow steps act for me” on the
 *   app's Home; and a connected full member of the workspace (never provisioned by a step), acting
 *   with their own planning account (kit/acting.ts).
 * - Any failure — a refusal, the service's 5xx or timeout, our store — ends the step with `fail` and
 *   one sentence for the workflow's builder (kit/failures.ts), never an execution left hanging.
 */
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { type Mrkdwn, md, mention, showsNothing } from '../../blockkit/index.js';
import { ONCE_TTL, workspaceIdFor } from '../../store/index.js';
import type { Handler, StepArgs } from '../bolt/routes.js';
import { connectedMemberRefusal } from '../kit/access.js';
import { type PlanningContext, planningContextFor } from '../kit/acting.js';
import { explainFailure, STORE_UNAVAILABLE } from '../kit/failures.js';
import { NOT_A_MEMBER_PHRASE } from '../kit/membership.js';
import type { Services } from '../kit/services.js';
import { STEP_PARAM } from './ids.js';

/** What a step's work has: the person it acts as, the step's own client, its inputs. */
export interface Step {
  planning: PlanningContext;
  client: WebClient;
  inputs: Readonly<Record<string, unknown>>;
}

/** A reason a step cannot be done, in one sentence its workflow's builder can act on. */
export class StepProblem extends Error {
  override name = 'StepProblem';
  constructor(readonly sentence: Mrkdwn) {
    super(sentence.text);
  }
}

/** What an execution came to, recorded for a retried delivery. */
type Outcome = { outputs: Record<string, string> } | { error: string };

/** The Slack user an input names, as Workflow Builder gives it (`U…`, `W…`). */
export function userInput(inputs: Step['inputs'], name: string): string | undefined {
  const value = inputs[name];
  return typeof value === 'string' && /^[UW][A-Z0-9]+$/.test(value) ? value : undefined;
}

/** Slack's interactivity input: who ran the workflow, given by the trigger (a builder cannot set it). */
const Interactivity = z.object({ interactor: z.object({ id: z.string().regex(/^[UW][A-Z0-9]+$/) }) });

/** The Slack user who ran the workflow, when its trigger says (a scheduled workflow has nobody). */
export function ranBy(inputs: Step['inputs']): string | undefined {
  const parsed = Interactivity.safeParse(inputs[STEP_PARAM.interactivity]);
  return parsed.success ? parsed.data.interactor.id : undefined;
}

/** A text input, trimmed; undefined when it shows nothing (blockkit's `showsNothing`): no text. */
export function textInput(inputs: Step['inputs'], name: string): string | undefined {
  const value = inputs[name];
  const text = typeof value === 'string' ? value.trim() : '';
  return showsNothing(text) ? undefined : text;
}

/** A required text input. @throws {StepProblem} */
export function requiredText(inputs: Step['inputs'], name: string, what: string): string {
  const text = textInput(inputs, name);
  if (text) return text;
  const given = inputs[name];
  throw new StepProblem(
    typeof given === 'string' && given !== ''
      ? md`The step needs ${what}: the text it was given shows nothing (only blanks or invisible characters).`
      : md`The step needs ${what}.`,
  );
}

/** A step's handler: its work gives the step's outputs, or throws what it ends with. */
export function workflowStep(
  action: string,
  work: (svc: Services, step: Step) => Promise<Record<string, string>>,
): Handler<Services, StepArgs> {
  return async (svc, args) => {
    const { deps } = svc;
    const workspaceId = workspaceIdFor(args.context);
    const key = `workflow-step:${workspaceId}:${args.event.function_execution_id}`;
    let outcome: Outcome;
    try {
      // Slack may deliver one execution twice: the second repeats the first's outcome, or (the
      // first still working) does nothing, the first ending the step.
      const done = await deps.store.once.run(key, ONCE_TTL.workflowExecution, () =>
        attempt(svc, args, action, workspaceId, work),
      );
      if (done.state === 'pending') return;
      outcome = done.value;
    } catch (error) {
      deps.logger.error({ action, workspaceId, err: error }, 'workflow step could not be recorded');
      outcome = { error: STORE_UNAVAILABLE.text };
    }
    try {
      if ('outputs' in outcome) await args.complete({ outputs: outcome.outputs });
      else await args.fail({ error: outcome.error });
    } catch (error) {
      deps.logger.warn({ action, workspaceId, err: error }, 'could not end the workflow step');
    }
  };
}

/**
 * Why the person a step names may not act in it, or undefined: a step acts only as a connected full
 * member. Unlike a button, it never provisions an account for someone who has not connected (they
 * never asked for one), and a guest's own connection does not make them a member.
 */
async function notConnectedFullMember(
  planning: PlanningContext,
  actAs: string,
): Promise<{ text: Mrkdwn; why: string } | undefined> {
  const reason = await connectedMemberRefusal(planning);
  if (!reason) return undefined;
  if (reason === 'not connected') {
    return {
      text: md`${mention(actAs)} has not connected a planning account: they can connect from the app's Home.`,
      why: 'not connected',
    };
  }
  if (reason === 'unknown') {
    return {
      text: md`Slack did not say whether ${mention(actAs)} is a member of this workspace; nothing was done — try again in a minute.`,
      why: 'Slack did not answer users.info',
    };
  }
  return {
    text: md`${mention(actAs)} cannot act in this step: it acts only as a full member of this workspace, and they are ${NOT_A_MEMBER_PHRASE[reason]}.`,
    why: reason,
  };
}

/** Why a step may not act as someone other than whoever ran the workflow. */
function noConsent(actAs: string, runner: string | undefined): Mrkdwn {
  const who = runner
    ? md`the person who ran the workflow (${mention(runner)})`
    : md`the person who ran the workflow`;
  return md`This step acts only as ${who}, or as ${mention(actAs)} if they turn on “Let workflow steps act for me” on the app's Home; they have not, so nothing was done.`;
}

/** The step's work as the person it names, its failure in one sentence. */
async function attempt(
  svc: Services,
  args: StepArgs,
  action: string,
  workspaceId: string,
  work: (svc: Services, step: Step) => Promise<Record<string, string>>,
): Promise<Outcome> {
  const inputs = (args.inputs ?? {}) as Step['inputs'];
  const actAs = userInput(inputs, STEP_PARAM.actAs);
  if (!actAs) return { error: md`The step needs the Slack user to act as.`.text };
  const home = { teamId: args.context.teamId, enterpriseId: args.context.enterpriseId };
  const client = args.client as WebClient;
  const planning = planningContextFor(svc.identities, client, workspaceId, home, actAs);
  try {
    // Anyone but the person who ran the workflow only with their consent (a Home preference).
    const runner = ranBy(inputs);
    if (actAs !== runner && !(await svc.deps.store.workflowConsents.allows(workspaceId, actAs))) {
      svc.deps.logger.info({ action, workspaceId, reason: 'no consent' }, 'workflow step refused');
      return { error: noConsent(actAs, runner).text };
    }
    const refused = await notConnectedFullMember(planning, actAs);
    if (refused) {
      svc.deps.logger.info({ action, workspaceId, reason: refused.why }, 'workflow step refused');
      return { error: refused.text.text };
    }
    return { outputs: await work(svc, { planning, client, inputs }) };
  } catch (error) {
    if (error instanceof StepProblem) return { error: error.sentence.text };
    const why = await explainFailure(svc.deps, error, { action, workspaceId, slackUserId: actAs });
    if ('text' in why) return { error: why.text.text };
    return {
      error:
        why.connect === 'invalid'
          ? md`${mention(actAs)}'s planning connection stopped working: they can connect again from the app's Home.`
              .text
          : md`${mention(actAs)} has not connected a planning account: they can connect from the app's Home.`
              .text,
    };
  }
}
