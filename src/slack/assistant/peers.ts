/**
 * *Peer grades due*, in *What's waiting for me?* — said as what the app can know. The service has
 * no notion of a grade being due, and peer grades are anonymous (the app never learns who graded
 * whom, src/slack/grades/), so nothing here claims a grade is owed or was given: it lists
 * *peers you could grade* — teammates whose tasks are done on features of the linked channels
 * changed in the last 7 days (the service stamps a feature when anything in it changes; a task
 * carries no time of its own), with the notions those tasks exercise — each with *Grade*, the grading
 * form prefilled (peer and notion). The answer says the app cannot know whether they graded already.
 *
 * Read with the person's own account (the same feature reads as the rest of the answer, and the
 * notions' names), and the store's identities for who each teammate is in Slack: a teammate
 * nobody here acts as has no Slack person to pick in the form, and is left out.
 */
import type { KnownBlock } from '@slack/types';
import { subDays } from 'date-fns';
import {
  channelMention,
  context,
  header,
  inline,
  type Mrkdwn,
  md,
  mention,
  SLACK_USER_ID,
  section,
} from '../../blockkit/index.js';
import { LIMITS } from '../../planning/models.js';
import { gradePeerButton } from '../grades/index.js';
import type { Planning } from '../home/index.js';
import type { Acting } from '../kit/identity.js';
import type { Services } from '../kit/services.js';

/** How far back a feature's change makes its done tasks' people worth grading. */
export const PEER_WINDOW_DAYS = 7;
/** Peers (each with one notion) offered in one answer before "…and N more". */
const SHOWN_PEERS = 5;

/** A teammate's task done on a recently changed feature: the planning user, the task, its notions. */
export interface DoneByPeer {
  planningUserId: string;
  taskHeading: string;
  featureHeading: string;
  slackChannelId: string;
  notionIds: readonly string[];
  /** The feature's stamp, epoch ms (newest first). */
  changedAt: number;
}

/**
 * The done tasks of people other than `me` (their planning ids) on features changed since `since`
 * (epoch ms), newest feature first. Pure.
 */
export function doneByPeers(planning: Planning, me: ReadonlySet<string>, since: number): DoneByPeer[] {
  const features = new Map(planning.features.map((f) => [f.id, f]));
  const done: DoneByPeer[] = [];
  for (const task of Object.values(planning.named.tasks)) {
    if (task.state !== 'done' || !task.assigneeUserId || me.has(task.assigneeUserId)) continue;
    const feature = features.get(task.featureId);
    const changedAt = feature?.updatedAt ? Date.parse(feature.updatedAt) || 0 : 0;
    if (!feature || changedAt < since) continue;
    done.push({
      planningUserId: task.assigneeUserId,
      taskHeading: task.heading,
      featureHeading: feature.heading,
      slackChannelId: feature.slackChannelId,
      notionIds: task.notionIds ?? [],
      changedAt,
    });
  }
  return done.sort((a, b) => b.changedAt - a.changedAt);
}

/** One offer: a Slack person, a notion of theirs (if the task has one), the task it comes from. */
interface Offer {
  slackUserId: string;
  notionId?: string;
  done: DoneByPeer;
}

/** The offers, each person and notion once, in the order of `done`. Pure. */
export function peerOffers(done: readonly DoneByPeer[], slackOf: ReadonlyMap<string, string>): Offer[] {
  const seen = new Set<string>();
  const offers: Offer[] = [];
  for (const d of done) {
    const slackUserId = slackOf.get(d.planningUserId);
    if (!slackUserId || !SLACK_USER_ID.test(slackUserId)) continue;
    for (const notionId of d.notionIds.length ? d.notionIds : [undefined]) {
      const key = `${slackUserId}:${notionId ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      offers.push({ slackUserId, ...(notionId ? { notionId } : {}), done: d });
    }
  }
  return offers;
}

export const PEERS_TITLE = 'Peers you could grade';
const WHY = md`Teammates whose tasks are done on features changed in the last ${String(PEER_WINDOW_DAYS)} days, with the notions those tasks exercise. Peer grades are anonymous, so I cannot know whether you have graded them already.`;

/** The *Peers you could grade* part of the answer, read as `acting` through `call`. */
export async function peerBlocks(
  svc: Services,
  acting: Acting,
  planning: Planning,
  call: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<KnownBlock[]> {
  const me = new Set([acting.identity.planningUserId, acting.identity.serviceAccountId]);
  const done = doneByPeers(planning, me, subDays(Date.now(), PEER_WINDOW_DAYS).getTime());
  const head: KnownBlock[] = [header(PEERS_TITLE)];
  if (done.length === 0) {
    return [
      ...head,
      context(
        md`No teammate's task was done on a feature changed in the last ${String(PEER_WINDOW_DAYS)} days. Peer grades are anonymous, so I cannot know whom you have graded already.`,
      ),
    ];
  }
  const people = await svc.deps.store.identities.findByPlanningUsers(
    acting.workspaceId,
    done.map((d) => d.planningUserId),
  );
  const slackOf = new Map<string, string>();
  for (const p of people) {
    if (p.slackUserId === acting.slackUserId) continue;
    slackOf.set(p.planningUserId, p.slackUserId);
    if (p.serviceAccountId) slackOf.set(p.serviceAccountId, p.slackUserId);
  }
  const offers = peerOffers(done, slackOf);
  if (offers.length === 0) {
    return [
      ...head,
      context(
        md`The teammates whose tasks were done lately have no Slack account connected here, so there is nobody to pick in the grading form.`,
      ),
    ];
  }
  const shown = offers.slice(0, SHOWN_PEERS);
  // The notions' names: read as the person; one that cannot be read is left out of its button.
  const ids = [...new Set(shown.flatMap((o) => (o.notionId ? [o.notionId] : [])))];
  const names = new Map<string, string>();
  await Promise.all(
    ids.map((id) =>
      call(() => acting.planning.notions.read(id)).then(
        (n) => {
          if (n.value) names.set(id, n.value);
        },
        () => undefined,
      ),
    ),
  );
  const blocks: KnownBlock[] = [...head, context(WHY)];
  for (const offer of shown) {
    const name = offer.notionId ? names.get(offer.notionId) : undefined;
    const notion: Mrkdwn = name ? md`*${inline(name, LIMITS.notion)}*` : md`_no notion on the task_`;
    const { done: d } = offer;
    const text = md`${mention(offer.slackUserId)} — ${notion} · done: “${inline(d.taskHeading, 120)}” (${inline(d.featureHeading, 80)}, ${channelMention(d.slackChannelId)})`;
    blocks.push(
      section(text, {
        accessory: gradePeerButton(
          offer.slackUserId,
          name && offer.notionId ? { id: offer.notionId, value: name } : undefined,
        ),
      }),
    );
  }
  if (offers.length > SHOWN_PEERS) {
    blocks.push(
      context(
        md`…and ${String(offers.length - SHOWN_PEERS)} more — the *Grade a peer* shortcut grades anyone.`,
      ),
    );
  }
  return blocks;
}
