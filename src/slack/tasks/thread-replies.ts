/**
 * Replies in task card threads become discoveries of the task (issue 24 item 5), in a linked channel
 * whose link turned it on (`threadDiscoveries`, off by default: the `/plan link` form and the admin
 * links section). Each is recorded with the author's OWN planning account — a connected full member
 * of this workspace, never provisioned for it (as Workflow Builder steps act, kit/access.ts);
 * bots, the app's own messages, guests, outsiders and people who have not connected are not
 * recorded, and nothing is said in the channel about them.
 *
 * - A reply (thread_ts ≠ ts) in the thread of a task card the app posted (store.cards, with the
 *   task's place): a discovery with the reply's text and permalink (cut to the service's limit with
 *   the permalink kept — the author is then told privately), a `memo` reaction on the reply, the
 *   mapping kept (store.threadDiscoveries) and the discovery noted for the watch
 *   (`minuteNote`), which then never posts it back into the thread.
 * - Its edit (`message_changed`) updates the discovery, its deletion (`message_deleted`) deletes it,
 *   with the author's account; an unrecorded message does nothing.
 * - A reply whose text shows nothing (blanks, zero-width characters, a soft hyphen — blockkit's
 *   `showsNothing`) is no text: not recorded, no reaction; edited to show nothing, its discovery
 *   is left as it was.
 * - Every delivery is taken once (store.once, by channel and ts — and the edit's time for an edit):
 *   Slack's retry of an event never records twice.
 * - The task deleted (404): nothing recorded, nothing posted, logged at info. Any other refusal or
 *   the service down: nothing stored, the author told privately in one sentence.
 */
import type { WebClient } from '@slack/web-api';
import { type Mrkdwn, md, showsNothing } from '../../blockkit/index.js';
import { NotFoundError } from '../../planning/index.js';
import { ONCE_TTL, type PostedCard, type ThreadDiscovery, workspaceIdFor } from '../../store/index.js';
import type { EventArgs } from '../bolt/routes.js';
import { connectedMemberRefusal } from '../kit/access.js';
import { type PlanningContext, planningContextFor } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { explainFailure, STORE_UNAVAILABLE } from '../kit/failures.js';
import type { Acting } from '../kit/identity.js';
import { notice } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { messagePlainText, prefillDiscovery } from '../kit/slack-text.js';
import type { TaskCoords } from './card.js';

/** The reaction that says a reply was recorded. */
export const RECORDED_REACTION = 'memo';

/** A message as the events carry it (a new one, or the `message` of a `message_changed`). */
interface SlackMessage {
  type?: string;
  subtype?: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
}

/** The `message` event, in the shapes this file reads. */
type MessageEvent = SlackMessage & {
  channel: string;
  event_ts?: string;
  message?: SlackMessage;
  deleted_ts?: string;
  previous_message?: SlackMessage;
};

/** Subtypes of a person's reply: none, or a reply also sent to the channel. */
const REPLY_SUBTYPES = new Set([undefined, 'thread_broadcast']);

/** Written by a person (not a bot, an app or this app), as a reply in a thread. */
function isHumanReply(
  m: SlackMessage | undefined,
  botUserId: string | undefined,
): m is SlackMessage & {
  user: string;
  ts: string;
  thread_ts: string;
} {
  return Boolean(
    m &&
      REPLY_SUBTYPES.has(m.subtype) &&
      !m.bot_id &&
      !m.app_id &&
      m.user &&
      m.user !== botUserId &&
      m.ts &&
      m.thread_ts &&
      m.thread_ts !== m.ts,
  );
}

/** What a thread-reply handler has: the app's client, the workspace, and where to log. */
interface Reply {
  svc: Services;
  args: EventArgs<'message'>;
  client: WebClient;
  workspaceId: string;
  channel: string;
  log: { action: string; workspaceId: string };
}

