/**
 * The change funnel: the one way Slack follows a change of planning objects — made from Slack (a
 * press, a form, a workflow step, a thread reply) or seen by the watch after it was made elsewhere.
 * Given what changed (change.ts), it reads the objects as they are now (the topics' card sources),
 * then runs every reflection, in order:
 * 1. **cards** — every card of a changed task or feature updated in place; of a deleted or vanished
 *    one, turned into one line (cards.ts);
 * 2. **notes** — from Slack: what Slack did and showed, noted for the watch, which then neither
 *    echoes it in a thread nor DMs it again;
 * 3. **DMs** — the people concerned, by one set of rules (dms.ts), through their preferences and
 *    quiet hours; a change seen by the watch DMs each person once per change, across replicas;
 * 4. **activity** — a change seen by the watch: one message per card in its thread (activity.ts),
 *    once per card and stamp.
 * 5. **canvas** — the channel canvases of the plan showing the change's place wait for an edit
 *    (made now when the change came from Slack; src/slack/canvas/).
 * A new reflection is one more entry in {@link REFLECTIONS}. Nothing else in the
 * app updates cards, writes notes or sends DMs about a change (a test keeps it so). Best effort:
 * the change is made already, so a reflection's failure is logged and leaves the change
 * incomplete — for the watch, the feature is found again next pass, and everything done is skipped
 * by its once key.
 */
import type { WebClient } from '@slack/web-api';
import { NotFoundError } from '../../../planning/index.js';
import { unconfirmedCall } from '../../../slack-api/index.js';
import { ONCE_TTL, type PostedCard } from '../../../store/index.js';
import { type FeatureChange, minuteNote, noteOf } from '../../../watch/changes.js';
import type { SlackDeps } from '../deps.js';
import type { NotifyOutcome } from '../dm-kinds.js';
import { notify } from '../notify.js';
import { slackUserOf } from '../people.js';
import { activityLine, activityMessage, minuteLine } from './activity.js';
import { retireDeleted, retireGone, updateCards } from './cards.js';
import type {
  CanvasReflection,
  CardSources,
  FeatureFacts,
  OnCard,
  PlanningChange,
  Reflected,
  TaskFacts,
} from './change.js';
import { type DueDm, dmFor } from './dms.js';

export interface ChangeFunnel {
  /** Reflects `change` everywhere Slack shows it (see the module's comment). Never rejects. */
  changed(change: PlanningChange): Promise<Reflected>;
  /**
   * An invitation was revoked: every message that shared it (recorded as its cards) becomes one
   * line saying so, and is forgotten. Never rejects: the invitation is revoked already.
   */
  invitationRevoked(workspaceId: string, inviteId: string, slack: WebClient): Promise<void>;
}

export type FunnelDeps = Pick<SlackDeps, 'store' | 'logger'> & {
  /** The channel canvases of the plan (src/slack/canvas/), given at composition; none: no canvas kept. */
  canvas?: CanvasReflection;
};

/** Changes a task card shows (its state, assignee, heading); a task added has its card posted new. */
const ON_TASK_CARD = new Set<FeatureChange['kind']>(['taskState', 'taskAssignee', 'taskHeading']);
/** Changes a feature card shows: its stage, heading, assumptions and experiments, its tasks by state with headings. */
const ON_FEATURE_CARD = new Set<FeatureChange['kind']>([
  'stage',
  'heading',
  'assumptionAdded',
  'assumptionRemoved',
  'experiment',
  'taskAdded',
  'taskRemoved',
  'taskState',
  'taskHeading',
]);

/** One change under way: the change, the objects as they are now, and what has been found so far. */
interface Run {
  change: PlanningChange;
  /** The tasks brought up to date (read or known). */
  tasks: Map<string, OnCard<TaskFacts>>;
  /** Tasks found gone from the change's place. */
  goneTasks: Set<string>;
  /** Whether the feature's cards show this change. */
  featureShows: boolean;
  feature?: OnCard<FeatureFacts>;
  /** The feature's cards, when they were listed to decide whether to read it. */
  featureCards?: readonly PostedCard[];
  featureGone: boolean;
  /** Tasks whose cards Slack refused to update: not handled for this stamp. */
  unfinished: Set<string>;
  complete: boolean;
  retired: boolean;
  dms: { to: string; kind: DueDm['kind']; outcome: NotifyOutcome | 'failed' }[];
}

type Reflection = (run: Run) => Promise<void>;

