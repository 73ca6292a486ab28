/**
 * One person's Home tab data, gathered in one pass with their own token: the account, every linked
 * channel's features (and in them, their tasks), the feedback waiting on their open tasks, their
 * experiences and recent account events. Reads run in parallel under a per-person limit; each
 * section's part either arrives, fails, or is still out when the fill deadline passes — the
 * builders then show one line for that section, never an empty tab.
 */
import pLimit from 'p-limit';
import {
  type Account,
  type Event,
  type Experience,
  type FeatureLite,
  type FeatureStage,
  NotFoundError,
  type PlanningClient,
  type TaskState,
} from '../../planning/index.js';
import type { ChannelLink, Identity, NotificationPrefs } from '../../store/index.js';
import type { FeedbackRef } from '../feedback/index.js';
import type { TaskCoords } from '../tasks/index.js';

/** A section's data: there, or why not. */
export type Part<T> = { ok: true; value: T } | { ok: false; problem: 'slow' | 'failed' | 'loading' };

export type Connection =
  /** Not known yet (first publish, before the account is resolved or provisioned). */
  | { state: 'loading' }
  | { state: 'none' }
  | { state: 'invalid' }
  | { state: 'not-member' }
  | {
      state: 'connected';
      userName?: string;
      orgName?: string;
      role?: string;
      origin: 'provisioned' | 'brought';
      /** Whether the account's name and photo follow the Slack profile (a choice for a pasted one). */
      followsProfile: boolean;
    };

export interface HomeTask {
  coords: TaskCoords;
  heading: string;
  state: TaskState;
  featureHeading: string;
  slackChannelId: string;
  /** Mine: what the task card's buttons carry as the assignee they saw. */
  assigneeUserId: string;
}

export interface HomeFeature {
  id: string;
  heading: string;
  stage: FeatureStage;
  canAdvance: boolean;
  mine: boolean;
  slackChannelId: string;
  teamId: string;
  channelId: string;
}

export interface PendingFeedback {
  ref: FeedbackRef;
  taskHeading: string;
  message: string;
}

export interface ExperienceRow {
  notion: string;
  self?: number;
  peerAverage?: number;
  peerCount: number;
}

export interface ActivityLine {
  type: Event['type'];
  stage?: FeatureStage;
  diff: string[];
}

export interface Planning {
  tasks: HomeTask[];
  features: HomeFeature[];
  /** Linked channels whose features could not be read (each named on the tab). */
  unreadChannels: string[];
}

export interface HomeSnapshot {
  connection: Connection;
  planning: Part<Planning>;
  waiting: Part<PendingFeedback[]>;
  experiences: Part<ExperienceRow[]>;
  /** The chart of self vs peers, uploaded to Slack; absent when it could not be made or shown. */
  chartFileId?: string;
  activity: Part<ActivityLine[]>;
  /** Present for workspace admins only. */
  admin?: { links: ChannelLink[] };
  prefs?: NotificationPrefs;
  /** Whether they let workflow steps act for them (off unless they turned it on). */
  workflowActFor?: boolean;
  /** The person's Slack time zone (quiet hours are read in it). */
  timeZone: string;
  /** When the data was read (epoch ms). */
  at: number;
}

export const LOADING: Part<never> = { ok: false, problem: 'loading' };

/** Tasks read at most for their feedback; the rest are not searched for replies owed. */
const MAX_TASK_READS = 20;

/** Reads every part in parallel (at most `concurrency` calls at once) as the person themselves. */
export function gatherParts(
  client: PlanningClient,
  me: { planningUserId: string },
  links: readonly ChannelLink[],
  { concurrency = 4, signal }: { concurrency?: number; signal?: AbortSignal } = {},
) {
  const limit = pLimit(concurrency);
  const call = <T>(fn: () => Promise<T>) => limit(fn);
  const opts = signal ? { signal } : {};

  const account: Promise<Account> = call(() => client.account.read(opts));

  const planning: Promise<Planning> = linkedPlanning(client, me, links, call, opts);

  const waiting: Promise<PendingFeedback[]> = planning.then(({ tasks }) =>
    pendingFeedback(client, tasks, call, opts),
  );

  const experiences: Promise<ExperienceRow[]> = call(async () => {
    const all: Experience[] = [];
    for await (const e of client.experiences.list({ pageSize: 100 }, opts)) all.push(e);
    return experienceRows(all);
  });

  const activity: Promise<ActivityLine[]> = call(async () => {
    const page = await client.account.eventsList({ pageSize: 20, aggregate: 1 }, opts);
    return (
      page.events
        // Peer grades stay anonymous: an event naming the grader (or its moment) is never listed.
        .filter((e) => e.type !== 'peer evaluation')
        .map((e) => ({ type: e.type, ...(e.stage ? { stage: e.stage } : {}), diff: e.diff }))
    );
  });

  return { account, planning, waiting, experiences, activity };
}

