/** What every handler receives: the process's dependencies and what is built on them once. */

import type { WebClient } from '@slack/web-api';
import type { Mrkdwn } from '../../blockkit/index.js';
import type { PlanningAccess } from '../../digest/index.js';
import type { ChannelLink } from '../../store/index.js';
import type { PlanningContext } from './acting.js';
import type { ChangeFunnel } from './changes/index.js';
import type { SlackDeps } from './deps.js';
import type { Identities } from './identity.js';

export interface Services {
  deps: SlackDeps;
  identities: Identities;
  /** Which planning account reads a channel's digest (`/plan digest now`), as the scheduler's. */
  digestAccess(link: ChannelLink): Promise<PlanningAccess | undefined>;
  /** The Home tab, for topics whose buttons it shows (given by the home topic at composition). */
  home: HomeTab;
  /**
   * What follows a change of a task or a feature — its cards, the watch's notes, the DMs — in one
   * place (kit/changes/): every flow that changes one calls it (composed with the topics' cards).
   */
  changes: ChangeFunnel;
  /** The channel canvases of the plan (src/slack/canvas/, given at composition); none in some tests. */
  canvas?: CanvasSettings;
}

/** What the link settings do to a channel's canvas of the plan (src/slack/canvas/ keeper.ts). */
export interface CanvasSettings {
  /** Turns it on and makes it; what happened, in one sentence. */
  turnOn(
    workspaceId: string,
    slackChannelId: string,
    slackUserId: string,
    slack?: WebClient,
  ): Promise<string>;
  /** Turns it off: left with a last line, or deleted; a sentence when it was on. */
  turnOff(
    workspaceId: string,
    slackChannelId: string,
    slack: WebClient | undefined,
    how: 'leave' | 'delete',
  ): Promise<string | undefined>;
  /** The channel unlinked: its canvas says it is no longer kept current, and is forgotten. */
  unlinked(workspaceId: string, slackChannelId: string, slack?: WebClient): Promise<void>;
}

/** What other topics may do to a person's Home tab. */
export interface HomeTab {
  /** Publishes the person's tab again, fresh, with `banner` on top. */
  refresh(client: WebClient, planning: PlanningContext, banner?: Mrkdwn): Promise<void>;
  /** Forgets what the tab cached for the person (their connection changed). */
  forget(workspaceId: string, slackUserId: string): void;
}
