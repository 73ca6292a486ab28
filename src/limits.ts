/**
 * The process's limits on work per key. `keyedLimit` bounds how much runs at once per key (the
 * digest's workspaces and planning organizations); `createPostLimiter` spaces the messages posted
 * per Slack workspace and per channel in time, within Slack's posting limits. State is made on
 * first use and dropped once idle, so the maps never outgrow the work in flight.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pLimit, { type LimitFunction } from 'p-limit';

export type KeyedLimit = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function keyedLimit(concurrency: number): KeyedLimit {
  const limits = new Map<string, LimitFunction>();
  return async (key, task) => {
    let limit = limits.get(key);
    if (!limit) {
      limit = pLimit(concurrency);
      limits.set(key, limit);
    }
    try {
      return await limit(task);
    } finally {
      if (limit.activeCount === 0 && limit.pendingCount === 0) limits.delete(key);
    }
  };
}

/**
 * The runs of one pass over many keys (the digest's and the watch's passes, keyed by workspace):
 * items wait per key and start while their key has fewer than `perKey` running and the pass fewer
 * than `maxInFlight`, at most `batch` at once (one claim batch); keys take their turns in the order
 * they became ready, so one busy key never holds up the others.
 */
export interface PassQueue<T> {
  /** Items added and not yet started. */
  waiting(): number;
  /** Items started and not yet done. */
  running(): number;
  add(item: T): void;
  /** Takes what may start now (at most one batch) and counts it as running. */
  startable(): T[];
  /** A run is over (or never started: a refused claim): its slots are free. */
  done(item: T): void;
  /** Resolves when the next run is done. */
  finished(): Promise<void>;
}

export function createPassQueue<T>(options: {
  keyOf: (item: T) => string;
  perKey: number;
  maxInFlight: number;
  batch: number;
}): PassQueue<T> {
  const { keyOf, perKey, maxInFlight, batch: batchSize } = options;
  const queues = new Map<string, T[]>();
  const runningIn = new Map<string, number>();
  /** Keys with an item waiting and a free slot, in the order they became so. */
  const ready = new Set<string>();
  let waiting = 0;
  let running = 0;
  let wake: (() => void) | undefined;
  const refresh = (key: string) => {
    const free = (runningIn.get(key) ?? 0) < perKey;
    if (free && (queues.get(key)?.length ?? 0) > 0) ready.add(key);
    else ready.delete(key);
  };
  return {
    waiting: () => waiting,
    running: () => running,
    add(item) {
      const key = keyOf(item);
      const queue = queues.get(key);
      if (queue) queue.push(item);
      else queues.set(key, [item]);
      waiting += 1;
      refresh(key);
    },
    startable() {
      const batch: T[] = [];
      const room = Math.min(maxInFlight - running, batchSize);
      for (const key of ready) {
        if (batch.length >= room) break;
        const queue = queues.get(key) ?? [];
        while (batch.length < room && queue.length > 0 && (runningIn.get(key) ?? 0) < perKey) {
          batch.push(queue.shift() as T);
          runningIn.set(key, (runningIn.get(key) ?? 0) + 1);
        }
        if (queue.length === 0) queues.delete(key);
        refresh(key);
      }
      waiting -= batch.length;
      running += batch.length;
      return batch;
    },
    done(item) {
      const key = keyOf(item);
      const left = (runningIn.get(key) ?? 1) - 1;
      if (left > 0) runningIn.set(key, left);
      else runningIn.delete(key);
      running -= 1;
      refresh(key);
      wake?.();
    },
    finished: () =>
      new Promise<void>((resolve) => {
        wake = () => {
          wake = undefined;
          resolve();
        };
      }),
  };
}

/** How a pass's reading of its source ended: to the end, or cut short by the source failing. */
export type PassReading = { unread: false } | { unread: true; error: unknown };

/**
 * Drives one pass over `queue`: reads `source` only as far ahead as `readAhead` allows (a pass over
 * 100,000 links holds a few thousand), hands each item to `consider` (which adds to the queue what
 * is due), and starts what may start, a batch at a time, with `start`, until nothing waits, runs or
 * is left to read. The source failing (the store unreachable, restarting) stops the reading but not
 * the runs already started — rejecting would leave them running outside the pass, unbounded and
 * unwaited by a stop; what was not read is the next pass's.
 */
