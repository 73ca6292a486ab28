/**
 * Publishing a person's Home tab: at once with what is cached for them (or a skeleton whose sections
 * say "Loading…"), then once more with what one gathered snapshot brings within {@link FILL_MS}. A
 * part still out by then shows one line ("slow") and is cached when it lands, so the next opening
 * has it. Every read is made with the person's own token; publishing is keyed on the first
 * publish's hash, so an older fill never overwrites a newer tab.
 *
 * Across replicas (each with its own cache), the store keeps when the newest snapshot published was
 * read (`store.homes`): a filled snapshot is published only once claimed there as the newest, and a
 * cached one older than it is never shown — the skeleton is, as on a replica with nothing cached.
 */

import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Mrkdwn } from '../../blockkit/index.js';
import type { Identity } from '../../store/index.js';
import { type PlanningContext, planningOf } from '../kit/acting.js';
import { adminTokenFor } from '../kit/deps.js';
import { type ConnectReason, NotAMemberError, NotConnectedError } from '../kit/identity.js';
import type { Services } from '../kit/services.js';
import { factsOf } from '../kit/slack-user.js';
import { taskStateButtons } from '../tasks/index.js';
import { homeTab, type QuietPicked, type TaskControls } from './blocks.js';
import { chartKey, renderChart, uploadPng } from './chart.js';
import {
  activityPeople,
  type Connection,
  describeAccount,
  gatherParts,
  type HomeSnapshot,
  LOADING,
  type Part,
} from './snapshot.js';

/** How long the tab waits for the service before it is filled with what has come. */
export const FILL_MS = 2_500;
/** Reads in flight at once for one person. */
const PER_PERSON = 4;
const CACHE_SIZE = 1_000;

/** The task rows' buttons: the task card's own state buttons, answered by the same listener. */
const TASK_CONTROLS: TaskControls = (task) => taskStateButtons(task);

/** Per app: each person's last snapshot and the chart uploaded for it. */
interface HomeCache {
  snapshots: Map<string, HomeSnapshot>;
  charts: Map<string, { key: string; fileId: string }>;
}
const caches = new WeakMap<Services['deps'], HomeCache>();
function cacheOf(svc: Services): HomeCache {
  let found = caches.get(svc.deps);
  if (!found) {
    found = { snapshots: new Map(), charts: new Map() };
    caches.set(svc.deps, found);
  }
  return found;
}

function remember<V>(map: Map<string, V>, key: string, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size > CACHE_SIZE) map.delete(map.keys().next().value as string);
}

export interface PublishOptions {
  banner?: Mrkdwn;
  /** One end of quiet hours picked on the tab: shown as picked until the other is (see homeTab). */
  quietPicked?: QuietPicked;
  /** Bound of the fill (tests and the benchmark shorten or lengthen it). */
  fillMs?: number;
}

