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
import type { SlackDeps } from '../kit/deps.js';
import { peopleOf } from '../kit/people.js';
import type { TaskCoords } from '../tasks/index.js';

/** A section's data: there, or why not. */
export type Part<T> = { ok: true; value: T } | { ok: false; problem: 'slow' | 'failed' | 'loading' };

export type Connection =
  /** Not known yet (first publish, before the account is resolved or provisioned). */
  | { state: 'loading' }
  | { state: 'none' }
  | { state: 'invalid' }
  /** Disconnected: asked what to do (connect again, paste a token, a new account), never given one unasked. */
  | { state: 'left'; reason: 'left-open' | 'left-closed' | 'left-pasted' }
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
  /** When the service last stamped it (it or anything in it changed). */
  updatedAt?: string;
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

/** One line of the person's recent activity: something of theirs that changed, named. */
export interface ActivityLine {
  type: Event['type'];
  stage?: FeatureStage;
  diff: string[];
  /** The task it is about (tasks), by its heading. */
  task?: string;
  /** The feature it is about, or the task's or assumption's feature, by its heading. */
  feature?: string;
  /** Who did it, where the app knows (the service does not say): a Slack user. */
  bySlackUserId?: string;
}

export interface Planning {
  tasks: HomeTask[];
  features: HomeFeature[];
  /** Linked channels whose features could not be read (each named on the tab). */
  unreadChannels: string[];
  /** Every feature and task read in the linked channels, by id: what activity lines name. */
  named: {
    features: Record<string, { heading: string; authorUserId?: string; teamId: string; channelId: string }>;
    tasks: Record<
      string,
      {
        heading: string;
        featureId: string;
        assigneeUserId?: string;
        /** Where it is, and the notions it exercises (the assistant's peers to grade). */
        state?: TaskState;
        notionIds?: readonly string[];
      }
    >;
  };
}

/**
 * What the store knows of who did things, which the service's events do not say. The Home tab
 * gives it (`activityPeople`); without it, lines name nobody and tasks count as the person's only
 * when assigned to them.
 */
