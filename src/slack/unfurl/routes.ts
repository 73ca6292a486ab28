/**
 * Link previews (Work Objects), when the deployment set the web app's link templates
 * (PLANNING_WEB_FEATURE_URL / PLANNING_WEB_TASK_URL); without them these events are not subscribed
 * to (bolt/manifest.ts) and do nothing.
 *
 * - `link_shared`: each pasted link of a task or feature is read with the account of the person who
 *   pasted it — never anyone else's — and unfurled as a Work Object. Someone not connected gets
 *   Slack's prompt to connect; a guest or someone from another organization gets nothing. A link is
 *   unfurled once per channel in `ONCE_TTL.linkPreviewWindow`, and a message with more than
 *   {@link MAX_LINKS} links not at all. Nothing is ever said in the channel: failures are logged.
 * - `entity_details_requested`: the flexpane (details and minutes), read with the account of the
 *   person who opened it.
 */
import { createHash } from 'node:crypto';
import type { EntityMetadata } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { type Config, webLinkTemplates } from '../../config.js';
import { ONCE_TTL, workspaceIdFor } from '../../store/index.js';
import { previewsLinks } from '../bolt/manifest.js';
import type { EventArgs, TopicRoutes } from '../bolt/routes.js';
import { memberRefusal } from '../kit/access.js';
import { type PlanningContext, planningContextFor } from '../kit/acting.js';
import { explainFailure } from '../kit/failures.js';
import type { Acting } from '../kit/identity.js';
import type { Services } from '../kit/services.js';
import { type LinkedThing, linkedThing, pageOf } from '../kit/web-links.js';
import { readTaskDetails, readTaskView } from '../tasks/index.js';
import {
  type EntityLink,
  featureEntity,
  parseEntityRefId,
  taskDetailsEntity,
  taskEntity,
} from './entities.js';

/** A message with more links than this is a list, not a reference: none is previewed. */
export const MAX_LINKS = 5;

/**
 * A pasted link and what it shows: the entity's own url is its page rebuilt from the template (the
 * pasted one may carry a query or a trailing slash); `app_unfurl_url` stays exactly what was pasted.
 */
function entityLink(config: Config, thing: LinkedThing, url: string): EntityLink {
  return { thing, url, canonical: pageOf(config, thing) ?? url };
}

/** What the connect prompt says (Slack shows it privately to the person who pasted). */
const CONNECT_MESSAGE = 'Connect your planning account to see previews of Team Planning links.';

/** Who is asking, as far as previews go: someone to read with, to ask to connect, or to refuse. */
type Reader = { acting: Acting } | { connect: true } | { refused: string };

/**
 * The person's own account, when they have connected one. A full member who has not connected is
 * asked to connect rather than given an account by a paste; a guest or outsider is refused.
 */
async function readerOf(svc: Services, planning: PlanningContext, action: string): Promise<Reader> {
  const refused = await memberRefusal(planning);
  if (refused) return { refused: refused.why };
  if (!(await planning.stored())) return { connect: true };
  try {
    return { acting: await planning.acting() };
  } catch (error) {
    return connectOrThrow(svc, planning, error, action);
  }
}

/** A refused or missing connection becomes the connect prompt; any other failure is thrown on. */
async function connectOrThrow(svc: Services, planning: PlanningContext, error: unknown, action: string) {
  const why = await explainFailure(svc.deps, error, {
    action,
    workspaceId: planning.workspaceId,
    slackUserId: planning.slackUserId,
  });
  if ('connect' in why) return { connect: true } as const;
  throw error;
}

/** Where the connect prompt leads: the app in Slack, whose Home has Connect. */
function connectUrl(svc: Services, appId: string | undefined, teamId: string | undefined): string {
  const url = new URL('/app_redirect', svc.deps.config.SLACK_API_URL);
  if (appId) url.searchParams.set('app', appId);
  if (teamId) url.searchParams.set('team', teamId);
  return url.href;
}

/** The Work Object of one link, read as `acting`. */
async function previewOf(
  svc: Services,
  acting: Acting,
  link: EntityLink,
  full: boolean,
): Promise<EntityMetadata> {
  const { thing } = link;
  if (thing.kind === 'task') {
    return full
      ? taskDetailsEntity(link, (await readTaskDetails(svc.deps, acting, thing.coords)).details)
      : taskEntity(link, await readTaskView(svc.deps, acting, thing.coords));
  }
  const { teamId, channelId, featureId } = thing.coords;
  return featureEntity(link, await acting.planning.features.read(teamId, channelId, featureId), full);
}

/**
 * The link's preview, read as `acting` once per channel in the window (the same link pasted again
 * there within it is not previewed again): undefined when it was previewed there already, or is
 * being read for another paste. A link that cannot be read gives its turn back and rejects.
 */
async function previewInWindow(
  svc: Services,
  acting: Acting,
  workspaceId: string,
  channel: string,
  link: EntityLink,
): Promise<{ entity: EntityMetadata; key: string } | undefined> {
  const digest = createHash('sha256').update(link.url).digest('base64url');
  const key = `unfurl:${workspaceId}:${channel}:${digest}`;
  const read = await svc.deps.store.once.run(
    key,
    ONCE_TTL.linkPreviewWindow,
    async (): Promise<EntityMetadata | undefined> => previewOf(svc, acting, link, false),
    // What is kept is that it was previewed, not the preview: a person's read is never replayed.
    { codec: { encode: () => 'previewed', decode: () => undefined } },
  );
  return read.first && read.value ? { entity: read.value, key } : undefined;
}