/** Publishes the person's tab now, then filled; resolves when the filled tab is published. */
export async function publishHome(
  svc: Services,
  client: WebClient,
  planning: PlanningContext,
  options: PublishOptions = {},
): Promise<void> {
  const { deps } = svc;
  const cache = cacheOf(svc).snapshots;
  const who = `${planning.workspaceId}:${planning.slackUserId}`;
  const [identity, newest] = await Promise.all([
    deps.store.identities.get(planning.workspaceId, planning.slackUserId),
    deps.store.homes.newest(planning.workspaceId, planning.slackUserId),
  ]);
  let cached = identity ? cache.get(who) : undefined;
  if (cached && newest !== undefined && cached.at < newest) {
    // Another replica published a newer one since: this cache is stale, never shown.
    cache.delete(who);
    cached = undefined;
  }
  const prefs = await deps.store.notifications.prefs(planning.workspaceId, planning.slackUserId);
  const skeleton: HomeSnapshot = cached
    ? {
        ...cached,
        // What the person chose is the store's now, not as it was when the cached snapshot was read:
        // the tab redrawn after they chose must not show the choice before.
        ...(identity && cached.connection.state === 'connected'
          ? {
              connection: {
                ...cached.connection,
                origin: identity.origin,
                followsProfile: identity.followsProfile,
              },
            }
          : {}),
        ...(prefs ? { prefs } : {}),
      }
    : {
        connection: identity
          ? { state: 'connected', origin: identity.origin, followsProfile: identity.followsProfile }
          : (await adminTokenFor(deps, planning.workspaceId))
            ? { state: 'loading' }
            : { state: 'none' },
        planning: LOADING,
        waiting: LOADING,
        experiences: LOADING,
        activity: LOADING,
        prefs,
        timeZone: 'UTC',
        at: Date.now(),
      };
  const render = (s: HomeSnapshot, refreshing: boolean) =>
    homeTab(s, {
      taskControls: TASK_CONTROLS,
      refreshing,
      ...(options.banner ? { banner: options.banner } : {}),
      ...(options.quietPicked ? { quietPicked: options.quietPicked } : {}),
    });

  const first = await client.views.publish({
    user_id: planning.slackUserId,
    view: render(skeleton, cached !== undefined),
  });
  const hash = first.view?.hash;

  const filled = await fill(svc, client, planning, skeleton, options.fillMs ?? FILL_MS, identity);
  // Only the newest snapshot read is published, by whichever replica read it.
  if (!(await deps.store.homes.claim(planning.workspaceId, planning.slackUserId, filled.at))) {
    cache.delete(who);
    return;
  }
  if (filled.connection.state === 'connected') remember(cache, who, filled);
  else cache.delete(who);
  const publishFilled = (keyed: boolean) =>
    client.views.publish({
      user_id: planning.slackUserId,
      view: render(filled, false),
      ...(keyed && hash ? { hash } : {}),
    });
  try {
    await publishFilled(true).catch(async (error: unknown) => {
      if ((error as { data?: { error?: string } }).data?.error !== 'hash_conflict') throw error;
      // Another publish came between: a skeleton or an older snapshot, unless a newer one was claimed.
      if ((await deps.store.homes.newest(planning.workspaceId, planning.slackUserId)) !== filled.at) return;
      await publishFilled(false);
    });
  } catch (error) {
    if (!filled.chartFileId) throw error;
    // Slack may refuse an image it has not finished processing: the tab goes out without it.
    deps.logger.warn({ err: error }, 'home: publish with the chart refused; publishing without it');
    const { chartFileId: _dropped, ...rest } = filled;
    await client.views.publish({ user_id: planning.slackUserId, view: render(rest, false) });
  }
}

/** Redraws the tab after a button pressed on it, with `banner` saying what happened. */
export function refreshHome(svc: Services, client: WebClient, planning: PlanningContext, banner?: Mrkdwn) {
  return publishHome(svc, client, planning, banner ? { banner } : {});
}

/** Forgets what is cached for a person (after they disconnect). */
export function forgetHome(svc: Services, workspaceId: string, slackUserId: string) {
  cacheOf(svc).snapshots.delete(`${workspaceId}:${slackUserId}`);
  cacheOf(svc).charts.delete(`${workspaceId}:${slackUserId}`);
}

