/**
 * Assign…: the task's candidates ranked by the service's Yerkes-Dodson fit, said in plain words, or
 * oneself, or someone else of the workspace (one required choice); the assignee is told by DM.
 */
import type { ViewOutput } from '@slack/bolt';
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  inline,
  input,
  type Mrkdwn,
  md,
  mention,
  modal,
  option,
  plural,
  section,
} from '../../blockkit/index.js';
import { type Candidate, LIMITS, type Notion } from '../../planning/models.js';
import { slackErrorCode } from '../../slack-api/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { type FormOutput, form, read, slackUserId } from '../kit/form.js';
import { formProblem, withoutFormProblem } from '../kit/modal.js';
import { peopleOf } from '../kit/people.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { FormProblem, submission } from '../kit/submission.js';
import { TaskCoords } from './card.js';
import { type CandidateExperience, EXPLAINED, fitBlocks, fitLabel, readCandidateExperience } from './fit.js';
import { TASK_FIELD, TASK_VIEW } from './ids.js';
import { openTaskModal } from './live.js';

// ---------------------------------------------------------------------------------------------
// Assign…
// ---------------------------------------------------------------------------------------------

export { fitLabel } from './fit.js';

/** A candidate as one option: name, fit, load of features. */
export function candidateOption(c: Candidate): PlainTextOption {
  const load = c.userFeatures === undefined ? '' : ` · ${plural(c.userFeatures, 'feature')} on their plate`;
  const score = c.ydScore === undefined ? '' : ` (${Math.round(c.ydScore)})`;
  return option(`${c.userName ?? c.userId} — ${fitLabel(c.ydScore)}${score}${load}`, c.userId);
}

/** Candidates best first (the service ranks them; sorted again so the order never depends on it). */
export function rankCandidates(candidates: readonly Candidate[]): Candidate[] {
  return [...candidates].sort((a, b) => (b.ydScore ?? -1) - (a.ydScore ?? -1));
}

/** The value of "Assign to me" in the picker. */
export const ASSIGN_ME = 'me';
/** The value of "Someone else in the workspace…": the form then asks who, with a people picker. */
export const ASSIGN_SOMEONE = 'someone';

export const ASSIGN_TITLE = 'Assign task';

/**
 * Who does it: one required choice — oneself, a ranked candidate or someone else — so nothing the
 * form needs is marked "(optional)". Picking "someone else" redraws the form with a required people
 * picker (see {@link assignWhoPicked}).
 */
export function assignModal(form: {
  coords: TaskCoords;
  heading: string;
  candidates: readonly Candidate[];
  /** The task's notions and the best candidates' experience on them (fit.ts explains each). */
  fit?: {
    notions: readonly Notion[];
    experience: CandidateExperience;
    /** Planning user id → Slack user, for the candidates explained. */
    people?: Readonly<Record<string, string>>;
  };
  problem?: Mrkdwn;
}): ModalView {
  const ranked = rankCandidates(form.candidates);
  // The picker holds at most 100 options: "Assign to me", the 98 best candidates, "someone else".
  const options = [
    option('Assign to me', ASSIGN_ME),
    ...ranked.slice(0, 98).map(candidateOption),
    option('Someone else in the workspace…', ASSIGN_SOMEONE),
  ];
  return assignView(form.coords, [
    section(md`Who should do *${inline(form.heading, LIMITS.heading)}*?`),
    input(
      'Assign to (candidates best fit first)',
      TASK_FIELD.candidate.block,
      { type: 'static_select', action_id: TASK_FIELD.candidate.action, options },
      {
        dispatchAction: true,
        hint: 'Yourself, a candidate — fit weighs their grades on the task’s notions against how busy they are — or someone else in the workspace.',
      },
    ),
    ...(form.fit ? fitBlocks(ranked, form.fit.notions, form.fit.experience, form.fit.people) : []),
    ...(form.problem ? [formProblem(form.problem)] : []),
  ]);
}

const assignView = (coords: TaskCoords, blocks: KnownBlock[]): ModalView =>
  modal({
    callbackId: TASK_VIEW.assign,
    title: ASSIGN_TITLE,
    submit: 'Assign',
    close: 'Cancel',
    privateMetadata: JSON.stringify(TaskCoords.parse(coords)),
    blocks,
  });

/** The people picker shown once "Someone else in the workspace…" is picked: then required. */
const someoneInput = () =>
  input(
    'Someone in the workspace',
    TASK_FIELD.assignee.block,
    { type: 'users_select', action_id: TASK_FIELD.assignee.action },
    { hint: 'They are set up in the planning service if they are not yet.' },
  );

/**
 * The form's blocks as Slack handed them back (the heading and the ranked candidates, read when it
 * opened), without the problem line a refusal added: redrawing never reads the candidates again.
 */
const shownFields = (view: { blocks: unknown[] }) => withoutFormProblem(view.blocks as KnownBlock[]);

/** The form with the people picker right under the choice, or without it. */
function withSomeone(blocks: KnownBlock[], shown: boolean): KnownBlock[] {
  const rest = blocks.filter((b) => b.block_id !== TASK_FIELD.assignee.block);
  if (!shown) return rest;
  const at = rest.findIndex((b) => b.block_id === TASK_FIELD.candidate.block) + 1;
  return [...rest.slice(0, at), someoneInput(), ...rest.slice(at)];
}

const hasSomeone = (blocks: readonly KnownBlock[]) =>
  blocks.some((b) => b.block_id === TASK_FIELD.assignee.block);

/**
 * The Assign form again after a refusal, as the person saw it — its title, the heading, the ranked
 * candidates, the people picker if it was shown — then the problem: a refusal never costs the
 * candidates, nor a second read of them.
 */
