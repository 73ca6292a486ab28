/**
 * Why a candidate fits a task, in the Assign form: the task's notions with the candidate's
 * experience on each — their self grade and their peers' average and count, never who graded or
 * when — beside the fit in words. Kept apart from the form (assign.ts) so that the form only places
 * what this renders. One read per candidate explained (`experiences.listPeer`, the asker's own
 * with `experiences.list`), at most {@link PER_REQUEST} at a time, for the {@link EXPLAINED} best.
 */
import type { KnownBlock } from '@slack/types';
import pLimit from 'p-limit';
import { context, inline, joinMd, type Mrkdwn, md, plural, section } from '../../blockkit/index.js';
import type { Candidate, Experience, Notion, PlanningClient } from '../../planning/index.js';
import { experiencePhrase, figuresOf } from '../kit/experience.js';
import { profileButton } from '../kit/people.js';

/** Candidates explained at most (the best ones): one read each. */
export const EXPLAINED = 10;
const PER_REQUEST = 4;
/** Notions named per candidate at most. */
const NOTIONS_SHOWN = 5;

/** Each explained candidate's experience on the task's notions, by planning user id then notion id. */
export type CandidateExperience = ReadonlyMap<string, ReadonlyMap<string, Experience>>;

/** The Yerkes-Dodson score in plain language: 90+ a great fit, 40+ a good fit. */
export function fitLabel(score: number | undefined): string {
  if (score === undefined) return 'fit unknown';
  if (score >= 90) return 'great fit';
  if (score >= 40) return 'good fit';
  return 'weak fit';
}

/**
 * Reads the experience of the best candidates on the task's notions. A candidate whose read fails is
 * left unexplained (the form still opens); nothing is read for a task without notions.
 */
export async function readCandidateExperience(
  client: PlanningClient,
  me: string,
  ranked: readonly Candidate[],
  notionIds: readonly string[],
): Promise<CandidateExperience> {
  const found = new Map<string, Map<string, Experience>>();
  if (notionIds.length === 0) return found;
  const wanted = new Set(notionIds);
  const limit = pLimit(PER_REQUEST);
  await Promise.all(
    ranked.slice(0, EXPLAINED).map((c) =>
      limit(async () => {
        const mine = new Map<string, Experience>();
        try {
          const list =
            c.userId === me
              ? client.experiences.list({ pageSize: 500 })
              : client.experiences.listPeer(c.userId, { pageSize: 500 });
          for await (const e of list) if (e.notion && wanted.has(e.notion.id)) mine.set(e.notion.id, e);
          found.set(c.userId, mine);
        } catch {
          // Unexplained, not unassignable: the picker still lists them.
        }
      }),
    ),
  );
  return found;
}

/** One candidate: the fit in words, their load, and their experience on each of the task's notions. */
export function candidateExplanation(
  c: Candidate,
  notions: readonly Notion[],
  experience: ReadonlyMap<string, Experience> | undefined,
): Mrkdwn {
  const score = c.ydScore === undefined ? '' : ` (${Math.round(c.ydScore)})`;
  const load =
    c.userFeatures === undefined ? md`` : md` · ${plural(c.userFeatures, 'feature')} on their plate`;
  const head = md`*${inline(c.userName ?? c.userId, 64)}* — ${fitLabel(c.ydScore)}${score}${load}`;
  if (notions.length === 0) return head;
  if (!experience) return md`${head}\n_their experience could not be read right now_`;
  const shown = notions
    .slice(0, NOTIONS_SHOWN)
    .map((n) => md`${inline(n.value ?? n.id, 40)}: ${experiencePhrase(figuresOf(experience.get(n.id)))}`);
  const more = notions.length > NOTIONS_SHOWN ? md` …and ${notions.length - NOTIONS_SHOWN} more` : md``;
  return md`${head}\n${joinMd(shown, ' · ')}${more}`;
}

/** The Assign form's explanation blocks for the best candidates (none without candidates). */
export function fitBlocks(
  ranked: readonly Candidate[],
  notions: readonly Notion[],
  experience: CandidateExperience,
  /** Planning user id → the Slack user acting as them: their *Planning profile* beside them. */
  people: Readonly<Record<string, string>> = {},
): KnownBlock[] {
  if (ranked.length === 0) return [];
  const intro =
    notions.length === 0
      ? md`*Why they fit* — this task has no notions, so fit weighs only how busy they are.`
      : md`*Why they fit* — their grades on the task’s notions (self, and peers’ average: anonymous).`;
  return [
    section(intro),
    ...ranked.slice(0, EXPLAINED).map((c) => {
      const explained = candidateExplanation(c, notions, experience.get(c.userId));
      const [profile] = profileButton(people[c.userId]);
      return profile ? section(explained, { accessory: profile }) : context(explained);
    }),
  ];
}
