/**
 * The watch's Slack side (issue 24): given one linked channel's changed features (a `WatchTurn`
 * from the watch pass, src/watch/), it works out what is new — the changes Slack did not make itself
 * (a note in `store.slackNotes` since the last look), the carded tasks to read (bounded per turn),
 * the minute entries added since — and hands each feature to the change funnel (kit/changes/),
 * which updates the cards, posts one message per card in its thread and DMs the people concerned,
 * each once per feature stamp. A feature or task gone from the listing is read first: only a 404
 * where its cards were recorded turns them into one line.
 * A feature is returned as done only when all of that was done; otherwise the watch finds it again
 * next pass and every effect already made is skipped by its once key.
 */
import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { NotFoundError, type TaskExpanded } from '../../planning/index.js';
import type { Store } from '../../store/index.js';
import { type FeatureDelta, minuteNote, noteOf } from '../../watch/changes.js';
import type { WatchSink, WatchTurn } from '../../watch/sink.js';
import type { CanvasKeeper } from '../canvas/index.js';
import { appChangeFunnel } from '../changes.js';
import {
  type ChangeFunnel,
  type MinuteEntry,
  type OnCard,
  type TaskFacts,
  whoFrom,
} from '../kit/changes/index.js';
import type { CardReader } from '../kit/identity.js';
import { peopleOf } from '../kit/people.js';
import { readTaskView, taskOnCard } from '../tasks/index.js';

export interface WatchSlackDeps {
  store: Store;
  logger: Logger;
  config: Config;
  /** What follows a change, as every Slack flow reflects one. Default: the app's (src/slack/changes.ts). */
  changes?: ChangeFunnel;
  /** The bot's client in a workspace (its token through `clients.slack`); undefined without a bot token. */
  slackFor(workspaceId: string): Promise<WebClient | undefined>;
  /**
   * The channel canvases of the plan: each change marks the link's canvas as waiting, and the end of
   * the link's turn brings it up to date — one edit per channel per pass, under the watch's claim.
   */
  canvas?: Pick<CanvasKeeper, 'changed' | 'bringUpToDate'>;
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

export function createWatchSlackSide(deps: WatchSlackDeps): WatchSink {
  const { store, logger } = deps;
  const log = logger.child({ component: 'watch-slack' });
  const changes = deps.changes ?? appChangeFunnel(deps, deps.canvas);

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
      const { complete } = await changes.changed({
        workspaceId,
        place,
        origin: { from: 'catch-up' },
        gone: { feature: true },
        ...(delta.before ? { seen: delta.before } : {}),
        reader,
        slack,
      });
      return complete;
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

      // Carded tasks: read (bounded) for their cards and their minutes' new entries. A task whose
      // work for this stamp was done in an earlier pass (the bound, a failure elsewhere) is not read
      // again, so the bound moves on to the others.
      const taskIds = [...new Set([...after.tasks.map((t) => t.id), ...removed])];
      const carded: string[] = [];
      for (const taskId of taskIds) {
        if ((await store.cards.list(workspaceId, 'task', taskId)).length > 0) carded.push(taskId);
      }
      const taskMark = (taskId: string) => `watch:task:${taskId}:${stamp}`;
      const handled =
        carded.length > 0
          ? await store.slackNotes.since(workspaceId, carded.map(taskMark), 0)
          : new Set<string>();
      const read = new Map<string, OnCard<TaskFacts>>();
      const vanished: string[] = [];
      const entries: MinuteEntry[] = [];
      for (const taskId of carded) {
        if (handled.has(taskMark(taskId))) continue;
        if (reads <= 0) {
          complete = false;
          continue;
        }
        reads -= 1;
        try {
          const view = await readTaskView(deps, reader, { ...place, taskId });
          read.set(taskId, taskOnCard(view));
          entries.push(...(await newEntries(taskId, view.task, seenAt)));
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          vanished.push(taskId);
        }
      }
      // The cards show a task's state, assignee and heading, and count its minute's entries.
      const showing = [...read.keys()].filter(
        (id) => changedTasks.has(id) || entries.some((e) => e.taskId === id),
      );

      // People named: connected ones are mentioned and DMed; the others are named as the service
      // names them (the channel's members, read once per turn and only when a line needs them).
      const named = [
        ...fresh.flatMap((c) => (c.kind === 'taskAssignee' ? [c.to] : [])),
        ...entries.map((e) => e.said?.entry.authorUserId),
      ];
      const people = await peopleOf(deps, workspaceId, [
        after.authorUserId,
        ...named,
        ...after.tasks.map((t) => t.assigneeUserId),
      ]);
      const unconnected = named.filter((id): id is string => !!id && !people.slackUserOf(id));
      const who = whoFrom(people.slackUserOf, unconnected.length > 0 ? await memberNames() : undefined);

      const reflected = await changes.changed({
        workspaceId,
        place,
        origin: { from: 'elsewhere', stamp, who, now: turn.now },
        changes: fresh,
        // Its cards show every change, Slack's own included (they may not have been shown yet).
        feature: delta.changes.length > 0,
        tasks: showing,
        known: { tasks: new Map(showing.map((id) => [id, read.get(id)!])) },
        gone: { tasks: vanished },
        minutes: entries,
        seen: after,
        handled: [...read.keys()],
        reader,
        slack,
      });
      return complete && reflected.complete;
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
    async function newEntries(taskId: string, task: TaskExpanded, seenAt: number): Promise<MinuteEntry[]> {
      const minute = task.minute;
      if (!minute || seenAt === 0) return [];
      const since = Math.floor(seenAt / 1000);
      const entries: MinuteEntry[] = [
        ...minute.discoveries.map((entry) => ({
          taskId,
          id: entry.id,
          said: { kind: 'discovery' as const, entry },
        })),
        ...minute.feedback.map((entry) => ({
          taskId,
          id: entry.id,
          said: { kind: 'feedback' as const, entry },
        })),
      ].filter((e) => (e.said.entry.iat ?? 0) >= since);
      if (entries.length === 0) return [];
      const noted = await store.slackNotes.since(
        workspaceId,
        entries.map((e) => minuteNote(e.id)),
        0,
      );
      return entries.filter((e) => !noted.has(minuteNote(e.id)));
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
    // The link's canvas shows the turn's changes — features new and gone included, which no change of
    // a card tells — in one edit for all of them, none when what it shows did not change (a failure is
    // the keeper's to log).
    if (deps.canvas && turn.deltas.length > 0) {
      await store.canvases.markChannelDirty(workspaceId, link.slackChannelId);
      await deps.canvas.bringUpToDate(workspaceId, link.slackChannelId, slack);
    }
    // Nothing at all could be done (the store or the service down): the pass hears it once.
    if (failures.length > 0 && failures.length === turn.deltas.length) throw failures[0];
    return done;
  }

  return { apply };
}