/** `message` events: a new reply, its edit or its deletion. */
export async function threadMessage(svc: Services, args: EventArgs<'message'>): Promise<void> {
  const event = args.event as unknown as MessageEvent;
  const workspaceId = workspaceIdFor(args.context);
  const base = {
    svc,
    args,
    client: args.client as WebClient,
    workspaceId,
    channel: event.channel,
  };
  try {
    if (event.subtype === 'message_changed') {
      await edited(
        { ...base, log: { action: 'thread discovery edit', workspaceId } },
        event.message,
        event.previous_message,
        event.event_ts,
      );
    } else if (event.subtype === 'message_deleted') {
      // Only a reply can have been recorded: a top-level message's deletion reads nothing.
      const was = event.previous_message;
      if (was && (!was.thread_ts || was.thread_ts === was.ts)) return;
      await deleted({ ...base, log: { action: 'thread discovery delete', workspaceId } }, event.deleted_ts);
    } else if (isHumanReply(event, args.context.botUserId)) {
      await replied({ ...base, log: { action: 'thread discovery', workspaceId } }, event);
    } else if (event.thread_ts && event.thread_ts !== event.ts) {
      svc.deps.logger.debug(
        { action: 'thread discovery', workspaceId, reason: 'not a person’s reply' },
        'thread reply not recorded',
      );
    }
  } catch (error) {
    // Nothing is ever said in the channel: a failure of our own is logged.
    svc.deps.logger.warn({ action: 'thread discovery', workspaceId, err: error }, 'thread reply not handled');
  }
}

/**
 * Does `work` once per delivery (`what` names it: kind and ts): a delivery taken already does
 * nothing; when `work` throws, the key is given back (nothing was stored: a later delivery may try
 * again).
 */
async function once(r: Reply, what: string, work: () => Promise<void>): Promise<void> {
  const key = `${what}:${r.workspaceId}:${r.channel}`;
  const done = await r.svc.deps.store.once.run(key, ONCE_TTL.threadReply, async () => {
    await work();
    return 'done';
  });
  if (!done.first) r.svc.deps.logger.debug(r.log, 'thread reply already handled');
}

/**
 * The person the app acts as: `slackUserId`'s own account when they are a connected full member
 * of this workspace; else undefined (logged at info, nothing said).
 */
async function authorOf(r: Reply, slackUserId: string): Promise<PlanningContext | undefined> {
  const home = { teamId: r.args.context.teamId, enterpriseId: r.args.context.enterpriseId };
  const planning = planningContextFor(r.svc.identities, r.client, r.workspaceId, home, slackUserId);
  const refused = await connectedMemberRefusal(planning);
  if (!refused) return planning;
  r.svc.deps.logger.info({ ...r.log, reason: refused }, 'thread reply not recorded');
  return undefined;
}

/** The discovery's text: the reply as plain text then its permalink, within the service's limit. */
async function discoveryText(r: Reply, message: { text?: string; ts: string }) {
  const permalink = await r.client.chat
    .getPermalink({ channel: r.channel, message_ts: message.ts })
    .then((p) => p.permalink)
    .catch((error: unknown) => {
      r.svc.deps.logger.warn({ ...r.log, err: error }, 'no permalink for a thread reply');
      return undefined;
    });
  const plain = messagePlainText(message.text ?? '');
  const details = prefillDiscovery(message.text ?? '', permalink);
  const whole = permalink ? (plain ? `${plain}\n\n${permalink}` : permalink) : plain;
  return { plain, details, cut: details !== whole };
}

/** Tells the author privately, in the thread; best effort. */
async function tellAuthor(r: Reply, user: string, threadTs: string, text: Mrkdwn) {
  await r.client.chat
    .postEphemeral({ channel: r.channel, user, thread_ts: threadTs, ...notice(text) })
    .catch((error: unknown) => r.svc.deps.logger.warn({ ...r.log, err: error }, 'could not tell the author'));
}

const CUT = md`Your reply was longer than a discovery may be, so it was recorded cut, with a link to the whole message.`;

/** A refusal or failure of the service in one sentence for the author (the reason is logged). */
async function failureSentence(r: Reply, error: unknown, slackUserId: string): Promise<Mrkdwn> {
  const why = await explainFailure(r.svc.deps, error, { ...r.log, slackUserId });
  if ('text' in why) return md`Your reply was not recorded as a discovery: ${why.text}`;
  return md`Your reply was not recorded as a discovery: your planning connection stopped working — connect again from the app's Home.`;
}

/** The author's account; when it cannot be used (a token refused), they are told privately. */
async function actingOrTell(
  r: Reply,
  planning: PlanningContext,
  threadTs: string,
): Promise<Acting | undefined> {
  try {
    return await planning.acting();
  } catch (error) {
    await tellAuthor(
      r,
      planning.slackUserId,
      threadTs,
      await failureSentence(r, error, planning.slackUserId),
    );
    return undefined;
  }
}

