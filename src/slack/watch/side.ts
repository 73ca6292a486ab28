/**
 * The watch's Slack side (issue 24): given one linked channel's changed features (a `WatchTurn`
 * from the watch pass, src/watch/), it brings Slack up to date —
 * - every live card of a changed feature, and of each of its changed tasks, is updated in place
 *   with the same renderers the Slack flows use; a feature or task gone from the listing is read
 *   first, and only a 404 at the place its cards were recorded with turns them into one line;
 * - each card's thread gets ONE short message per pass with what changed outside Slack (and, for a
 *   task card, the discoveries and feedback added to the task since the last look), once per card
 *   and feature `updatedAt`, even after a crash or a partial failure;
 * - the people concerned are DMed through kit/notify.ts (preferences, quiet hours), once per change;
 * - what Slack did itself (a note in `store.slackNotes` since the last look) is neither echoed nor
 *   DMed: the Slack flows announced it already.
 * A feature is returned as done only when all of that was done; otherwise the watch finds it again
 * next pass and every effect already made is skipped by its once key.
 */
import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Mrkdwn } from '../../blockkit/index.js';
import { message, section } from '../../blockkit/index.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { FEATURE_STAGES, NotFoundError, type TaskExpanded } from '../../planning/index.js';
import { ONCE_TTL, type PostedCard, type Store } from '../../store/index.js';
import { type FeatureChange, type FeatureDelta, minuteNote, noteOf } from '../../watch/changes.js';
import type { WatchSink, WatchTurn } from '../../watch/sink.js';
import { featureAdvancedDm, featureCard, featureRef, readFeatureView } from '../features/index.js';
import type { CardReader } from '../kit/identity.js';
import { retireCards, updateCards } from '../kit/live-cards.js';
import { type NotificationKind, type NotifyBody, notify } from '../kit/notify.js';
import { peopleOf } from '../kit/people.js';
import { deletedLine } from '../kit/press.js';
import {
  cardLink,
  liveTaskCard,
  readTaskView,
  type TaskView,
  taskChangeDm,
  taskDm,
  taskRef,
} from '../tasks/index.js';
import { activityLine, activityMessage, minuteLine, type Who, whoFrom } from './activity.js';

export interface WatchSlackDeps {
  store: Store;
  logger: Logger;
  config: Config;
  /** The bot's client in a workspace (its token through `clients.slack`); undefined without a bot token. */
  slackFor(workspaceId: string): Promise<WebClient | undefined>;
  /** Tasks read per turn at most, for their cards and minutes; the rest wait for the next pass. Default 20. */
  maxTaskReads?: number;
}

/** Channel members whose names one turn reads at most (activity lines naming people not connected). */
const MAX_NAMES_READ = 500;

/** Where a turn's features live, as the app records its cards' places. */
interface Place {
  teamId: string;
  channelId: string;
  featureId: string;
}

type Entry = Parameters<typeof minuteLine>[0] & { id: string };