export async function drivePass<T, I>(
  queue: PassQueue<I>,
  source: AsyncIterator<T>,
  options: { readAhead: number; consider: (item: T) => void; start: (batch: I[]) => Promise<void> },
): Promise<PassReading> {
  let more = true;
  let reading: PassReading = { unread: false };
  for (;;) {
    while (more && queue.waiting() < options.readAhead) {
      try {
        const next = await source.next();
        if (next.done) more = false;
        else options.consider(next.value);
      } catch (error) {
        more = false;
        reading = { unread: true, error };
      }
    }
    const batch = queue.startable();
    if (batch.length > 0) {
      await options.start(batch);
      continue;
    }
    if (queue.running() === 0) return reading; // nothing waits (startable() took all) nor is left to read
    await queue.finished();
  }
}

/**
 * How fast messages may be posted (`chat.postMessage`, `chat.update`). Slack allows about one
 * message per second per channel and an unpublished cap per workspace ("several hundred per
 * minute"), and answers 429 with Retry-After past either.
 */
export interface PostLimits {
  /** Messages per minute per workspace (per bot token), spaced evenly. */
  perWorkspacePerMinute: number;
  /** Least time between two messages in one channel, ms; 0 spaces nothing per channel. */
  channelIntervalMs: number;
}

/** What the app uses unless told otherwise (SLACK_POSTS_PER_MINUTE, SLACK_CHANNEL_POST_INTERVAL_MS). */
export const DEFAULT_POST_LIMITS: PostLimits = { perWorkspacePerMinute: 300, channelIntervalMs: 1_000 };

/** The turn of a post would come after the deadline its caller set (`withPostDeadline`): nothing was sent. */
export class PostDeadlineError extends Error {
  override name = 'PostDeadlineError';
  constructor(
    /** When the post could have been sent (epoch ms). */
    readonly turnAt: number,
  ) {
    super(
      `the posting limit's turn comes ${Math.round(turnAt - Date.now())} ms from now, after the deadline`,
    );
  }
}

const deadlines = new AsyncLocalStorage<number>();

/**
 * Runs `work` so that a post it makes refuses (`PostDeadlineError`, before sending) to wait for its
 * turn past `deadline` (epoch ms). The digest posts this way: past its claim's lease another
 * replica may post the same digest, so it gives the claim back rather than post late.
 */
export function withPostDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  return deadlines.run(deadline, work);
}

/** The deadline of the `withPostDeadline` the caller runs in, if any (epoch ms). */
export function postDeadline(): number | undefined {
  return deadlines.getStore();
}

/** Says that the message a turn was taken for has gone: its call is over (answered, or failed). */
export type PostWent = () => void;

export interface PostLimiter {
  /**
   * Resolves when a message to `channel` of the workspace `key` may be sent; the turn is taken in
   * order of asking. The caller calls the function it resolves with once the message's call is over
   * (answered or failed): the channel's next message waits for that, then for the interval. Rejects
   * when `signal` aborts, or with `PostDeadlineError` (taking nothing) when the turn is past the
   * deadline of `withPostDeadline`.
   */
  turn(key: string, channel: string, signal?: AbortSignal): Promise<PostWent>;
  /** Slack answered 429: nothing more is sent for the workspace `key` for `ms`. */
  pause(key: string, ms: number): void;
}

/** One channel's messages, one after another. */
interface ChannelTurns {
  /** When its last message went (its call was over). */
  wentAt: number;
  /** When its next message is expected to go, as far as the turns handed out say (deadlines). */
  nextAt: number;
  /** The channel's queue: each message waits for the one before it to have gone. */
  tail: Promise<void>;
  /** Turns taken whose message has not gone yet. */
  queued: number;
}

interface WorkspaceTurns {
  /** When the next message of the workspace is expected to go, as far as the turns handed out say. */
  nextAt: number;
  /** When its last message actually went. */
  sentAt: number;
  /** Until when Slack asked us to wait (Retry-After). */
  pausedUntil: number;
  /** The workspace's queue: each message waits for the one before it, then for the spacing. */
  tail: Promise<void>;
  /** Messages waiting in the queue. */
  queued: number;
  /** Each channel's turns. */
  channels: Map<string, ChannelTurns>;
}

const SWEEP_EVERY_MS = 10_000;