const coordsOf = (card: { place: PostedCard['place'] & object; taskId: string }): TaskCoords => ({
  teamId: card.place.teamId,
  channelId: card.place.channelId,
  featureId: card.place.featureId,
  taskId: card.taskId,
});

/**
 * The task card a thread belongs to: the thread's parent when it is a task card, or — Create task
 * posts its card inside the thread of the message it was made from, and Slack threads do not nest —
 * the card of the task made from that thread's message (the latest, as its other replies name it).
 */
async function taskCardOfThread(
  store: Services['deps']['store'],
  workspaceId: string,
  channel: string,
  threadTs: string,
): Promise<PostedCard | undefined> {
  const parent = await store.cards.find(workspaceId, channel, threadTs);
  if (parent) return parent.kind === 'task' ? parent : undefined;
  const origin = await store.taskOrigins.findByThread(workspaceId, channel, threadTs);
  if (!origin) return undefined;
  const cards = await store.cards.list(workspaceId, 'task', origin.taskId);
  return cards.find((c) => c.slackChannelId === channel && c.place);
}

async function replied(
  r: Reply,
  reply: SlackMessage & { user: string; ts: string; thread_ts: string },
): Promise<void> {
  const { store, logger } = r.svc.deps;
  if (showsNothing(reply.text ?? '')) {
    logger.info({ ...r.log, reason: 'its text shows nothing' }, 'thread reply not recorded');
    return;
  }
  const link = await store.links.get(r.workspaceId, r.channel);
  if (!link?.threadDiscoveries) {
    logger.debug({ ...r.log, reason: 'off for this channel' }, 'thread reply not recorded');
    return;
  }
  const card = await taskCardOfThread(store, r.workspaceId, r.channel, reply.thread_ts);
  if (!card?.place) {
    logger.debug({ ...r.log, reason: 'not a task card’s thread' }, 'thread reply not recorded');
    return;
  }
  const place = card.place;
  await once(r, `thread-reply:${reply.ts}`, async () => {
    const planning = await authorOf(r, reply.user);
    if (!planning) return;
    const acting = await actingOrTell(r, planning, reply.thread_ts);
    if (!acting) return;
    // The card's task is in the author's organization, or it is not theirs to add to.
    if (acting.identity.orgId !== place.orgId) {
      logger.info({ ...r.log, reason: 'another organization' }, 'thread reply not recorded');
      return;
    }
    const text = await discoveryText(r, reply);
    if (!text.plain) return;
    const c = coordsOf({ place, taskId: card.entityId });
    let discoveryId: string;
    try {
      const created = await acting.planning.tasks.discoveryCreate(
        c.teamId,
        c.channelId,
        c.featureId,
        c.taskId,
        {
          details: text.details,
        },
      );
      discoveryId = created.id;
    } catch (error) {
      if (error instanceof NotFoundError) {
        logger.info(r.log, 'thread reply not recorded: the task is gone');
        return;
      }
      await tellAuthor(r, reply.user, reply.thread_ts, await failureSentence(r, error, reply.user));
      return;
    }
    const entry: ThreadDiscovery = {
      workspaceId: r.workspaceId,
      slackChannelId: r.channel,
      messageTs: reply.ts,
      threadTs: reply.thread_ts,
      authorSlackId: reply.user,
      place,
      taskId: c.taskId,
      discoveryId,
    };
    try {
      await store.threadDiscoveries.record(entry);
    } catch (error) {
      // Never half-stored: a discovery whose message we cannot follow is taken back.
      logger.error({ ...r.log, err: error }, 'could not keep a thread discovery; taking it back');
      await acting.planning.tasks
        .discoveryDelete(c.teamId, c.channelId, c.featureId, c.taskId, discoveryId)
        .catch((e: unknown) => logger.error({ ...r.log, err: e }, 'could not take a thread discovery back'));
      await store.threadDiscoveries.forget(r.workspaceId, r.channel, reply.ts).catch(() => undefined);
      await tellAuthor(
        r,
        reply.user,
        reply.thread_ts,
        md`Your reply was not recorded as a discovery: ${STORE_UNAVAILABLE}`,
      );
      return;
    }
    await recorded(r, acting, c, discoveryId, reply, text.cut);
  });
}

/**
 * After a discovery is kept: the cards' counts — and, shown in the thread already, the watch never
 * posts it there again — then the reaction and the cut told (all best effort).
 */
