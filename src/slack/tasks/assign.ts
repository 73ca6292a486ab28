/**
 * Assign…: the task's candidates ranked by the service's Yerkes-Dodson fit, said in plain words, or
 * anyone of the workspace, or oneself; the assignee is told by DM.
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
import type { ActionArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, read, slackUserId } from '../kit/form.js';
import { formProblem } from '../kit/modal.js';
import { peopleOf } from '../kit/people.js';
import type { Services } from '../kit/services.js';
import { FormProblem, submission } from '../kit/submission.js';
import { TaskCoords } from './card.js';
import { type CandidateExperience, EXPLAINED, fitBlocks, fitLabel, readCandidateExperience } from './fit.js';
import { TASK_FIELD, TASK_VIEW } from './ids.js';
import { notifyTaskChange, openTaskModal, refreshTaskCards } from './live.js';

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

export const ASSIGN_TITLE = 'Assign task';

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
  // The picker holds at most 100 options: "Assign to me" and the 99 best candidates.
  const options = [option('Assign to me', ASSIGN_ME), ...ranked.slice(0, 99).map(candidateOption)];
  return modal({
    callbackId: TASK_VIEW.assign,
    title: ASSIGN_TITLE,
    submit: 'Assign',
    close: 'Cancel',
    privateMetadata: JSON.stringify(TaskCoords.parse(form.coords)),
    blocks: [
      section(md`Who should do *${inline(form.heading, LIMITS.heading)}*?`),
      input(
        'Candidates (best fit first)',
        TASK_FIELD.candidate.block,
        { type: 'static_select', action_id: TASK_FIELD.candidate.action, options },
        { optional: true, hint: 'Fit weighs their grades on the task’s notions against how busy they are.' },
      ),
      ...(form.fit ? fitBlocks(ranked, form.fit.notions, form.fit.experience, form.fit.people) : []),
      input(
        'Or anyone in the workspace',
        TASK_FIELD.assignee.block,
        { type: 'users_select', action_id: TASK_FIELD.assignee.action },
        { optional: true, hint: 'They are set up in the planning service if they are not yet.' },
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

/**
 * The Assign form again after a refusal, as the person saw it: the blocks Slack handed back with the
 * submission (the heading and the ranked candidates, read when it opened) up to its last field, then
 * the problem — a refusal never costs the candidates, nor a second read of them.
 */
function assignAgain(view: ViewOutput, coords: TaskCoords, problem: Mrkdwn): ModalView {
  const shown = view.blocks as KnownBlock[];
  const fields = shown.findIndex((b) => b.block_id === TASK_FIELD.assignee.block) + 1;
  // A view without the form's fields (never expected from Slack): the form rebuilt, to be reopened for candidates.
  if (fields === 0) return assignModal({ coords, heading: 'this task', candidates: [], problem });
  return modal({
    callbackId: TASK_VIEW.assign,
    title: ASSIGN_TITLE,
    submit: 'Assign',
    close: 'Cancel',
    privateMetadata: JSON.stringify(TaskCoords.parse(coords)),
    blocks: [...shown.slice(0, fields), formProblem(problem)],
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

const PICK_ONE = 'Pick a candidate, yourself, or someone in the workspace.';

const AssignForm = form(
  {
    coords: read.metadata(TASK_FIELD.candidate, TaskCoords),
    candidate: read.value(TASK_FIELD.candidate, z.string().min(1).optional()),
    member: read.value(TASK_FIELD.assignee, slackUserId(PICK_ONE).optional()),
  },
  {
    refine: (f) =>
      f.refine((v) => (v.candidate === undefined) !== (v.member === undefined), {
        message: `${PICK_ONE} (Only one.)`,
        path: ['candidate'],
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
    const assign = (assignee: string) =>
      acting.planning.tasks.assign(c.teamId, c.channelId, c.featureId, c.taskId, assignee);
    // Someone picked in the workspace may need an account: made for this assignment only, and
    // closed when the service refuses it (the task was deleted, or its feature reached deep
    // context, while the form was open) — nothing read first would say so for sure.
    if (member) {
      const named = await planning.named([member]);
      await named.apply(([person]) => assign(person.planningUserId));
    } else if (candidate === ASSIGN_ME) await assign(acting.identity.planningUserId);
    else if (candidate) await assign(candidate);
    else throw new FormProblem(md`${PICK_ONE}`);
    // Assigned: from here, cards and DMs are best effort.
    const after = await refreshTaskCards(svc.deps, args.client, acting, c);
    if (after) {
      await notifyTaskChange(svc.deps, args.client, planning.workspaceId, planning.slackUserId, after, {
        kind: 'assigned',
      });
    }
    const who = after?.assigneeSlackId ? mention(after.assigneeSlackId) : md`them`;
    const heading = after?.heading ?? 'the task';
    return { text: md`:white_check_mark: *${heading}* is assigned to ${who}.` };
  },
});