export interface ActivityPeople {
  /** Tasks created from Slack, by whom: task id → the Slack user who created it. */
  taskAuthors(taskIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** Planning users → the Slack user acting as each here (those nobody acts as are left out). */
  slackUsersOf(planningUserIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** What this workspace's store knows of who did things (another workspace's rows are never read). */
export function activityPeople(deps: Pick<SlackDeps, 'store'>, workspaceId: string): ActivityPeople {
  return {
    async taskAuthors(taskIds) {
      const origins = await Promise.all(taskIds.map((id) => deps.store.taskOrigins.get(workspaceId, id)));
      return new Map(origins.flatMap((o) => (o ? [[o.taskId, o.authorSlackId] as const] : [])));
    },
    async slackUsersOf(planningUserIds) {
      return new Map(Object.entries((await peopleOf(deps, workspaceId, planningUserIds)).asRecord()));
    },
  };
}

const NOBODY_KNOWN: ActivityPeople = {
  taskAuthors: async () => new Map(),
  slackUsersOf: async () => new Map(),
};

export interface HomeSnapshot {
  connection: Connection;
  planning: Part<Planning>;
  waiting: Part<PendingFeedback[]>;
  experiences: Part<ExperienceRow[]>;
  /** The chart of self vs peers, uploaded to Slack; absent when it could not be made or shown. */
  chartFileId?: string;
  activity: Part<ActivityLine[]>;
  /** Present for workspace admins only. */
  admin?: {
    links: ChannelLink[];
    /** The linked channels whose plan is kept in their canvas (src/slack/canvas/). */
    canvases?: readonly string[];
  };
  prefs?: NotificationPrefs;
  /** Whether they let workflow steps act for them (off unless they turned it on). */
  workflowActFor?: boolean;
  /** The person's Slack time zone (quiet hours are read in it). */
  timeZone: string;
  /** When the data was read (epoch ms). */
  at: number;
}

export const LOADING: Part<never> = { ok: false, problem: 'loading' };

/** Other people's tasks read at most to find feedback the person gave on them. */
const MAX_FEEDBACK_READS = 5;

/** Tasks read at most for their feedback; the rest are not searched for replies owed. */
const MAX_TASK_READS = 20;

/** Reads every part in parallel (at most `concurrency` calls at once) as the person themselves. */
export function gatherParts(
  client: PlanningClient,
  me: { planningUserId: string; slackUserId?: string },
  links: readonly ChannelLink[],
  {
    concurrency = 4,
    signal,
    people = NOBODY_KNOWN,
  }: { concurrency?: number; signal?: AbortSignal; people?: ActivityPeople } = {},
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

  const events = call(async () => await client.account.eventsList({ pageSize: 20, aggregate: 1 }, opts));
  // Of tasks that are not theirs, those the person gave feedback on (read from the task's minute).
  const gaveFeedbackOn = async (planned: Planning, taskIds: readonly string[]) => {
    const read = await Promise.all(
      taskIds.slice(0, MAX_FEEDBACK_READS).map((taskId) =>
        call(async () => {
          const task = planned.named.tasks[taskId];
          const feature = task && planned.named.features[task.featureId];
          if (!task || !feature) return undefined;
          try {
            const expanded = await client.tasks.read(
              feature.teamId,
              feature.channelId,
              task.featureId,
              taskId,
              opts,
            );
            const theirs = (expanded.minute?.feedback ?? []).some(
              (f) => f.authorUserId === me.planningUserId,
            );
            return theirs ? taskId : undefined;
          } catch {
            // Gone, or not readable now: its lines are left out rather than the whole section.
            return undefined;
          }
        }),
      ),
    );
    return new Set(read.filter((id): id is string => id !== undefined));
  };
  const activity: Promise<ActivityLine[]> = Promise.all([events, planning]).then(([page, planned]) =>
    ownActivity(page.events, planned, me, people, (ids) => gaveFeedbackOn(planned, ids)),
  );

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

/** One link per planning channel: two Slack channels linked to one are read once. */
export function onePerPlanningChannel(links: readonly ChannelLink[]): ChannelLink[] {
  const seen = new Set<string>();
  return links.filter((l) => {
    const key = `${l.teamId}/${l.channelId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
    const result: Planning = {
      tasks: [],
      features: [],
      unreadChannels: [],
      named: { features: {}, tasks: {} },
    };
    for (const r of read) {
      if (!r.ok) {
        result.unreadChannels.push(r.link.slackChannelId);
        continue;
      }
      const { link } = r;
      for (const f of r.features) {
        const heading = f.heading ?? 'Untitled feature';
        result.named.features[f.id] = {
          heading,
          teamId: link.teamId,
          channelId: link.channelId,
          ...(f.authorUserId ? { authorUserId: f.authorUserId } : {}),
        };
        result.features.push({
          id: f.id,
          heading,
          stage: f.stage,
          canAdvance: f.canAdvance,
          mine: f.authorUserId === person.planningUserId,
          slackChannelId: link.slackChannelId,
          teamId: link.teamId,
          channelId: link.channelId,
          ...(f.updatedAt ? { updatedAt: f.updatedAt } : {}),
        });
        for (const t of f.tasks) {
          result.named.tasks[t.id] = {
            heading: t.heading ?? 'Untitled task',
            featureId: f.id,
            ...(t.assigneeUserId ? { assigneeUserId: t.assigneeUserId } : {}),
            state: t.state,
            notionIds: t.notionIds,
          };
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

/**
 * The events that are the person's own, each naming what it is about: their self grades, the
 * features they authored (and their assumptions), the tasks assigned to them or that they created
 * from Slack (feedback on them included), and feedback they gave on others' tasks. The service sends everyone in a channel its changes; a
 * feature or task outside this workspace's linked channels is never named, so never listed.
 */
async function ownActivity(
  events: readonly Event[],
  planned: Planning,
  me: { planningUserId: string; slackUserId?: string },
  people: ActivityPeople,
  gaveFeedbackOn: (taskIds: readonly string[]) => Promise<ReadonlySet<string>>,
): Promise<ActivityLine[]> {
  // Peer grades stay anonymous: an event naming the grader (or its moment) is never listed.
  const listed = events.filter((e) => e.type !== 'peer evaluation');
  const taskIds = listed.flatMap((e) => (e.type === 'tasks' && e.taskId ? [e.taskId] : []));
  const authors = await people.taskAuthors([...new Set(taskIds)]);
  const ownTask = (taskId: string | undefined) => {
    const task = taskId ? planned.named.tasks[taskId] : undefined;
    const author = taskId ? authors.get(taskId) : undefined;
    return (
      task?.assigneeUserId === me.planningUserId ||
      (author !== undefined && me.slackUserId !== undefined && author === me.slackUserId)
    );
  };
  // Feedback on someone else's task is the person's when they gave it: those tasks are read.
  const feedbackOn = listed.flatMap((e) =>
    e.type === 'tasks' && e.taskId && e.diff.includes('feedback') && !ownTask(e.taskId) ? [e.taskId] : [],
  );
  const gave = feedbackOn.length > 0 ? await gaveFeedbackOn([...new Set(feedbackOn)]) : new Set<string>();
  const lines: (ActivityLine & { byPlanningUserId?: string })[] = [];
  for (const e of listed) {
    const line: ActivityLine = { type: e.type, ...(e.stage ? { stage: e.stage } : {}), diff: e.diff };
    if (e.type === 'self-evaluation') {
      lines.push(line);
      continue;
    }
    const feature = e.featureId ? planned.named.features[e.featureId] : undefined;
    if (!feature) continue;
    const created = e.diff.includes('created');
    if (e.type === 'tasks') {
      const task = e.taskId ? planned.named.tasks[e.taskId] : undefined;
      const author = e.taskId ? authors.get(e.taskId) : undefined;
      const mine =
        ownTask(e.taskId) || (e.taskId !== undefined && gave.has(e.taskId) && e.diff.includes('feedback'));
      if (!task || !mine) continue;
      lines.push({
        ...line,
        task: task.heading,
        feature: feature.heading,
        ...(created && author ? { bySlackUserId: author } : {}),
      });
    } else if (feature.authorUserId === me.planningUserId) {
      lines.push({
        ...line,
        feature: feature.heading,
        // A feature is created by its author.
        ...(created && e.type === 'features' && feature.authorUserId
          ? { byPlanningUserId: feature.authorUserId }
          : {}),
      });
    }
  }
  const planningIds = lines.flatMap((l) => (l.byPlanningUserId ? [l.byPlanningUserId] : []));
  const slackOf = planningIds.length > 0 ? await people.slackUsersOf([...new Set(planningIds)]) : new Map();
  return lines.map(({ byPlanningUserId, ...line }) => {
    const by = byPlanningUserId ? slackOf.get(byPlanningUserId) : undefined;
    return by ? { ...line, bySlackUserId: by } : line;
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