function assignAgain(view: ViewOutput, coords: TaskCoords, problem: Mrkdwn): ModalView {
  const shown = shownFields(view);
  // A view without the form's choice (never expected from Slack): the form rebuilt, to be reopened for candidates.
  if (!shown.some((b) => b.block_id === TASK_FIELD.candidate.block))
    return assignModal({ coords, heading: 'this task', candidates: [], problem });
  return assignView(coords, [...shown, formProblem(problem)]);
}

/**
 * A choice picked in the Assign form: "someone else" shows the people picker, anything else hides
 * it. The choice keeps its block id, so Slack keeps what was picked; the view's hash keeps an older
 * redraw from overwriting a newer one.
 */
export async function assignWhoPicked(svc: Services, args: ActionArgs): Promise<void> {
  const view = args.body.view;
  const coords = parseCarried(TaskCoords, view?.private_metadata);
  if (!view || !coords) return;
  const blocks = shownFields(view);
  const someone = actionValue(args.action) === ASSIGN_SOMEONE;
  if (someone === hasSomeone(blocks)) return;
  await args.client.views
    .update({
      view_id: view.id,
      hash: view.hash,
      view: assignView(coords, withSomeone(blocks, someone)),
    })
    .catch((error: unknown) => {
      // A newer view is shown (another pick was quicker): it stays.
      if (slackErrorCode(error) !== 'hash_conflict')
        svc.deps.logger.warn({ err: error, action: 'task assign who' }, 'could not redraw the Assign form');
    });
}

export const taskAssignOpenAction = (svc: Services, args: ActionArgs) =>
  openTaskModal(svc, args, 'task assign open', ASSIGN_TITLE, async (acting, c) => {
    const { planning, identity } = acting;
    const [task, { candidates }] = await Promise.all([
      planning.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId),
      planning.tasks.listCandidates(c.teamId, c.channelId, c.featureId, c.taskId),
    ]);
    const notions = task.notions;
    const ranked = rankCandidates(candidates);
    const [experience, people] = await Promise.all([
      readCandidateExperience(
        planning,
        identity.planningUserId,
        ranked,
        notions.map((n) => n.id),
      ),
      // Whoever is someone in Slack gets their Planning profile beside their explanation.
      peopleOf(
        svc.deps,
        acting.workspaceId,
        ranked.slice(0, EXPLAINED).map((r) => r.userId),
      ),
    ]);
    return assignModal({
      coords: c,
      heading: task.heading ?? 'this task',
      candidates,
      fit: { notions, experience, people: people.asRecord() },
    });
  });

const PICK_ONE = 'Pick yourself, a candidate, or someone else in the workspace.';
const PICK_SOMEONE = 'Pick someone in the workspace.';

const AssignForm = form(
  {
    coords: read.metadata(TASK_FIELD.candidate, TaskCoords),
    candidate: read.value(TASK_FIELD.candidate, z.string().min(1).optional()),
    member: read.value(TASK_FIELD.assignee, slackUserId(PICK_SOMEONE).optional()),
  },
  {
    // One of them: "someone else" needs the person; a form opened before the choice existed had
    // the candidates and the people picker side by side, one of the two picked.
    refine: (f) =>
      f.superRefine((v, ctx) => {
        if (v.candidate === ASSIGN_SOMEONE) {
          if (v.member === undefined)
            ctx.addIssue({ code: 'custom', path: ['member'], message: PICK_SOMEONE });
        } else if ((v.candidate === undefined) === (v.member === undefined)) {
          const message = v.candidate === undefined ? PICK_ONE : `${PICK_ONE} (Only one.)`;
          ctx.addIssue({ code: 'custom', path: ['candidate'], message });
        }
      }),
  },
);

type AssignForm = FormOutput<typeof AssignForm>;

export const taskAssignSubmission = submission<AssignForm>({
  action: 'task-assign',
  title: ASSIGN_TITLE,
  working: 'Assigning…',
  parse: AssignForm.parse,
  // The form as it was shown — its title, the task's heading, the ranked candidates — with why.
  retry: (data, problem, view) => assignAgain(view, data.coords, problem),
  run: async (svc, { coords: c, candidate, member }, args) => {
    const planning = planningOf(args.context);
    const acting = await planning.acting();
    const assign = async (assignee: string) => {
      await acting.planning.tasks.assign(c.teamId, c.channelId, c.featureId, c.taskId, assignee);
      return assignee;
    };
    // Someone picked in the workspace may need an account: made for this assignment only, and
    // closed when the service refuses it (the task was deleted, or its feature reached deep
    // context, while the form was open) — nothing read first would say so for sure.
    let assignee: string;
    if (member) {
      const named = await planning.named([member]);
      assignee = await named.apply(([person]) => assign(person.planningUserId));
    } else if (candidate === ASSIGN_ME) assignee = await assign(acting.identity.planningUserId);
    else if (candidate && candidate !== ASSIGN_SOMEONE) assignee = await assign(candidate);
    else throw new FormProblem(md`${PICK_ONE}`);
    // Assigned: from here, its cards and the assignee's DM are best effort (the change funnel).
    const reflected = await svc.changes.changed({
      ...madeFromSlack(acting, args.client, c),
      changes: [{ kind: 'taskAssignee', taskId: c.taskId, to: assignee }],
    });
    const after = reflected.tasks.get(c.taskId);
    const who = after?.assigneeSlackId ? mention(after.assigneeSlackId) : md`them`;
    const heading = after?.heading ?? 'the task';
    return { text: md`:white_check_mark: *${heading}* is assigned to ${who}.` };
  },
});