async function recorded(
  r: Reply,
  acting: Acting,
  c: TaskCoords,
  discoveryId: string,
  reply: { user: string; ts: string; thread_ts: string },
  cut: boolean,
) {
  await r.svc.changes.changed({
    ...madeFromSlack(acting, r.client, c),
    tasks: [c.taskId],
    minutes: [{ taskId: c.taskId, id: discoveryId }],
  });
  await r.client.reactions
    .add({ channel: r.channel, timestamp: reply.ts, name: RECORDED_REACTION })
    .catch((error: unknown) =>
      r.svc.deps.logger.warn({ ...r.log, err: error }, 'could not react to a thread reply'),
    );
  if (cut) await tellAuthor(r, reply.user, reply.thread_ts, CUT);
}

async function edited(
  r: Reply,
  message: SlackMessage | undefined,
  previous: SlackMessage | undefined,
  eventTs: string | undefined,
) {
  const { store, logger } = r.svc.deps;
  if (!message?.ts || !message.user) return;
  // Only a reply can have been recorded: a top-level message's edit reads nothing.
  if (!message.thread_ts || message.thread_ts === message.ts) return;
  // Slack also sends a change when a link in the message unfurls: the text is what counts.
  if (previous && previous.text === message.text) return;
  // Edited to show nothing, it is no text: the discovery keeps what the reply said before.
  if (showsNothing(message.text ?? '')) {
    logger.info({ ...r.log, reason: 'its text shows nothing' }, 'thread discovery not changed');
    return;
  }
  const entry = await store.threadDiscoveries.get(r.workspaceId, r.channel, message.ts);
  // Only the author edits their message; anything else is not a change of the discovery.
  if (!entry || entry.authorSlackId !== message.user) return;
  await once(r, `thread-edit:${message.ts}:${eventTs ?? ''}`, async () => {
    const planning = await authorOf(r, entry.authorSlackId);
    if (!planning) return;
    const acting = await actingOrTell(r, planning, entry.threadTs);
    if (!acting) return;
    const text = await discoveryText(r, { text: message.text ?? '', ts: message.ts! });
    if (!text.plain) return;
    const c = coordsOf(entry);
    try {
      await acting.planning.tasks.discoveryUpdate(
        c.teamId,
        c.channelId,
        c.featureId,
        c.taskId,
        entry.discoveryId,
        {
          details: text.details,
        },
      );
    } catch (error) {
      if (error instanceof NotFoundError) {
        logger.info(r.log, 'thread discovery not changed: it or its task is gone');
        await store.threadDiscoveries.forget(r.workspaceId, r.channel, entry.messageTs);
        return;
      }
      await tellAuthor(
        r,
        entry.authorSlackId,
        entry.threadTs,
        await failureSentence(r, error, entry.authorSlackId),
      );
      return;
    }
    // Its card counts entries, not their text: only noted, so the watch does not post the change.
    await r.svc.changes.changed({
      ...madeFromSlack(acting, r.client, c),
      minutes: [{ taskId: c.taskId, id: entry.discoveryId }],
    });
    if (text.cut) await tellAuthor(r, entry.authorSlackId, entry.threadTs, CUT);
  });
}

async function deleted(r: Reply, deletedTs: string | undefined) {
  const { store, logger } = r.svc.deps;
  if (!deletedTs) return;
  const entry = await store.threadDiscoveries.get(r.workspaceId, r.channel, deletedTs);
  if (!entry) return;
  await once(r, `thread-delete:${deletedTs}`, async () => {
    const planning = await authorOf(r, entry.authorSlackId);
    if (!planning) return;
    const acting = await planning.acting();
    const c = coordsOf(entry);
    try {
      await acting.planning.tasks.discoveryDelete(
        c.teamId,
        c.channelId,
        c.featureId,
        c.taskId,
        entry.discoveryId,
      );
    } catch (error) {
      if (!(error instanceof NotFoundError)) {
        // The message is gone: there is no thread left to tell the author in but theirs; logged.
        logger.warn({ ...r.log, err: error }, 'thread discovery not deleted');
        throw error;
      }
    }
    await store.threadDiscoveries.forget(r.workspaceId, r.channel, entry.messageTs);
    await r.svc.changes.changed({
      ...madeFromSlack(acting, r.client, c),
      tasks: [c.taskId],
      minutes: [{ taskId: c.taskId, id: entry.discoveryId }],
    });
  });
}
