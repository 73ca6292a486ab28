/**
 * The process's minute tick, in one place. Each pass runs the app's jobs one after another, in
 * order: the rotating Slack tokens due refreshed ahead of expiry (OAuth), the digest pass, the peer-grade notices (after it: the digest pass tells which workspaces'
 * day has begun), the watch of linked channels (src/watch/: when the app has its Slack side and
 * WATCH_INTERVAL_MS is not 0), the DMs held back by quiet hours, the provisioned accounts of
 * forgotten people still to close.
 *
 * A wake-up while a pass is still running is skipped, so a slow pass is never doubled; a job that
 * fails is logged and the next one still runs; `stop()` stops waking up and waits for the pass in
 * progress, so a shutdown never cuts a digest between its post and its record.
 */
import type { Clients } from '../clients.js';
import { type Config, DEFAULT_WATCH_INTERVAL_MS } from '../config.js';
import {
  createDigestScheduler,
  createPeerGradeNotices,
  type DigestSchedulerDeps,
  type PlanningAccess,
} from '../digest/index.js';
import type { Logger } from '../logger.js';
import { closeForgottenAccounts } from '../slack/account/index.js';
import { type CanvasKeeperDeps, createCanvasKeeper } from '../slack/canvas/index.js';
import { deliverHeld, notify } from '../slack/kit/notify.js';
import { createWatchSlackSide } from '../slack/watch/index.js';
import type { ChannelLink, Store } from '../store/index.js';
import { createWatch, type WatchDeps, type WatchSink } from '../watch/index.js';

/** One piece of minute-grained work. */
export interface Job {
  /** For logs. */
  name: string;
  /** One run as of `now`; resolves when its work is done or recorded. */
  run(now: Date): Promise<unknown>;
}

export interface JobsOptions {
  jobs: readonly Job[];
  logger: Logger;
  /** Current time, given to every job of a pass. Default `() => new Date()`. */
  clock?: () => Date;
  /** Between wake-ups, ms. Default 60 000. */
  intervalMs?: number;
  /** Replaces setInterval (tests); returns a function that cancels it. */
  setTimer?: (wake: () => void, intervalMs: number) => () => void;
}

export interface Jobs {
  /** Runs one pass now (or as of `now`); a call while a pass runs gets that pass. */
  pass(now?: Date): Promise<void>;
  /** Stops waking up and waits for the pass in progress. Safe to call twice. */
  stop(): Promise<void>;
}

/** How often the jobs run: the watch places each link's next look from it. */
export const TICK_MS = 60_000;

/** Starts the tick: the first pass runs one interval after the start. */
export function startJobs(options: JobsOptions): Jobs {
  const clock = options.clock ?? (() => new Date());
  const log = options.logger.child({ component: 'jobs' });
  let current: Promise<void> | undefined;

  async function runPass(now: Date) {
    for (const job of options.jobs) {
      try {
        await job.run(now);
      } catch (error) {
        log.error({ err: error, job: job.name }, 'job failed');
      }
    }
  }

  const pass = (now = clock()) => {
    current ??= runPass(now).finally(() => {
      current = undefined;
    });
    return current;
  };
  const wake = () => {
    if (current) {
      log.debug('previous pass still running; skipping this wake-up');
      return;
    }
    void pass();
  };
  const interval = options.intervalMs ?? TICK_MS;
  const cancel = options.setTimer
    ? options.setTimer(wake, interval)
    : (() => {
        const handle = setInterval(wake, interval);
        handle.unref();
        return () => clearInterval(handle);
      })();

  return {
    pass,
    async stop() {
      cancel();
      await current;
    },
  };
}