/** Whether previews are on; when off (no link templates: an event Slack should not send), says so. */
function previewsOn(svc: Services): boolean {
  if (previewsLinks(webLinkTemplates(svc.deps.config))) return true;
  svc.deps.logger.debug({ action: 'link preview' }, 'link previews are off (no web app link templates)');
  return false;
}

async function linkShared(svc: Services, args: EventArgs<'link_shared'>): Promise<void> {
  const { deps } = svc;
  const { event } = args;
  if (!previewsOn(svc)) return;
  const workspaceId = workspaceIdFor(args.context);
  const log = { action: 'link preview', workspaceId };
  if (event.links.length > MAX_LINKS) {
    deps.logger.info({ ...log, links: event.links.length }, 'too many links to preview');
    return;
  }
  const ours = event.links.flatMap((l) => {
    const thing = linkedThing(deps.config, l.url);
    return thing ? [entityLink(deps.config, thing, l.url)] : [];
  });
  if (ours.length === 0) return;
  // A preview in the composer is the writer's own: only one posted in a channel is shown once.
  const inComposer = event.source === 'composer' && event.unfurl_id !== undefined;
  const target = inComposer
    ? { source: 'composer' as const, unfurl_id: event.unfurl_id! }
    : { channel: event.channel, ts: event.message_ts };
  const client = args.client as WebClient;
  const claimed: string[] = [];
  try {
    const home = { teamId: args.context.teamId, enterpriseId: args.context.enterpriseId };
    const planning = planningContextFor(svc.identities, client, workspaceId, home, event.user);
    const reader = await readerOf(svc, planning, log.action);
    if ('refused' in reader) {
      deps.logger.info({ ...log, reason: reader.refused }, 'link not previewed');
      return;
    }
    if ('connect' in reader) {
      // Shown to the paster alone: it takes no turn from a colleague who can preview the link.
      await client.chat.unfurl({
        ...target,
        unfurls: {},
        user_auth_required: true,
        user_auth_url: connectUrl(svc, args.body.api_app_id, args.context.teamId),
        user_auth_message: CONNECT_MESSAGE,
      });
      return;
    }
    // A link the person cannot read (another organization's, deleted) is simply not previewed.
    const entities = (
      await Promise.all(
        ours.map(async (link) => {
          try {
            if (inComposer) return await previewOf(svc, reader.acting, link, false);
            const fresh = await previewInWindow(svc, reader.acting, workspaceId, event.channel, link);
            if (fresh) claimed.push(fresh.key);
            return fresh?.entity;
          } catch (error) {
            deps.logger.info({ ...log, kind: link.thing.kind, err: error }, 'link not readable');
            return undefined;
          }
        }),
      )
    ).filter((e): e is EntityMetadata => e !== undefined);
    if (entities.length === 0) {
      deps.logger.debug(log, 'links already previewed in this channel, or not readable');
      return;
    }
    await client.chat.unfurl({ ...target, metadata: { entities } });
  } catch (error) {
    deps.logger.warn({ ...log, err: error }, 'could not preview the link');
    await release(svc, claimed);
  }
}

/** Gives the links' turns back (nothing was previewed): a colleague's paste may preview them. */
async function release(svc: Services, keys: readonly string[]) {
  for (const key of keys) {
    await svc.deps.store.once.abandon(key).catch((error: unknown) => {
      svc.deps.logger.warn({ action: 'link preview', err: error }, 'could not release a link preview');
    });
  }
}

async function entityDetails(svc: Services, args: EventArgs<'entity_details_requested'>): Promise<void> {
  const { deps } = svc;
  const { event } = args;
  if (!previewsOn(svc)) return;
  const workspaceId = workspaceIdFor(args.context);
  const log = { action: 'link details', workspaceId };
  const url = event.app_unfurl_url ?? event.link.url;
  const thing = parseEntityRefId(event.external_ref?.id) ?? linkedThing(deps.config, url);
  if (!thing) {
    deps.logger.info(log, 'details asked for an entity that is not ours');
    return;
  }
  const client = args.client as WebClient;
  const trigger = { trigger_id: event.trigger_id };
  const connect = {
    ...trigger,
    user_auth_required: true,
    user_auth_url: connectUrl(svc, args.body.api_app_id, args.context.teamId),
  };
  // Slack's documented error for the flexpane: 'custom', with a title and a message of our own.
  const cannotSee = {
    ...trigger,
    error: {
      status: 'custom',
      custom_title: 'Not available to you',
      custom_message: 'Your planning account cannot see this, or it no longer exists.',
    },
  };
  try {
    const home = { teamId: args.context.teamId, enterpriseId: args.context.enterpriseId };
    const planning = planningContextFor(svc.identities, client, workspaceId, home, event.user);
    const reader = await readerOf(svc, planning, log.action);
    if ('refused' in reader) {
      deps.logger.info({ ...log, reason: reader.refused }, 'details not shown');
      await client.entity.presentDetails(cannotSee);
    } else if ('connect' in reader) {
      await client.entity.presentDetails(connect);
    } else {
      const answer = await previewOf(svc, reader.acting, entityLink(deps.config, thing, url), true).then(
        (metadata) => ({ ...trigger, metadata }),
        // A token refused now leads to connect; anything else (not found, forbidden) is not shown.
        (error: unknown) =>
          connectOrThrow(svc, planning, error, log.action).then(
            () => connect,
            () => cannotSee,
          ),
      );
      await client.entity.presentDetails(answer);
    }
  } catch (error) {
    deps.logger.warn({ ...log, err: error }, 'could not show the details');
  }
}

export const unfurlRoutes: TopicRoutes<Services> = {
  topic: 'unfurl',
  // Slack's own events; each reads with the asking person's account, checked here.
  gate: { access: 'anyone' },
  events: { link_shared: linkShared, entity_details_requested: entityDetails },
};
