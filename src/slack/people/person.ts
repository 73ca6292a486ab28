/**
 * The person a profile is asked about, as the reader may see them: the reader themselves, or
 * someone acting with a planning account of the reader's organization here. Anyone else gets one
 * sentence saying why, and nothing is read or provisioned for them: a profile only reads.
 */

import type { WebClient } from '@slack/web-api';
import { type Mrkdwn, md, mention } from '../../blockkit/index.js';
import type { Acting } from '../kit/identity.js';
import { type Home, NOT_A_MEMBER_PHRASE, notAMember } from '../kit/membership.js';
import type { Services } from '../kit/services.js';
import { slackUserOf } from '../kit/slack-user.js';

export interface Person {
  slackUserId: string;
  planningUserId: string;
  serviceAccountId: string;
  /** The reader themselves. */
  self: boolean;
}

export type Found = { person: Person } | { refusal: Mrkdwn };

/** users.info, or undefined for someone Slack does not know (or would not say). */
async function slackRecord(client: WebClient, slackUserId: string) {
  try {
    return await slackUserOf(client, slackUserId);
  } catch {
    return undefined;
  }
}

/** Who `slackUserId` is for `acting`'s profile view, or why there is nothing to show. */
export async function findPerson(
  svc: Services,
  acting: Acting,
  client: WebClient,
  home: Home,
  slackUserId: string,
): Promise<Found> {
  const { identity } = acting;
  if (slackUserId === acting.slackUserId) {
    return {
      person: {
        slackUserId,
        planningUserId: identity.planningUserId,
        serviceAccountId: identity.serviceAccountId,
        self: true,
      },
    };
  }
  const who = mention(slackUserId);
  const theirs = await svc.deps.store.identities.get(acting.workspaceId, slackUserId);
  if (theirs) {
    if (theirs.orgId !== identity.orgId) {
      return {
        refusal: md`${who} works in another planning organization: their profile is not shown here.`,
      };
    }
    return {
      person: {
        slackUserId,
        planningUserId: theirs.planningUserId,
        serviceAccountId: theirs.serviceAccountId,
        self: false,
      },
    };
  }
  const record = await slackRecord(client, slackUserId);
  if (!record) return { refusal: md`I could not find that person in this workspace.` };
  const reason = notAMember(record, home);
  if (reason) {
    return { refusal: md`${who} has no planning profile: they are ${NOT_A_MEMBER_PHRASE[reason]}.` };
  }
  return {
    refusal: md`${who} is not connected to the planning service yet, so there is no planning profile to show.`,
  };
}
