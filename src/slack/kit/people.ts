/**
 * Planning users as Slack users: who in this workspace acts as each planning user (or service
 * account) the service names — an assignee, an author, a participant, an account in the admin
 * lists. Every surface asks here, with the ids it is about to show, and the store answers them all
 * with one query; the service's ids that nobody here acts as stay without a Slack user.
 */
import type { ActionsBlock, Button } from '@slack/types';
import { actions, button, SLACK_USER_ID } from '../../blockkit/index.js';
import type { PlanningUserLink } from '../../store/index.js';
import type { SlackDeps } from './deps.js';
import { ACTION } from './ids.js';

/**
 * *Planning profile* for the Slack user `slackUserId` (the people topic shows it privately to
 * whoever presses); none for a value that is not a Slack user id.
 */
export function profileButton(slackUserId: string | undefined, label = 'Planning profile'): Button[] {
  if (!slackUserId || !SLACK_USER_ID.test(slackUserId)) return [];
  return [button(label, ACTION.profileOpen, { value: slackUserId })];
}

/** The {@link profileButton} as a row of its own (a DM naming one person), or no block. */
export function profileActions(slackUserId: string | undefined): ActionsBlock[] {
  const buttons = profileButton(slackUserId);
  return buttons.length > 0 ? [actions(undefined, ...buttons)] : [];
}

export interface People {
  /**
   * The Slack user acting as the planning user here (the first by Slack user id when several do),
   * or undefined — for an id nobody here acts as, or no id at all.
   */
  slackUserOf(planningUserId: string | undefined): string | undefined;
  /** Every Slack user acting as it here, by Slack user id (a pasted account may have several). */
  everyoneActingAs(planningUserId: string): readonly string[];
  /** The ids asked for that have a Slack user: planning user id → {@link slackUserOf}. */
  asRecord(): Record<string, string>;
}

/** The Slack users of `workspaceId` behind `planningUserIds` (undefined and repeated ids are fine). */
export async function peopleOf(
  deps: Pick<SlackDeps, 'store'>,
  workspaceId: string,
  planningUserIds: Iterable<string | undefined>,
): Promise<People> {
  const asked = [...new Set([...planningUserIds].filter((id): id is string => Boolean(id)))];
  const links = asked.length > 0 ? await deps.store.identities.findByPlanningUsers(workspaceId, asked) : [];
  return peopleFrom(asked, links);
}

/** The one Slack user acting as `planningUserId` here, if any (see {@link People.slackUserOf}). */
export async function slackUserOf(
  deps: Pick<SlackDeps, 'store'>,
  workspaceId: string,
  planningUserId: string | undefined,
): Promise<string | undefined> {
  return (await peopleOf(deps, workspaceId, [planningUserId])).slackUserOf(planningUserId);
}

function peopleFrom(asked: readonly string[], links: readonly PlanningUserLink[]): People {
  // Links come ordered by Slack user id: the first one seen for an id is the one shown.
  const acting = new Map<string, string[]>();
  const add = (id: string, slackUserId: string) => {
    const list = acting.get(id) ?? [];
    if (!list.includes(slackUserId)) list.push(slackUserId);
    acting.set(id, list);
  };
  for (const link of links) {
    add(link.planningUserId, link.slackUserId);
    if (link.serviceAccountId !== link.planningUserId) add(link.serviceAccountId, link.slackUserId);
  }
  const people: People = {
    slackUserOf: (id) => (id ? acting.get(id)?.[0] : undefined),
    everyoneActingAs: (id) => acting.get(id) ?? [],
    asRecord: () => {
      const record: Record<string, string> = {};
      for (const id of asked) {
        const slackUserId = people.slackUserOf(id);
        if (slackUserId) record[id] = slackUserId;
      }
      return record;
    },
  };
  return people;
}
