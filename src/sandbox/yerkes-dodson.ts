/**
 * Task candidates ranked by a Yerkes-Dodson score: performance peaks at a moderate load and falls
 * off on either side, scaled by how well the person knows the task's notions. Deterministic, so
 * tests and demos can rely on the order.
 *
 * - `userFeatures`: features in execution where the person has an unfinished task;
 * - `ydStress` (0–100): 20 per such feature, capped;
 * - `ydPrecision` (0–100): share of the task's notions the person has been evaluated on;
 * - `ydScore` (0–100): bell curve of stress (peak at 40) × (0.4 + 0.6 × skill), where skill is the
 *   mean grade over the task's notions (peer average first, else self), 0.5 when the task names none.
 */
import type { Candidate } from '../planning/models.js';
import type { ExperienceRec, FeatureRec, TaskRec } from './state.js';
import type { Store } from './store.js';

const STRESS_PER_FEATURE = 20;
const OPTIMAL_STRESS = 40;
const CURVE_WIDTH = 40;

const round1 = (value: number) => Math.round(value * 10) / 10;

export function findExperience(store: Store, orgId: string, userId: string, notionId: string) {
  return Object.values(store.state.experiences).find(
    (exp) => exp.orgId === orgId && exp.userId === userId && exp.notionId === notionId,
  );
}

function skillOn(exp: ExperienceRec | undefined): number {
  const grades = exp && exp.peer.length > 0 ? exp.peer : (exp?.self ?? []);
  if (grades.length === 0) return 0;
  return grades.reduce((sum, g) => sum + g.grade, 0) / grades.length / 10;
}

export function rankCandidates(store: Store, feature: FeatureRec, task: TaskRec): Required<Candidate>[] {
  const channel = store.channel(store.team(feature.orgId, feature.teamId), feature.channelId);
  const executing = store.featuresOf(feature.orgId).filter((f) => f.stage === 'execution');
  const people = channel.userIds.flatMap((id) => {
    const account = store.account(id);
    return account && account.closedTime === 0 ? [account] : [];
  });
  return people
    .map((person) => {
      const userFeatures = executing.filter((f) =>
        f.tasks.some((t) => t.assigneeUserId === person.id && t.state !== 'done'),
      ).length;
      const ydStress = Math.min(100, userFeatures * STRESS_PER_FEATURE);
      const experiences = task.notionIds.map((notionId) =>
        findExperience(store, feature.orgId, person.id, notionId),
      );
      const assessed = experiences.filter((exp) => exp && exp.self.length + exp.peer.length > 0).length;
      const ydPrecision = task.notionIds.length === 0 ? 0 : (100 * assessed) / task.notionIds.length;
      const skill =
        experiences.length === 0
          ? 0.5
          : experiences.reduce((sum, exp) => sum + skillOn(exp), 0) / experiences.length;
      const arousal = 100 * Math.exp(-(((ydStress - OPTIMAL_STRESS) / CURVE_WIDTH) ** 2));
      const ydScore = Math.min(100, Math.max(0, arousal * (0.4 + 0.6 * skill)));
      return {
        userId: person.id,
        userName: person.userName,
        userFeatures,
        ydStress,
        ydPrecision: round1(ydPrecision),
        ydScore: round1(ydScore),
      };
    })
    .sort((a, b) => b.ydScore - a.ydScore || a.userName.localeCompare(b.userName));
}