/** The filled snapshot: what arrived within `fillMs`, one "slow" or "failed" line for the rest. */
async function fill(
  svc: Services,
  client: WebClient,
  planning: PlanningContext,
  skeleton: HomeSnapshot,
  fillMs: number,
  stored: Identity | undefined,
): Promise<HomeSnapshot> {
  const { deps } = svc;
  const who = `${planning.workspaceId}:${planning.slackUserId}`;
  const deadline = new Promise<'slow'>((resolve) => setTimeout(() => resolve('slow'), fillMs).unref());
  const within = async <T>(p: Promise<T>): Promise<Part<T>> => {
    const guarded = p.then(
      (value): Part<T> => ({ ok: true, value }),
      (error: unknown): Part<T> => {
        deps.logger.warn(
          { err: error, workspaceId: planning.workspaceId },
          'home: a section could not be read',
        );
        return { ok: false, problem: 'failed' };
      },
    );
    const outcome = await Promise.race([guarded, deadline]);
    return outcome === 'slow' ? { ok: false, problem: 'slow' } : outcome;
  };

  // Slack facts (admin? time zone?) are read beside the service, not before it.
  const baseP = (async () => {
    // The request's one users.info, which also says whether they are a full member (acting()).
    const facts = await planning.slackUser().then(factsOf, () => ({ isAdmin: false }) as const);
    const timeZone = ('timeZone' in facts && facts.timeZone) || 'UTC';
    const links = facts.isAdmin ? await deps.store.links.listByWorkspace(planning.workspaceId) : undefined;
    const admin = links && {
      links,
      canvases: [
        ...(await deps.store.canvases.enabledIn(
          planning.workspaceId,
          links.map((l) => l.slackChannelId),
        )),
      ],
    };
    const prefs = await deps.store.notifications.prefs(planning.workspaceId, planning.slackUserId);
    const workflowActFor = await deps.store.workflowConsents.allows(
      planning.workspaceId,
      planning.slackUserId,
    );
    return {
      timeZone,
      at: Date.now(),
      workflowActFor,
      ...(admin ? { admin } : {}),
      ...(prefs ? { prefs } : {}),
    };
  })();
  const none = async (): Promise<Omit<HomeSnapshot, 'connection'>> => ({
    ...(await baseP),
    planning: LOADING,
    waiting: LOADING,
    experiences: LOADING,
    activity: LOADING,
  });

  let acting: Awaited<ReturnType<PlanningContext['acting']>>;
  try {
    acting = await planning.acting();
  } catch (error) {
    if (error instanceof NotConnectedError)
      return { ...(await none()), connection: connectionOf(error.reason) };
    if (error instanceof NotAMemberError) return { ...(await none()), connection: { state: 'not-member' } };
    deps.logger.warn({ err: error }, 'home: could not tell who is acting');
    return { ...skeleton, ...(await baseP), planning: { ok: false, problem: 'failed' } };
  }

  const links = await deps.store.links.listByWorkspace(planning.workspaceId);
  const signal = AbortSignal.timeout(Math.max(fillMs * 4, 10_000));
  const parts = gatherParts(acting.planning, acting.identity, links, {
    concurrency: PER_PERSON,
    signal,
    people: activityPeople(deps, planning.workspaceId),
  });
  const [account, planningPart, waiting, experiences, activity] = await Promise.all([
    within(parts.account),
    within(parts.planning),
    within(parts.waiting),
    within(parts.experiences),
    within(parts.activity),
  ]);
  const base = await baseP;
  // The request's identity was read before its action ran (e.g. *Use my Slack name and photo*): the
  // choices it saved are taken from the store's row read for this publish.
  const saved = stored?.serviceAccountId === acting.identity.serviceAccountId ? stored : acting.identity;
  const choice = { origin: saved.origin, followsProfile: saved.followsProfile };
  const connection: Connection = account.ok
    ? describeAccount(account.value, { ...acting.identity, ...choice })
    : skeleton.connection.state === 'connected'
      ? { ...skeleton.connection, ...choice }
      : { state: 'connected', ...choice };
  const snapshot: HomeSnapshot = {
    ...base,
    connection,
    planning: planningPart,
    waiting,
    experiences,
    activity,
  };

  if (experiences.ok && experiences.value.length > 0) {
    const fileId = await chartFor(svc, client, who, experiences.value, fillMs);
    if (fileId) snapshot.chartFileId = fileId;
  }
  // Parts that missed the deadline still land in the cache, for the next opening.
  const late = [planningPart, waiting, experiences, activity].some((p) => !p.ok && p.problem === 'slow');
  if (late) {
    void Promise.allSettled([parts.planning, parts.waiting, parts.experiences, parts.activity]).then(
      ([p, w, e, a]) => {
        const settled = <T>(r: PromiseSettledResult<T>, old: Part<T>): Part<T> =>
          r.status === 'fulfilled' ? { ok: true, value: r.value } : old;
        remember(cacheOf(svc).snapshots, who, {
          ...snapshot,
          planning: settled(p as PromiseSettledResult<never>, snapshot.planning),
          waiting: settled(w as PromiseSettledResult<never>, snapshot.waiting),
          experiences: settled(e as PromiseSettledResult<never>, snapshot.experiences),
          activity: settled(a as PromiseSettledResult<never>, snapshot.activity),
        });
      },
    );
  }
  return snapshot;
}

/** The chart's Slack file, uploaded again only when the grades changed; undefined on any failure. */
async function chartFor(
  svc: Services,
  client: WebClient,
  who: string,
  rows: HomeSnapshot['experiences'] extends Part<infer T> ? T : never,
  fillMs: number,
): Promise<string | undefined> {
  const { charts } = cacheOf(svc);
  const key = chartKey(rows);
  const known = charts.get(who);
  if (known?.key === key) return known.fileId;
  try {
    const png = await renderChart(rows);
    const fileId = await uploadPng(client, png, {
      filename: 'experience.png',
      title: 'My experience: self vs peers',
      signal: AbortSignal.timeout(fillMs),
    });
    remember(charts, who, { key, fileId });
    return fileId;
  } catch (error) {
    svc.deps.logger.info({ err: error }, 'home: chart left out');
    return undefined;
  }
}

export async function appHomeOpenedEvent(
  svc: Services,
  { event, context, client }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs,
) {
  if (event.tab !== 'home') return;
  try {
    await publishHome(svc, client as WebClient, planningOf(context));
  } catch (error) {
    svc.deps.logger.warn({ err: error }, 'home: could not publish the tab');
  }
}

/** The Home tab's connection part for someone who cannot act (see kit/messages.ts `ConnectReason`). */
function connectionOf(reason: ConnectReason): Connection {
  if (reason === 'missing') return { state: 'none' };
  if (reason === 'invalid') return { state: 'invalid' };
  return { state: 'left', reason };
}