/**
 * The feedback on `tasks` (a person's own) not replied to yet — only a task's minute carries it —
 * read through `call` (the caller's concurrency limit), at most MAX_TASK_READS open tasks.
 */
export async function pendingFeedback(
  client: PlanningClient,
  tasks: readonly HomeTask[],
  call: <T>(fn: () => Promise<T>) => Promise<T>,
  opts: { signal?: AbortSignal } = {},
): Promise<PendingFeedback[]> {
  const open = tasks.filter((t) => t.state !== 'done').slice(0, MAX_TASK_READS);
  const read = await Promise.all(
    open.map((task) =>
      call(async () => {
        const c = task.coords;
        try {
          const expanded = await client.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId, opts);
          return (expanded.minute?.feedback ?? [])
            .filter((f) => !f.reply?.trim())
            .map((f) => ({
              ref: { ...c, feedbackId: f.id },
              taskHeading: expanded.heading ?? task.heading,
              message: f.message ?? '',
            }));
        } catch (error) {
          if (error instanceof NotFoundError) return [];
          throw error;
        }
      }),
    ),
  );
  return read.flat();
}

/**
 * What `person` has in the linked channels — the tasks assigned to them and the features, theirs
 * marked — read with `client` (the person's own token on their Home tab, the reader's for someone
 * else's profile), each channel's features through `call` (the caller's concurrency limit).
 */
export function linkedPlanning(
  client: PlanningClient,
  person: { planningUserId: string },
  links: readonly ChannelLink[],
  call: <T>(fn: () => Promise<T>) => Promise<T>,
  opts: { signal?: AbortSignal } = {},
): Promise<Planning> {
  return Promise.all(
    links.map((link) =>
      call(async () => {
        const features: FeatureLite[] = [];
        for await (const f of client.features.list(link.teamId, link.channelId, { pageSize: 500 }, opts)) {
          features.push(f);
        }
        return { link, features };
      }).then(
        (value) => ({ ok: true as const, ...value }),
        (error: unknown) => ({ ok: false as const, link, error }),
      ),
    ),
  ).then((read) => {
    if (read.length > 0 && read.every((r) => !r.ok)) throw (read[0] as { error: unknown }).error;
    const result: Planning = { tasks: [], features: [], unreadChannels: [] };
    for (const r of read) {
      if (!r.ok) {
        result.unreadChannels.push(r.link.slackChannelId);
        continue;
      }
      const { link } = r;
      for (const f of r.features) {
        const heading = f.heading ?? 'Untitled feature';
        result.features.push({
          id: f.id,
          heading,
          stage: f.stage,
          canAdvance: f.canAdvance,
          mine: f.authorUserId === person.planningUserId,
          slackChannelId: link.slackChannelId,
          teamId: link.teamId,
          channelId: link.channelId,
        });
        for (const t of f.tasks) {
          if (t.assigneeUserId !== person.planningUserId) continue;
          result.tasks.push({
            coords: { teamId: link.teamId, channelId: link.channelId, featureId: f.id, taskId: t.id },
            heading: t.heading ?? 'Untitled task',
            state: t.state,
            featureHeading: heading,
            slackChannelId: link.slackChannelId,
            assigneeUserId: t.assigneeUserId,
          });
        }
      }
    }
    return result;
  });
}

/** Per notion: my self grade next to my peers' average and count — never who or when. Pure. */
export function experienceRows(experiences: readonly Experience[]): ExperienceRow[] {
  return experiences
    .filter((e) => (e.selfEval?.count ?? 0) + (e.peerEval?.count ?? 0) > 0)
    .map((e) => ({
      notion: e.notion?.value ?? e.notion?.id ?? e.id,
      ...(e.selfEval?.count ? { self: e.selfEval.average } : {}),
      ...(e.peerEval?.count ? { peerAverage: e.peerEval.average } : {}),
      peerCount: e.peerEval?.count ?? 0,
    }))
    .sort((a, b) => a.notion.localeCompare(b.notion, 'en', { sensitivity: 'base' }));
}

/** Who the account is, for the connection section. */
export function describeAccount(
  account: Account,
  { orgId, origin, followsProfile }: Pick<Identity, 'orgId' | 'origin' | 'followsProfile'>,
): Connection {
  return {
    state: 'connected',
    origin,
    followsProfile,
    ...(account.userName ? { userName: account.userName } : {}),
    ...(() => {
      const org = account.orgs.find((o) => o.id === orgId);
      return org?.orgName ? { orgName: org.orgName } : {};
    })(),
    ...(() => {
      const role = account.roleOrg.find((r) => r.orgId === orgId)?.role;
      return role ? { role } : {};
    })(),
  };
}