export function createPostLimiter(
  limits: PostLimits,
  { now = Date.now }: { now?: () => number } = {},
): PostLimiter {
  if (!(limits.perWorkspacePerMinute > 0)) throw new RangeError('perWorkspacePerMinute must be > 0');
  const spacingMs = 60_000 / limits.perWorkspacePerMinute;
  const intervalMs = limits.channelIntervalMs;
  const workspaces = new Map<string, WorkspaceTurns>();
  let sweptAt = now();

  const stateOf = (key: string) => {
    let state = workspaces.get(key);
    if (!state) {
      state = {
        nextAt: 0,
        sentAt: 0,
        pausedUntil: 0,
        tail: Promise.resolve(),
        queued: 0,
        channels: new Map(),
      };
      workspaces.set(key, state);
    }
    return state;
  };
  const channelOf = (state: WorkspaceTurns, channel: string) => {
    let turns = state.channels.get(channel);
    if (!turns) {
      turns = { wentAt: 0, nextAt: 0, tail: Promise.resolve(), queued: 0 };
      state.channels.set(channel, turns);
    }
    return turns;
  };
  /** Forgets turns already past: a workspace or channel that posts no more costs nothing. */
  const sweep = (at: number) => {
    if (at - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = at;
    for (const [key, state] of workspaces) {
      for (const [channel, turns] of state.channels)
        if (turns.queued === 0 && turns.nextAt <= at && turns.wentAt + intervalMs <= at)
          state.channels.delete(channel);
      const idle = state.queued === 0 && state.channels.size === 0;
      if (idle && state.nextAt <= at && state.pausedUntil <= at && state.sentAt + spacingMs <= at)
        workspaces.delete(key);
    }
  };
  /** Throws past the deadline of `withPostDeadline` (nothing sent). */
  const inTime = (at: number) => {
    const deadline = postDeadline();
    if (deadline !== undefined && at > deadline) throw new PostDeadlineError(at);
  };

  return {
    async turn(key, channel, signal) {
      signal?.throwIfAborted();
      const at = now();
      sweep(at);
      const state = stateOf(key);
      const turns = intervalMs > 0 ? channelOf(state, channel) : undefined;
      const channelAt = turns ? Math.max(at, turns.nextAt, turns.wentAt + intervalMs) : at;
      const expectedAt = Math.max(channelAt, state.nextAt, state.pausedUntil, state.sentAt + spacingMs);
      inTime(expectedAt);
      state.nextAt = expectedAt + spacingMs;

      // The channel's queue: this message goes once the one before it has gone (its call is over)
      // and the interval has passed since — whatever posted either, however long each took.
      let gone: () => void = () => {};
      const goneP = new Promise<void>((resolve) => {
        gone = resolve;
      });
      let before: Promise<void> = Promise.resolve();
      if (turns) {
        turns.nextAt = channelAt + intervalMs;
        turns.queued += 1;
        before = turns.tail;
        turns.tail = Promise.all([before, goneP]).then(() => undefined);
      }
      let over = false;
      /** The message went (`sent`), or nothing was sent: the channel's next one waits for nothing of it. */
      const end = (sent: boolean) => {
        if (over) return;
        over = true;
        if (turns) {
          if (sent) turns.wentAt = Math.max(turns.wentAt, now());
          turns.queued -= 1;
        }
        gone();
      };
      try {
        if (turns) {
          await (signal ? Promise.race([before, aborted(signal)]) : before);
          // The channel's turn first, outside the workspace's queue: a busy channel holds up no other.
          for (;;) {
            const gap = turns.wentAt + intervalMs - now();
            if (gap <= 0) break;
            await wait(gap, signal);
          }
        }
        // Then the workspace's queue, in order: spacing measured from when the previous message
        // actually went (a late timer never bunches two up), and a 429 holding up every one after it.
        state.queued += 1;
        const mine = state.tail.then(async () => {
          for (;;) {
            if (signal?.aborted) return;
            const gap = Math.max(state.sentAt + spacingMs, state.pausedUntil) - now();
            if (gap <= 0) break;
            await wait(gap).catch(() => undefined);
          }
          state.sentAt = now();
        });
        state.tail = mine.finally(() => {
          state.queued -= 1;
        });
        await (signal ? Promise.race([mine, aborted(signal)]) : mine);
        // Waiting for the message before it in the channel may have taken it past its deadline.
        inTime(now());
      } catch (error) {
        end(false);
        throw error;
      }
      return () => end(true);
    },
    pause(key, ms) {
      const state = stateOf(key);
      state.pausedUntil = Math.max(state.pausedUntil, now() + ms);
    },
  };
}

/** Rejects with the signal's reason once it aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
