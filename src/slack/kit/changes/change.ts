/**
 * What the change funnel is told: one change of planning objects in one feature — made from Slack,
 * or seen by the watch after it was made elsewhere — and what it answers. The vocabulary of what
 * changed is the watch's (src/watch/changes.ts `FeatureChange`): a note, a DM, a thread line and a
 * card refresh are all read off the same list.
 */
import type { WebClient } from '@slack/web-api';
import type { FeatureStage, TaskState } from '../../../planning/index.js';
import type { PostedCard } from '../../../store/index.js';
import type { FeatureChange, FeatureSeen } from '../../../watch/changes.js';
import type { NotificationKind, NotifyBody, NotifyOutcome } from '../dm-kinds.js';
import type { CardReader } from '../identity.js';
import type { CardBody } from '../live-cards.js';
import type { minuteLine, Who } from './activity.js';

/** Where a planning object lives: its feature's team, channel and id (a feature's own id for itself). */
export interface FeaturePlace {
  teamId: string;
  channelId: string;
  featureId: string;
}

/** What the DM rules need of a task: as its card shows it. */
export interface TaskFacts {
  heading: string;
  state: TaskState;
  assigneeUserId?: string;
  assigneeSlackId?: string;
  /** Who created it from Slack (the service does not record it: store/task-origins). */
  authorSlackId?: string;
}

/** What the DM rules need of a feature. */
export interface FeatureFacts {
  id: string;
  heading?: string;
  stage: FeatureStage;
  /** The planning user who wrote it. */
  authorUserId?: string;
}

/** An object as its cards show it: the card's message, and its facts. */
export interface OnCard<F> {
  body: CardBody;
  facts: F;
}

/** How the funnel reads an object as its card shows it: the topics give these at composition. */
export interface CardSources {
  /** Rejects with the planning client's NotFoundError when the task is gone from `place`. */
  task(reader: CardReader, place: FeaturePlace & { taskId: string }): Promise<OnCard<TaskFacts>>;
  /** Rejects with the planning client's NotFoundError when the feature is gone from `place`. */
  feature(reader: CardReader, place: FeaturePlace): Promise<OnCard<FeatureFacts>>;
}

/** A minute entry (a discovery, a feedback) added to a task: made from Slack, or seen elsewhere with what its line tells. */
export interface MinuteEntry {
  taskId: string;
  id: string;
  /** Made elsewhere: the entry as a thread line tells it. */
  said?: Parameters<typeof minuteLine>[0];
}

/**
 * Who made the change:
 * - `slack`: this person, from Slack (a press, a form, a workflow step, a thread reply). Slack shows
 *   it now: the watch is told so (a note), and the people concerned are DMed now.
 * - `elsewhere`: someone in the service's web app or another tool, seen by the watch at `stamp`
 *   (the feature's `updatedAt`). Cards follow, each card's thread gets one message, and the people
 *   concerned are DMed — each once per stamp, however many replicas or passes.
 * - `catch-up`: nobody knows (a press found its card out of date): the cards catch up, nothing is
 *   told — the watch tells the change itself.
 */
export type ChangeOrigin =
  | { from: 'slack'; slackUserId: string }
  | { from: 'elsewhere'; stamp: string; who: Who; now: Date }
  | { from: 'catch-up' };

/** A DM a change calls for beyond the rules (feedback to a task's assignee, a reply to its author). */
export interface ChangeDm {
  to: string;
  kind: NotificationKind;
  body: NotifyBody;
}

export interface PlanningChange {
  workspaceId: string;
  /** The feature the change is in. */
  place: FeaturePlace;
  origin: ChangeOrigin;
  /** What changed. Each task it names is brought up to date on its cards; the feature's cards too when it shows. */
  changes?: readonly FeatureChange[];
  /** More tasks whose cards must show them as they are now (a detail, a minute's count). */
  tasks?: readonly string[];
  /** The feature's cards must show it as it is now, whatever `changes` say (evidence in an experiment). */
  feature?: boolean;
  /** Deleted by this change: every card of them becomes one line. */
  deleted?: { feature?: boolean; tasks?: readonly string[] };
  /** Found gone from `place` (a 404 there): their cards recorded there become one line. */
  gone?: { feature?: boolean; tasks?: readonly string[] };
  /** Entries added to tasks' minutes. */
  minutes?: readonly MinuteEntry[];
  /** DMs beyond the rules, given the tasks as they are now (unread ones absent). */
  dms?: (tasks: ReadonlyMap<string, TaskFacts>) => readonly ChangeDm[];
  /**
   * Tasks whose cards the caller has just posted showing them as `known` does (a task created with
   * its assignee): their cards are not updated again, while DMs and notes read them as known.
   */
  posted?: readonly string[];
  /** Objects as the caller has them already (a press's answer, the watch's reads): not read again. */
  known?: {
    tasks?: ReadonlyMap<string, OnCard<TaskFacts>>;
    feature?: OnCard<FeatureFacts>;
    /** Their cards as the caller just listed them (a press, under its lock): not listed again. */
    cards?: KnownCards;
  };
  /** The feature as the watch saw it: the DM rules' facts for what was not read. */
  seen?: FeatureSeen;
  /** Elsewhere: tasks whose work for this stamp is done once every reflection is (not read again next pass). */
  handled?: readonly string[];
  /** Reads the objects: the acting person's own account, or the watch's reader. */
  reader: CardReader;
  /** The Slack client cards, notes and DMs go through. */
  slack: WebClient;
}

/** Cards of a change's objects, listed by the caller. */
export interface KnownCards {
  tasks?: ReadonlyMap<string, readonly PostedCard[]>;
  feature?: readonly PostedCard[];
}

/** What a change came to in Slack. */
export interface Reflected {
  /** Every reflection of it done; false when something is left for a later pass (a card Slack refused). */
  complete: boolean;
  /** The tasks brought up to date, as they are now; gone ones absent. */
  tasks: ReadonlyMap<string, TaskFacts>;
  /** The feature, when it was read or known. */
  feature?: FeatureFacts;
  /** Cards turned into "deleted" lines because their object was found gone. */
  retired: boolean;
  /** What became of each DM sent now (from Slack). */
  dms: readonly { to: string; kind: NotificationKind; outcome: NotifyOutcome | 'failed' }[];
}

/** What every change made from Slack by `acting`'s person starts with: where, who, read with whom, posted with what. */
export function madeFromSlack(
  acting: CardReader & { slackUserId: string },
  slack: WebClient,
  place: FeaturePlace,
): Pick<PlanningChange, 'workspaceId' | 'place' | 'origin' | 'reader' | 'slack'> {
  return {
    workspaceId: acting.workspaceId,
    place: { teamId: place.teamId, channelId: place.channelId, featureId: place.featureId },
    origin: { from: 'slack', slackUserId: acting.slackUserId },
    reader: acting,
    slack,
  };
}

/** A reflection given at composition from a topic the funnel cannot import: the channel canvases. */
export interface CanvasReflection {
  /** The canvases showing the change's planning channel follow it. Rejects only on a store failure. */
  changed(change: PlanningChange): Promise<void>;
}