export function createChangeFunnel(deps: FunnelDeps, sources: CardSources): ChangeFunnel {
  const { store, logger } = deps;
  const log = logger.child({ component: 'change-funnel' });

  /**
   * Does `work` once for `key` in the workspace — a change seen by the watch, one card's message or
   * one person's DM per stamp: a durable mark (a note, kept as long as notes are) says it was done;
   * the once key keeps two replicas from doing it together. Whether it is done (now, or before).
   */
  async function onceForGood(workspaceId: string, key: string, work: () => Promise<void>): Promise<boolean> {
    const mark = `watch:${key}`;
    if ((await store.slackNotes.since(workspaceId, [mark], 0)).size > 0) return true;
    const done = await store.once.run(`watch:${workspaceId}:${key}`, ONCE_TTL.watchEffect, async () => {
      await work();
      return 'done';
    });
    if (done.state === 'pending') return false;
    await store.slackNotes.note(workspaceId, [mark]);
    return true;
  }

  /** An object's cards: as the caller listed them, else read. */
  const cardsOf = async (run: Run, kind: 'task' | 'feature', id: string): Promise<readonly PostedCard[]> => {
    const known = run.change.known?.cards;
    const listed =
      kind === 'task'
        ? known?.tasks?.get(id)
        : id === run.change.place.featureId
          ? known?.feature
          : undefined;
    return listed ?? (await store.cards.list(run.change.workspaceId, kind, id));
  };

  /** 1. Every card of what changed shows it; those of what is gone become one line. */
  const cards: Reflection = async (run) => {
    const { workspaceId, place, slack, deleted, gone } = run.change;
    for (const [taskId, shown] of run.tasks) {
      if (run.change.posted?.includes(taskId)) continue;
      const list = await cardsOf(run, 'task', taskId);
      if ((await updateCards(deps, slack, list, shown.body)).left > 0) {
        run.unfinished.add(taskId);
        run.complete = false;
      }
    }
    if (run.featureShows && run.feature) {
      const list = run.featureCards ?? (await cardsOf(run, 'feature', place.featureId));
      if ((await updateCards(deps, slack, list, run.feature.body)).left > 0) run.complete = false;
    }
    for (const taskId of deleted?.tasks ?? []) await retireDeleted(deps, slack, workspaceId, 'task', taskId);
    if (deleted?.feature) await retireDeleted(deps, slack, workspaceId, 'feature', place.featureId);
    for (const taskId of run.goneTasks) {
      if (await retireGone(deps, slack, workspaceId, 'task', taskId, place)) run.retired = true;
    }
    if (run.featureGone || gone?.feature) {
      if (await retireGone(deps, slack, workspaceId, 'feature', place.featureId, place)) run.retired = true;
      // A feature gone takes its tasks with it: their cards recorded there go too.
      for (const task of run.change.seen?.tasks ?? []) {
        if (await retireGone(deps, slack, workspaceId, 'task', task.id, place)) run.retired = true;
      }
    }
  };

  /**
   * 2. Made from Slack: what it changed and the minute entries it made are noted, so the watch does
   * not announce them again. Only what Slack itself changed: what a card now shows may include a
   * change made elsewhere just before (an assignment), which the watch must still tell. A note that
   * cannot be written is logged: the change is made and told already.
   */
  const notes: Reflection = async (run) => {
    const { change } = run;
    if (change.origin.from !== 'slack') return;
    const written = new Set([
      ...(change.changes ?? []).map((c) => noteOf(change.place.featureId, c)),
      ...(change.minutes ?? []).map((m) => minuteNote(m.id)),
    ]);
    if (written.size === 0) return;
    try {
      await store.slackNotes.note(change.workspaceId, [...written]);
    } catch (error) {
      log.warn({ workspaceId: change.workspaceId, err: error }, 'could not note a change made from Slack');
    }
  };

  /** A task's facts when it was not read: as the watch saw it, its author as the app recorded it. */
  async function factsFromSeen(run: Run, taskId: string): Promise<TaskFacts | undefined> {
    const seen = run.change.seen?.tasks.find((t) => t.id === taskId);
    if (!seen) return undefined;
    const { workspaceId } = run.change;
    const [assigneeSlackId, origin] = await Promise.all([
      slackUserOf(deps, workspaceId, seen.assigneeUserId),
      store.taskOrigins.get(workspaceId, taskId),
    ]);
    return {
      heading: seen.heading ?? 'Untitled task',
      state: seen.state,
      ...(seen.assigneeUserId ? { assigneeUserId: seen.assigneeUserId } : {}),
      ...(assigneeSlackId ? { assigneeSlackId } : {}),
      ...(origin ? { authorSlackId: origin.authorSlackId } : {}),
    };
  }

  /** 3. The people concerned, once per change: now from Slack, once per stamp when seen elsewhere. */
  const dms: Reflection = async (run) => {
    const { change } = run;
    const { origin, workspaceId, slack } = change;
    if (origin.from === 'catch-up') return;
    const actor = origin.from === 'slack' ? origin.slackUserId : undefined;
    const now = origin.from === 'elsewhere' ? () => origin.now.getTime() : undefined;
    const send = async (due: DueDm, onceKey?: string) => {
      const deliver = () =>
        notify(
          { store, ...(now ? { now } : {}) },
          slack,
          { workspaceId, slackUserId: due.to },
          due.kind,
          due.body,
        );
      try {
        if (onceKey === undefined) {
          run.dms.push({ to: due.to, kind: due.kind, outcome: await deliver() });
          return;
        }
        if (!(await onceForGood(workspaceId, onceKey, async () => void (await deliver()))))
          run.complete = false;
      } catch (error) {
        run.dms.push({ to: due.to, kind: due.kind, outcome: 'failed' });
        if (onceKey !== undefined) run.complete = false;
        log.warn({ workspaceId, kind: due.kind, err: error }, 'could not send a change DM');
      }
    };
    const seenFeature: FeatureFacts | undefined = change.seen && {
      id: change.seen.id,
      stage: change.seen.stage,
      ...(change.seen.heading ? { heading: change.seen.heading } : {}),
      ...(change.seen.authorUserId ? { authorUserId: change.seen.authorUserId } : {}),
    };
    for (const c of change.changes ?? []) {
      let due: DueDm | undefined;
      try {
        const task =
          'taskId' in c
            ? (run.tasks.get(c.taskId)?.facts ?? (await factsFromSeen(run, c.taskId)))
            : undefined;
        const feature = run.feature?.facts ?? seenFeature;
        due = await dmFor(deps, slack, workspaceId, actor, c, {
          ...(task ? { task } : {}),
          ...(feature ? { feature } : {}),
        });
      } catch (error) {
        run.complete = false;
        log.warn({ workspaceId, err: error }, 'could not work out a change DM');
        continue;
      }
      if (!due) continue;
      const stamp = origin.from === 'elsewhere' ? origin.stamp : undefined;
      await send(due, stamp === undefined ? undefined : `dm:${noteOf(change.place.featureId, c)}:${stamp}`);
    }
    if (origin.from === 'slack' && change.dms) {
      const facts = new Map([...run.tasks].map(([id, shown]) => [id, shown.facts]));
      for (const due of change.dms(facts)) await send(due);
    }
  };

  /**
   * 4. Seen elsewhere: each card's thread gets one message with what changed (and, on a task card,
   * the entries added to its minutes), once per card and stamp; entries posted are noted so they
   * are never posted again, and each handled task marked done for the stamp.
   */
  const activity: Reflection = async (run) => {
    const { change } = run;
    const { origin, workspaceId, slack, place } = change;
    if (origin.from !== 'elsewhere') return;
    const lines = (changes: readonly FeatureChange[], onTaskCard: boolean) =>
      changes.flatMap((c) => {
        const line = activityLine(c, origin.who, onTaskCard);
        return line ? [line] : [];
      });
    const post = async (card: PostedCard, said: ReturnType<typeof lines>): Promise<boolean> => {
      if (said.length === 0) return true;
      try {
        return await onceForGood(
          workspaceId,
          `posted:${card.slackChannelId}:${card.messageTs}:${origin.stamp}`,
          async () => {
            try {
              await slack.chat.postMessage({
                channel: card.slackChannelId,
                // A card posted as a reply: its thread's root (a reply's ts starts no thread).
                thread_ts: card.threadTs ?? card.messageTs,
                ...activityMessage(said),
                unfurl_links: false,
                unfurl_media: false,
              });
            } catch (error) {
              // It may be in the thread already: not posted again.
              if (!unconfirmedCall(error)) throw error;
            }
          },
        );
      } catch (error) {
        log.warn({ workspaceId, kind: card.kind, err: error }, 'could not post activity in a card thread');
        return false;
      }
    };
    const changes = change.changes ?? [];
    const featureLines = lines(changes, false);
    for (const card of await cardsOf(run, 'feature', place.featureId)) {
      if (!(await post(card, featureLines))) run.complete = false;
    }
    const done: string[] = [];
    for (const taskId of new Set([...run.tasks.keys(), ...(change.handled ?? [])])) {
      const own = changes.filter((c) => 'taskId' in c && c.taskId === taskId);
      const entries = (change.minutes ?? []).filter((m) => m.taskId === taskId && m.said);
      const said = run.tasks.has(taskId)
        ? [...lines(own, true), ...entries.map((e) => minuteLine(e.said!, origin.who))]
        : [];
      let posted = true;
      for (const card of said.length > 0 ? await cardsOf(run, 'task', taskId) : []) {
        if (!(await post(card, said))) posted = false;
      }
      if (!posted) {
        run.complete = false;
        continue;
      }
      // Each entry is posted once, ever: noted once every card has it; and the task is done for this
      // stamp once its cards show it too.
      done.push(
        ...entries.map((e) => minuteNote(e.id)),
        ...(change.handled?.includes(taskId) && !run.unfinished.has(taskId)
          ? [`watch:task:${taskId}:${origin.stamp}`]
          : []),
      );
    }
    if (done.length > 0) await store.slackNotes.note(workspaceId, done);
  };

  /**
   * 5. The channel canvases of the plan showing the change's planning channel: each waits for an
   * edit; made from Slack, brought up to date now (one edit per channel, debounced: canvas/keeper.ts).
   */
  const canvas: Reflection = async (run) => {
    await deps.canvas?.changed(run.change);
  };

  /** The reflections, in order: a new one is one more entry. */
  const REFLECTIONS: readonly [string, Reflection][] = [
    ['cards', cards],
    ['notes', notes],
    ['dms', dms],
    ['activity', activity],
    ['canvas', canvas],
  ];

  /** The objects as they are now: known, else read; a 404 at the change's place is "gone". */
  async function resolve(change: PlanningChange): Promise<Run> {
    const changes = change.changes ?? [];
    const run: Run = {
      change,
      tasks: new Map(),
      goneTasks: new Set(change.gone?.tasks ?? []),
      featureShows: Boolean(change.feature) || changes.some((c) => ON_FEATURE_CARD.has(c.kind)),
      featureGone: false,
      unfinished: new Set(),
      complete: true,
      retired: false,
      dms: [],
    };
    const away = new Set([...(change.deleted?.tasks ?? []), ...run.goneTasks]);
    const taskIds = new Set(change.tasks ?? []);
    for (const c of changes) if (ON_TASK_CARD.has(c.kind) && 'taskId' in c) taskIds.add(c.taskId);
    const { reader, place } = change;
    for (const taskId of taskIds) {
      if (away.has(taskId)) continue;
      const known = change.known?.tasks?.get(taskId);
      if (known) {
        run.tasks.set(taskId, known);
        continue;
      }
      try {
        run.tasks.set(taskId, await sources.task(reader, { ...place, taskId }));
      } catch (error) {
        if (error instanceof NotFoundError) run.goneTasks.add(taskId);
        else {
          run.complete = false;
          log.warn({ workspaceId: change.workspaceId, err: error }, 'could not read a changed task');
        }
      }
    }
    run.feature = change.known?.feature;
    if (!run.feature && run.featureShows && !change.deleted?.feature && !change.gone?.feature) {
      // Read for its cards only: a feature without cards shows nothing to bring up to date.
      run.featureCards = await cardsOf(run, 'feature', place.featureId);
      if (run.featureCards.length > 0) {
        try {
          run.feature = await sources.feature(reader, place);
        } catch (error) {
          if (error instanceof NotFoundError) run.featureGone = true;
          else {
            run.complete = false;
            log.warn({ workspaceId: change.workspaceId, err: error }, 'could not read a changed feature');
          }
        }
      }
    }
    return run;
  }

  return {
    async invitationRevoked(workspaceId, inviteId, slack) {
      try {
        await retireDeleted(deps, slack, workspaceId, 'invitation', inviteId);
      } catch (error) {
        log.warn({ workspaceId, err: error }, 'could not mark a shared invitation revoked');
      }
    },

    async changed(change) {
      let run: Run;
      try {
        run = await resolve(change);
      } catch (error) {
        log.warn({ workspaceId: change.workspaceId, err: error }, 'could not read what a change touched');
        return { complete: false, tasks: new Map(), retired: false, dms: [] };
      }
      for (const [name, reflect] of REFLECTIONS) {
        try {
          await reflect(run);
        } catch (error) {
          run.complete = false;
          log.warn(
            { workspaceId: change.workspaceId, reflection: name, err: error },
            'could not reflect a change',
          );
        }
      }
      return {
        complete: run.complete,
        tasks: new Map([...run.tasks].map(([id, shown]) => [id, shown.facts])),
        ...(run.feature ? { feature: run.feature.facts } : {}),
        retired: run.retired,
        dms: run.dms,
      };
    },
  };
}