export function createWatchSlackSide(deps: WatchSlackDeps): WatchSink {
  const { store, logger } = deps;
  const log = logger.child({ component: 'watch-slack' });

  /**
   * Does `work` once for `key` in the workspace: a durable mark (a Slack note, kept as long as
   * notes are) says it was done; a short claim keeps two replicas from doing it together. Whether
   * it is done (by now, or before); false when another one holds it.
   */
  async function once(workspaceId: string, key: string, work: () => Promise<void>): Promise<boolean> {
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

  /** The cards of an entity whose recorded place is this one (or unknown, recorded before places were). */
  const atPlace = (cards: readonly PostedCard[], place: Place) =>
    cards.filter(
      (c) =>
        !c.place ||
        (c.place.teamId === place.teamId &&
          c.place.channelId === place.channelId &&
          c.place.featureId === place.featureId),
    );

  /**
   * The entity is gone from where its cards say it lives (a 404 there): its cards become one line.
   * As a press does, only when a card was recorded with this very place — a 404 proves nothing
   * about cards recorded elsewhere (a feature moved to another channel keeps them).
   */
  async function retire(slack: WebClient, cards: readonly PostedCard[], place: Place, noun: string) {
    if (!cards.some((c) => c.place !== undefined && atPlace([c], place).length === 1)) return;
    await retireCards(deps, slack, atPlace(cards, place), deletedLine(noun));
  }

  async function apply(turn: WatchTurn): Promise<ReadonlySet<string>> {
    const { link, planning } = turn;
    const workspaceId = link.workspaceId;
    const bot = await deps.slackFor(workspaceId);
    if (!bot) throw new Error('no Slack bot token for this workspace');
    const slack: WebClient = bot;
    const reader: CardReader = { workspaceId, planning };
    let reads = deps.maxTaskReads ?? 20;
    const done = new Set<string>();

    /** A feature gone from the channel's listing: read where it was before saying it is deleted. */
    async function gone(delta: FeatureDelta, place: Place): Promise<boolean> {
      try {
        await planning.features.read(place.teamId, place.channelId, place.featureId);
        // Still there (not listed, not deleted): its cards stay as they are.
        return true;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
      await retire(slack, await store.cards.list(workspaceId, 'feature', delta.featureId), place, 'feature');
      for (const task of delta.before?.tasks ?? []) {
        await retire(slack, await store.cards.list(workspaceId, 'task', task.id), place, 'task');
      }
      return true;
    }

    /** One feature's changes; whether everything it called for is done. */
    async function follow(delta: FeatureDelta): Promise<boolean> {
      const place: Place = { teamId: link.teamId, channelId: link.channelId, featureId: delta.featureId };
      if (!delta.after) return gone(delta, place);
      // First seen: a baseline, nothing to announce.
      if (!delta.before) return true;
      const { after } = delta;
      const seenAt = delta.seenAt ?? 0;
      // What once keys are made per: the service's stamp, or (a service without one) what was seen.
      const stamp =
        after.updatedAt ?? createHash('sha256').update(JSON.stringify(after)).digest('hex').slice(0, 16);
      let complete = true;

      // What Slack did itself since the last look is not told again.
      const notes = delta.changes.map((c) => noteOf(delta.featureId, c));
      const noted = notes.length > 0 ? await store.slackNotes.since(workspaceId, notes, seenAt) : new Set();
      const fresh = delta.changes.filter((_c, i) => !noted.has(notes[i]!));

      const removed = new Set(delta.changes.flatMap((c) => (c.kind === 'taskRemoved' ? [c.taskId] : [])));
      const changedTasks = new Set(
        delta.changes.flatMap((c) => ('taskId' in c && c.kind !== 'taskAdded' ? [c.taskId] : [])),
      );

      // The feature's own cards show its stage, assumptions and its tasks by state.
      const featureCards = await store.cards.list(workspaceId, 'feature', delta.featureId);
      if (delta.changes.length > 0 && featureCards.length > 0) {
        const view = await readFeatureView({ deps }, reader, place);
        const failed: PostedCard[] = [];
        await updateCards(deps, slack, featureRef(workspaceId, delta.featureId), featureCard(view), {
          cards: featureCards,
          failed,
        });
        if (failed.length > 0) complete = false;
      }

      // Carded tasks: read (bounded) for their cards and their minutes' new entries. A task whose
      // work for this stamp was done in an earlier pass (the bound, a failure elsewhere) is not read
      // again, so the bound moves on to the others.
      const taskIds = [...new Set([...after.tasks.map((t) => t.id), ...removed])];
      const carded: { taskId: string; cards: PostedCard[] }[] = [];
      for (const taskId of taskIds) {
        const cards = await store.cards.list(workspaceId, 'task', taskId);
        if (cards.length > 0) carded.push({ taskId, cards });
      }
      const taskMark = (taskId: string) => `watch:task:${taskId}:${stamp}`;
      const handled =
        carded.length > 0
          ? await store.slackNotes.since(
              workspaceId,
              carded.map((t) => taskMark(t.taskId)),
              0,
            )
          : new Set<string>();
      const tasks = new Map<
        string,
        { cards: PostedCard[]; view: TaskView; entries: Entry[]; updated: boolean }
      >();
      for (const { taskId, cards } of carded) {
        if (handled.has(taskMark(taskId))) continue;
        if (reads <= 0) {
          complete = false;
          continue;
        }
        reads -= 1;
        let view: TaskView & { task: TaskExpanded };
        try {
          view = await readTaskView(deps, reader, { ...place, taskId });
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          await retire(slack, cards, place, 'task');
          continue;
        }
        const entries = await newEntries(view.task, seenAt);
        // The card shows the task's state, assignee and heading, and counts its minute's entries.
        let updated = true;
        if (changedTasks.has(taskId) || entries.length > 0) {
          const failed: PostedCard[] = [];
          await updateCards(deps, slack, taskRef(workspaceId, taskId), liveTaskCard(view), { cards, failed });
          updated = failed.length === 0;
          if (!updated) complete = false;
        }
        tasks.set(taskId, { cards, view, entries, updated });
      }

      // People named: connected ones are mentioned and DMed; the others are named as the service
      // names them (the channel's members, read once per turn and only when a line needs them).
      const named = [
        ...fresh.flatMap((c) => (c.kind === 'taskAssignee' ? [c.to] : [])),
        ...[...tasks.values()].flatMap((t) => t.entries.map((e) => e.entry.authorUserId)),
      ];
      const people = await peopleOf(deps, workspaceId, [
        after.authorUserId,
        ...named,
        ...after.tasks.map((t) => t.assigneeUserId),
      ]);
      const unconnected = named.filter((id): id is string => !!id && !people.slackUserOf(id));
      const who = whoFrom(people.slackUserOf, unconnected.length > 0 ? await memberNames() : undefined);

      // One message per card per pass in its thread.
      const featureLines = lines(fresh, who, false);
      for (const card of featureCards) {
        if (!(await post(card, featureLines, stamp))) complete = false;
      }
      for (const [taskId, task] of tasks) {
        const own = fresh.filter((c) => 'taskId' in c && c.taskId === taskId);
        const all = [...lines(own, who, true), ...task.entries.map((e) => minuteLine(e, who))];
        let posted = true;
        for (const card of task.cards) if (!(await post(card, all, stamp))) posted = false;
        if (!posted) {
          complete = false;
          continue;
        }
        // Each entry is posted once, ever: noted once every card has it; and the task is done for
        // this stamp once its cards show it too.
        await store.slackNotes.note(workspaceId, [
          ...task.entries.map((e) => minuteNote(e.id)),
          ...(task.updated ? [taskMark(taskId)] : []),
        ]);
      }

      // The people concerned, once per change.
      for (const change of fresh) {
        if (!(await dm(delta, change, people.slackUserOf, tasks, stamp))) complete = false;
      }
      return complete;
    }

    /**
     * The planning names of the linked channel's members, read once per turn; none when the read
     * fails (a line then says "someone": a name is not worth failing the feature for).
     */
    let names: Promise<(id: string) => string | undefined> | undefined;
    function memberNames() {
      names ??= (async () => {
        const byId = new Map<string, string>();
        try {
          for await (const member of planning.channels.listMembers(link.teamId, link.channelId, {
            pageSize: 100,
          })) {
            if (member.userName) byId.set(member.id, member.userName);
            if (byId.size >= MAX_NAMES_READ) break;
          }
        } catch (error) {
          log.warn({ workspaceId, err: error }, 'could not read the channel members’ names');
        }
        return (id: string) => byId.get(id);
      })();
      return names;
    }

    /** The minute's entries added since the last look and never posted nor made from Slack. */
    async function newEntries(task: TaskExpanded, seenAt: number): Promise<Entry[]> {
      const minute = task.minute;
      if (!minute || seenAt === 0) return [];
      const since = Math.floor(seenAt / 1000);
      const entries: Entry[] = [
        ...minute.discoveries.map((entry) => ({ kind: 'discovery' as const, entry, id: entry.id })),
        ...minute.feedback.map((entry) => ({ kind: 'feedback' as const, entry, id: entry.id })),
      ].filter((e) => (e.entry.iat ?? 0) >= since);
      if (entries.length === 0) return [];
      const noted = await store.slackNotes.since(
        workspaceId,
        entries.map((e) => minuteNote(e.id)),
        0,
      );
      return entries.filter((e) => !noted.has(minuteNote(e.id)));
    }

    /** Posts a card's lines in its thread, once per card and feature stamp; whether it is done. */
    async function post(card: PostedCard, lines: readonly Mrkdwn[], stamp: string): Promise<boolean> {
      if (lines.length === 0) return true;
      try {
        return await once(
          workspaceId,
          `posted:${card.slackChannelId}:${card.messageTs}:${stamp}`,
          async () => {
            await slack.chat.postMessage({
              channel: card.slackChannelId,
              thread_ts: card.messageTs,
              ...activityMessage(lines),
              unfurl_links: false,
              unfurl_media: false,
            });
          },
        );
      } catch (error) {
        log.warn({ workspaceId, kind: card.kind, err: error }, 'could not post activity in a card thread');
        return false;
      }
    }

    /** The DM a change calls for, once per (workspace, change, feature stamp); whether it is done. */
    async function dm(
      delta: FeatureDelta,
      change: FeatureChange,
      slackUserOf: (id: string | undefined) => string | undefined,
      tasks: ReadonlyMap<string, { view: TaskView }>,
      stamp: string,
    ): Promise<boolean> {
      const message = await dmFor(delta, change, slackUserOf, tasks);
      if (!message) return true;
      try {
        return await once(workspaceId, `dm:${noteOf(delta.featureId, change)}:${stamp}`, async () => {
          await notify(
            { store, now: () => turn.now.getTime() },
            slack,
            { workspaceId, slackUserId: message.to },
            message.kind,
            message.body,
          );
        });
      } catch (error) {
        log.warn({ workspaceId, kind: message.kind, err: error }, 'could not send a watch DM');
        return false;
      }
    }

    async function dmFor(
      delta: FeatureDelta,
      change: FeatureChange,
      slackUserOf: (id: string | undefined) => string | undefined,
      tasks: ReadonlyMap<string, { view: TaskView }>,
    ): Promise<{ to: string; kind: NotificationKind; body: NotifyBody } | undefined> {
      const after = delta.after!;
      if (change.kind === 'stage') {
        const advanced = FEATURE_STAGES.indexOf(change.to) > FEATURE_STAGES.indexOf(change.from);
        const author = slackUserOf(after.authorUserId);
        if (!advanced || !author) return undefined;
        const text = featureAdvancedDm({ id: after.id, heading: after.heading, stage: change.to }, undefined);
        return { to: author, kind: 'featureAdvanced', body: message(text, [section(text)]) };
      }
      if (change.kind !== 'taskAssignee' && change.kind !== 'taskState') return undefined;
      const task = after.tasks.find((t) => t.id === change.taskId);
      const heading = task?.heading ?? tasks.get(change.taskId)?.view.heading ?? 'Untitled task';
      const assigneeSlackId = slackUserOf(task?.assigneeUserId);
      const view = {
        heading,
        ...(assigneeSlackId ? { assigneeSlackId } : {}),
      };
      let dm: ReturnType<typeof taskChangeDm>;
      if (change.kind === 'taskAssignee') {
        if (!change.to) return undefined;
        dm = taskChangeDm(undefined, view, { kind: 'assigned' });
      } else {
        const origin =
          change.to === 'done' ? await store.taskOrigins.get(workspaceId, change.taskId) : undefined;
        dm = taskChangeDm(
          undefined,
          { ...view, ...(origin ? { authorSlackId: origin.authorSlackId } : {}) },
          { kind: 'moved', to: change.to },
        );
      }
      if (!dm) return undefined;
      const permalink = await cardLink(deps, slack, workspaceId, change.taskId);
      return { to: dm.to, kind: dm.kind, body: taskDm(dm.text, permalink) };
    }

    const failures: unknown[] = [];
    for (const delta of turn.deltas) {
      try {
        if (await follow(delta)) done.add(delta.featureId);
      } catch (error) {
        failures.push(error);
        log.warn(
          { workspaceId, featureId: delta.featureId, err: error },
          'could not bring a feature to Slack',
        );
      }
    }
    // Nothing at all could be done (the store or the service down): the pass hears it once.
    if (failures.length > 0 && failures.length === turn.deltas.length) throw failures[0];
    return done;
  }

  return { apply };
}

function lines(changes: readonly FeatureChange[], who: Who, onTaskCard: boolean): Mrkdwn[] {
  return changes.flatMap((c) => {
    const line = activityLine(c, who, onTaskCard);
    return line ? [line] : [];
  });
}