export interface AppJobsDeps {
  store: Store;
  clients: Clients;
  logger: Logger;
  /** A workspace's bot token: the configured one, or its installation's (OAuth). */
  botTokenFor(workspaceId: string): Promise<string | undefined>;
  /** Refreshes the rotating Slack tokens due, ahead of expiry (the Slack app's `refreshTokens`). */
  refreshTokens?: () => Promise<unknown>;
  /** The planning client that reads a channel's digest data (`planningAccessFor`). */
  planningAccessFor(link: ChannelLink): Promise<PlanningAccess | undefined>;
  /** Scheduler settings tests and benchmarks change (limits, clock). */
  digest?: Partial<DigestSchedulerDeps>;
  /**
   * The app's configuration: with it, the watch hands each link's changes to the app's Slack side
   * (src/slack/watch/, its cards rendered as the flows render them).
   */
  config?: Config;
  /** Where the watch hands each link's changes instead (tests); with neither, the watch does not run. */
  watchSink?: WatchSink;
  /**
   * The watch's settings: `intervalMs` (WATCH_INTERVAL_MS, default 5 minutes; 0: no watch), and
   * what tests and benchmarks change (limits, clock, owner).
   */
  watch?: Partial<Omit<WatchDeps, 'store' | 'sink' | 'logger'>>;
  /** The canvas keeper's settings tests and benchmarks change (clock, debounce). */
  canvas?: Partial<Pick<CanvasKeeperDeps, 'now' | 'debounceMs'>>;
}

/** The app's jobs, in the order each pass runs them. */
export function appJobs(deps: AppJobsDeps): Job[] {
  const { store, clients, logger } = deps;
  const slackFor = async (workspaceId: string) => {
    const token = await deps.botTokenFor(workspaceId);
    return token ? clients.slack(token) : undefined;
  };
  const peerGrades = createPeerGradeNotices({
    store,
    logger,
    planningClientFor: clients.planning,
    // A DM like any other: the person's choices and quiet hours decide (src/slack/kit/notify.ts).
    notifierFor: async (workspaceId, now) => {
      const slack = await slackFor(workspaceId);
      if (!slack) return undefined;
      return (slackUserId, body) =>
        notify({ store, now: () => now.getTime() }, slack, { workspaceId, slackUserId }, 'peerGrades', body);
    },
  });
  const digest = createDigestScheduler({
    store,
    logger,
    botTokenFor: deps.botTokenFor,
    planningClientFor: deps.planningAccessFor,
    slack: clients.slackBots,
    onDue: peerGrades.linkDue,
    ...deps.digest,
  });
  // The channel canvases of the plan: brought up to date by the watch's turns and, for what waited
  // out its minute, by the tick.
  const canvas = deps.config
    ? createCanvasKeeper({
        store,
        logger,
        config: deps.config,
        planningAccessFor: deps.planningAccessFor,
        slackFor,
        ...deps.canvas,
      })
    : undefined;
  const watchSink =
    deps.watchSink ??
    (deps.config
      ? createWatchSlackSide({ store, logger, config: deps.config, slackFor, ...(canvas ? { canvas } : {}) })
      : undefined);
  const watchIntervalMs = deps.watch?.intervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  const watch =
    watchSink && watchIntervalMs > 0
      ? createWatch({
          store,
          logger,
          planningAccessFor: deps.planningAccessFor,
          sink: watchSink,
          tickMs: TICK_MS,
          ...deps.watch,
          intervalMs: watchIntervalMs,
        })
      : undefined;
  const refreshTokens = deps.refreshTokens;
  return [
    // First, so the digest and the rest post with fresh tokens; no request waits for Slack's OAuth.
    ...(refreshTokens ? [{ name: 'token refresh', run: () => refreshTokens() }] : []),
    { name: 'digest', run: (now) => digest.tick(now) },
    { name: 'peer grades', run: (now) => peerGrades.run(now) },
    // Each link is read once per interval (its own due time, claimed across replicas), not per tick.
    ...(watch ? [{ name: 'watch', run: (now: Date) => watch.tick(now) }] : []),
    // After the watch: what its turns left waiting (a change within a minute of the last edit).
    ...(canvas ? [{ name: 'canvases', run: () => canvas.tick() }] : []),
    { name: 'held DMs', run: () => deliverHeld({ store, logger, slackFor }) },
    // After an uninstall or a deactivation whose closing failed, or a replica that stopped mid-way.
    {
      name: 'account closures',
      run: (now) => closeForgottenAccounts({ store, clients, logger }, { now: now.getTime() }),
    },
  ];
}
