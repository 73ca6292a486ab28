/**
 * Where the watch pass hands one link's changes: the Slack side (src/slack/watch/) implements it, so
 * the watch itself imports nothing from slack/ (as the digest does not).
 */
import type { PlanningClient } from '../planning/index.js';
import type { ChannelLink } from '../store/index.js';
import type { FeatureDelta } from './changes.js';

/** One link's turn: the features whose `updatedAt` moved, appeared or went since the last look. */
export interface WatchTurn {
  link: ChannelLink;
  /** Reads with the digest's access rule: the workspace's admin token, else the linking admin's. */
  planning: PlanningClient;
  /** Every feature that may have changed (its `changes` may be empty: a discovery moves `updatedAt` only). */
  deltas: FeatureDelta[];
  now: Date;
}

export interface WatchSink {
  /**
   * Brings Slack up to date with one link's changes: its cards, activity in their threads, DMs, new
   * minutes. Resolves with the ids of the features whose changes are done (or needed nothing); the
   * others are not recorded as seen, so the next pass finds them again — every Slack effect being
   * once-keyed, what was done is not repeated. Throws only when nothing at all could be done.
   */
  apply(turn: WatchTurn): Promise<ReadonlySet<string>>;
}
