/**
 * Keeps each linked channel's canvas of the plan current (issue 37 items 1, 3, 4).
 *
 * - **Turned on** (the link form, the admin's links section): the channel's own canvas is made
 *   (`conversations.canvases.create`); where the channel has one already or the workspace's plan
 *   cannot make channel canvases, a canvas tabbed in the channel (`canvases.create` with
 *   `channel_id`). What Slack refuses is said to whoever turned it on, once per refusal, and the link
 *   keeps working.
 * - **A change** (one more reflection of the change funnel, kit/changes/): every canvas on of a
 *   Slack channel linked to the change's planning channel waits for an edit (`dirtyAt`, in the
 *   store). Made from Slack, it is brought up to date at once; seen by the watch, once at the end of
 *   the link's turn (the watch's claim: one replica per link); whatever is left — a change within a
 *   minute of the last edit — by the minute tick.
 * - **An edit** is one per channel however many changes came (debounced: a minute between edits),
 *   made under the channel's lock (`store.locks.with`: one replica at a time). The plan is read with
 *   the digest's access rule and rendered (render.ts); each feature's section digest is compared with
 *   the last written: nothing changed, no call; one feature's section changed and the rest in the
 *   same order, that section replaced (`canvases.sections.lookup`, then `canvases.edit` replace with
 *   its `section_id`); anything else, the whole canvas replaced. Slack's one operation per
 *   `canvases.edit` call is kept. Calls go through the one Slack sender, whose posting limiter spaces
 *   canvas edits within their Tier 3 limit and waits out 429s.
 * - **Deleted in Slack** (`canvas_not_found`, `canvas_deleted`): noted, not made again every pass;
 *   turning it on again makes a new one.
 */
import type { WebClient } from '@slack/web-api';
import { channelMention, md } from '../../blockkit/index.js';
import type { Config } from '../../config.js';
import { webLinkTemplates } from '../../config.js';
import type { PlanningAccess } from '../../digest/index.js';
import type { Logger } from '../../logger.js';
import { webLink } from '../../planning/web-links.js';
import { slackErrorCode } from '../../slack-api/index.js';
import { type ChannelCanvas, type ChannelLink, LOCK_LEASE, type Store } from '../../store/index.js';
import type { PlanningChange } from '../kit/changes/index.js';
import { peopleOf } from '../kit/people.js';
import type { CanvasSettings } from '../kit/services.js';
import { directMessage } from '../kit/surfaces.js';
import { type CanvasFeature, NO_LONGER_KEPT, renderCanvas, sectionRef } from './render.js';

/** Least time between two edits of one canvas (several changes within it are one edit). */
export const CANVAS_DEBOUNCE_MS = 60_000;
/** Canvases the minute tick brings up to date at most per pass; the rest wait for the next. */
const MAX_PER_TICK = 500;
/** Workspace URLs remembered at most (then forgotten all at once, and asked again). */
const MAX_TEAM_URLS = 10_000;
/** Planning names read per canvas at most, for assignees not connected to Slack. */
const MAX_NAMES_READ = 500;

/** Slack's refusals that stop a canvas from being made or edited until someone acts. */
export const CANVAS_REFUSALS: Readonly<Record<string, string>> = {
  canvas_disabled_user_team: 'canvases are turned off in this workspace',
  team_tier_cannot_create_channel_canvases: "this workspace's Slack plan cannot make channel canvases",
  free_team_canvas_tab_already_exists: 'the channel already has a canvas tab, and this Slack plan allows one',
  restricted_action: 'a workspace setting keeps apps from making canvases here',
  missing_scope:
    'the app lacks the canvas permissions (canvases:write, canvases:read): reinstall it to grant them',
  not_allowed_token_type:
    'the app lacks the canvas permissions (canvases:write, canvases:read): reinstall it to grant them',
  channel_not_found: 'the app cannot see this channel',
  not_in_channel: 'the app is not in this channel: invite it first',
};
/** A canvas deleted in Slack answers one of these. */
const GONE = new Set(['canvas_not_found', 'canvas_deleted', 'file_not_found', 'file_deleted']);

export type CanvasOutcome = 'edited' | 'section' | 'unchanged' | 'debounced' | 'skipped' | 'busy' | 'failed';

export interface CanvasKeeperDeps {
  store: Store;
  logger: Logger;
  config: Pick<Config, 'PLANNING_WEB_FEATURE_URL' | 'PLANNING_WEB_TASK_URL'>;
  /** The digest's access rule: which planning token reads a link's plan. */
  planningAccessFor(link: ChannelLink): Promise<PlanningAccess | undefined>;
  /** The bot's client in a workspace. */
  slackFor(workspaceId: string): Promise<WebClient | undefined>;
  /** Epoch ms. Default Date.now. */
  now?: () => number;
  debounceMs?: number;
}

/** The link settings' side of the canvas (kit/services.ts), and how changes reach it. */
export interface CanvasKeeper extends CanvasSettings {
  /** The change funnel's reflection: canvases of the change's place wait for an edit; from Slack, made now. */
  changed(change: PlanningChange): Promise<void>;
  /** Brings one channel's canvas up to date, when it waits and its minute is over. Never rejects. */
  bringUpToDate(
    workspaceId: string,
    slackChannelId: string,
    slack?: WebClient,
    options?: { tell?: boolean },
  ): Promise<CanvasOutcome>;
  /** The minute tick: every canvas waiting whose minute is over. */
  tick(): Promise<{ edited: number; unchanged: number; failed: number }>;
}

/** What Slack's error on a canvas call was, for the logs and the person told. */
function codeOf(error: unknown): string | undefined {
  return slackErrorCode(error);
}

export function createCanvasKeeper(deps: CanvasKeeperDeps): CanvasKeeper {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const debounceMs = deps.debounceMs ?? CANVAS_DEBOUNCE_MS;
  const log = deps.logger.child({ component: 'canvas' });
  const templates = webLinkTemplates(deps.config as Config);
  /** Each workspace's URL, for the permalinks of cards. */
  const teamUrls = new Map<string, string>();

  /** The plan of `link` as the canvas shows it, read with the digest's access rule. */
  async function planOf(link: ChannelLink, slack: WebClient) {
    const access = await deps.planningAccessFor(link);
    if (!access) return undefined;
    const planning = access.client;
    const team = await planning.teams.read(link.teamId);
    const channelName = team.channels.find((c) => c.id === link.channelId)?.channelName ?? link.channelId;
    const listed = [];
    for await (const feature of planning.features.list(link.teamId, link.channelId, { pageSize: 500 })) {
      listed.push(feature);
    }
    const people = await peopleOf(
      deps,
      link.workspaceId,
      listed.flatMap((f) => f.tasks.map((t) => t.assigneeUserId)),
    );
    const unconnected = listed.some((f) =>
      f.tasks.some((t) => t.assigneeUserId && !people.slackUserOf(t.assigneeUserId)),
    );
    const names = new Map<string, string>();
    if (unconnected) {
      try {
        for await (const member of planning.channels.listMembers(link.teamId, link.channelId, {
          pageSize: 100,
        })) {
          if (member.userName) names.set(member.id, member.userName);
          if (names.size >= MAX_NAMES_READ) break;
        }
      } catch (error) {
        log.warn({ workspaceId: link.workspaceId, err: error }, 'could not read the channel members’ names');
      }
    }
    // A feature's card: the first one posted, linked by its permalink (built from the workspace's URL,
    // asked once per workspace: it changes only when the workspace is renamed).
    let teamUrl = teamUrls.get(link.workspaceId);
    if (teamUrl === undefined) {
      try {
        teamUrl = ((await slack.auth.test()) as { url?: string }).url;
      } catch {
        teamUrl = undefined;
      }
      if (teamUrl) {
        if (teamUrls.size >= MAX_TEAM_URLS) teamUrls.clear();
        teamUrls.set(link.workspaceId, teamUrl);
      }
    }
    const features: CanvasFeature[] = [];
    for (const f of listed) {
      const card = teamUrl ? (await store.cards.list(link.workspaceId, 'feature', f.id))[0] : undefined;
      features.push({
        id: f.id,
        ...(f.heading ? { heading: f.heading } : {}),
        stage: f.stage,
        ...(f.priority === undefined ? {} : { priority: f.priority }),
        ...(f.focus ? { focus: f.focus } : {}),
        assumptions: f.assumptions.map((a) => ({ state: a.experiment?.state ?? 'idle' })),
        tasks: f.tasks.map((t) => {
          const slackUserId = people.slackUserOf(t.assigneeUserId);
          const name = t.assigneeUserId ? names.get(t.assigneeUserId) : undefined;
          return {
            ...(t.heading ? { heading: t.heading } : {}),
            state: t.state,
            ...(t.assigneeUserId
              ? { assignee: { ...(slackUserId ? { slackUserId } : {}), ...(name ? { name } : {}) } }
              : {}),
          };
        }),
        ...(card && teamUrl
          ? { cardUrl: `${teamUrl}archives/${card.slackChannelId}/p${card.messageTs.replace('.', '')}` }
          : {}),
        ...(templates.feature
          ? {
              webUrl: webLink('feature', templates.feature, {
                teamId: link.teamId,
                channelId: link.channelId,
                featureId: f.id,
              }),
            }
          : {}),
      });
    }
    return renderCanvas({
      teamName: team.teamName ?? link.teamId,
      channelName,
      at: new Date(now()),
      timeZone: link.timeZone,
      features,
    });
  }

  /** Tells whoever turned the canvas on what Slack refused, once per refusal (a DM from the bot). */
  async function tellRefusal(row: ChannelCanvas, code: string, slack: WebClient, tell: boolean) {
    if (!(await store.canvases.refused(row.workspaceId, row.slackChannelId, code)) || !tell) return;
    const why = CANVAS_REFUSALS[code] ?? `Slack refused it (${code})`;
    try {
      await directMessage(slack, row.turnedOnBy, {
        text: md`The plan's canvas of ${channelMention(row.slackChannelId)} cannot be kept: ${why}. The link keeps working; turn the canvas on again once this is fixed.`
          .text,
      });
    } catch (error) {
      log.warn({ workspaceId: row.workspaceId, err: error }, 'could not tell a canvas refusal');
    }
  }

  /** Makes the channel's canvas with `markdown`: its own canvas, else one tabbed in it. */
  async function create(row: ChannelCanvas, title: string, markdown: string, slack: WebClient) {
    const document_content = { type: 'markdown' as const, markdown };
    try {
      const made = await slack.conversations.canvases.create({
        channel_id: row.slackChannelId,
        title,
        document_content,
      });
      await store.canvases.created(row.workspaceId, row.slackChannelId, made.canvas_id!, 'channel');
      return;
    } catch (error) {
      const code = codeOf(error);
      if (code !== 'channel_canvas_already_exists' && code !== 'team_tier_cannot_create_channel_canvases') {
        throw error;
      }
    }
    const made = await slack.canvases.create({ channel_id: row.slackChannelId, title, document_content });
    await store.canvases.created(row.workspaceId, row.slackChannelId, made.canvas_id!, 'tab');
  }

  /** One edit (or none) of a canvas waiting; under the channel's lock. */
  async function edit(row: ChannelCanvas, slack: WebClient): Promise<CanvasOutcome> {
    const startedAt = now();
    const link = await store.links.get(row.workspaceId, row.slackChannelId);
    if (!link) return 'skipped';
    const rendered = await planOf(link, slack);
    if (!rendered) {
      log.warn({ workspaceId: row.workspaceId }, 'no planning account reads this channel: its canvas waits');
      return 'skipped';
    }
    // Each section by its place (stage and feature): one section alone may be replaced only when every
    // feature stands where it stood, so that no stage's heading or count changes with it.
    const sections = rendered.sections.map((s): [string, string] => [s.place, s.hash]);
    if (!row.canvasId) {
      await create(row, rendered.title, rendered.markdown, slack);
      // Made, not edited: the first change after it is shown at once.
      await store.canvases.edited(row.workspaceId, row.slackChannelId, { sections, startedAt, edit: false });
      return 'edited';
    }
    const before = row.sections;
    const sameOrder = before.length === sections.length && before.every(([id], i) => id === sections[i]![0]);
    const changed = sameOrder ? sections.filter(([, hash], i) => hash !== before[i]![1]) : undefined;
    if (changed && changed.length === 0) {
      await store.canvases.edited(row.workspaceId, row.slackChannelId, { sections, startedAt, edit: false });
      return 'unchanged';
    }
    if (changed && changed.length === 1) {
      const featureId = rendered.sections[sections.indexOf(changed[0]!)]!.featureId;
      const found = await slack.canvases.sections.lookup({
        canvas_id: row.canvasId,
        criteria: { section_types: ['h3'], contains_text: sectionRef(featureId) },
      });
      const ids = (found.sections ?? []).map((s) => s.id).filter((id): id is string => Boolean(id));
      if (ids.length === 1) {
        const section = rendered.sections.find((s) => s.featureId === featureId)!;
        await slack.canvases.edit({
          canvas_id: row.canvasId,
          changes: [
            {
              operation: 'replace',
              section_id: ids[0]!,
              document_content: { type: 'markdown', markdown: section.markdown },
            },
          ],
        });
        await store.canvases.edited(row.workspaceId, row.slackChannelId, { sections, startedAt, edit: true });
        return 'section';
      }
    }
    await slack.canvases.edit({
      canvas_id: row.canvasId,
      changes: [
        { operation: 'replace', document_content: { type: 'markdown', markdown: rendered.markdown } },
      ],
    });
    await store.canvases.edited(row.workspaceId, row.slackChannelId, { sections, startedAt, edit: true });
    return 'edited';
  }

  async function bringUpToDate(
    workspaceId: string,
    slackChannelId: string,
    given?: WebClient,
    { tell = true }: { tell?: boolean } = {},
  ): Promise<CanvasOutcome> {
    try {
      const locked = await store.locks.with(
        `canvas:${workspaceId}:${slackChannelId}`,
        LOCK_LEASE.canvasEdit,
        async (): Promise<CanvasOutcome> => {
          const row = await store.canvases.get(workspaceId, slackChannelId);
          if (!row?.enabled || row.status !== 'live' || row.dirtyAt === undefined) return 'skipped';
          if (row.editedAt !== undefined && now() - row.editedAt < debounceMs) return 'debounced';
          const slack = given ?? (await deps.slackFor(workspaceId));
          if (!slack) return 'skipped';
          try {
            return await edit(row, slack);
          } catch (error) {
            const code = codeOf(error);
            if (code && GONE.has(code)) {
              await store.canvases.gone(workspaceId, slackChannelId);
              log.info({ workspaceId, code }, 'the channel’s canvas was deleted in Slack: not made again');
              return 'skipped';
            }
            if (code && code in CANVAS_REFUSALS) {
              await tellRefusal(row, code, slack, tell);
              return 'failed';
            }
            throw error;
          }
        },
      );
      return locked.ran ? locked.value : 'busy';
    } catch (error) {
      log.warn({ workspaceId, err: error }, 'could not bring a channel canvas up to date');
      return 'failed';
    }
  }

  /** The canvas's last line, saying it is no longer kept current; or the canvas deleted. */
  async function retire(row: ChannelCanvas, slack: WebClient, how: 'leave' | 'delete') {
    if (!row.canvasId) return;
    try {
      if (how === 'delete') await slack.canvases.delete({ canvas_id: row.canvasId });
      else {
        await slack.canvases.edit({
          canvas_id: row.canvasId,
          changes: [
            { operation: 'insert_at_end', document_content: { type: 'markdown', markdown: NO_LONGER_KEPT } },
          ],
        });
      }
    } catch (error) {
      const code = codeOf(error);
      if (!(code && GONE.has(code)))
        log.warn({ workspaceId: row.workspaceId, err: error }, 'could not retire a canvas');
    }
  }

  return {
    async turnOn(workspaceId, slackChannelId, slackUserId, slack) {
      const before = await store.canvases.get(workspaceId, slackChannelId);
      if (before?.enabled && before.status === 'live' && before.canvasId) {
        return 'The plan is kept in the channel’s canvas.';
      }
      await store.canvases.turnOn(workspaceId, slackChannelId, slackUserId);
      // Told in the answer to whoever turned it on, not in a DM besides.
      const outcome = await bringUpToDate(workspaceId, slackChannelId, slack, { tell: false });
      const row = await store.canvases.get(workspaceId, slackChannelId);
      if (row?.status === 'refused' && row.problem) {
        return `The plan cannot be kept in a canvas: ${CANVAS_REFUSALS[row.problem] ?? `Slack refused it (${row.problem})`}.`;
      }
      if (outcome === 'edited' && row?.canvasId) {
        return row.kind === 'tab'
          ? 'The plan is kept in a canvas tabbed in the channel (the channel’s own canvas was taken).'
          : 'The plan is kept in the channel’s canvas.';
      }
      return 'The plan’s canvas will be made shortly.';
    },

    async turnOff(workspaceId, slackChannelId, slack, how) {
      const row = await store.canvases.turnOff(workspaceId, slackChannelId);
      if (!row?.enabled) return undefined;
      const client = slack ?? (await deps.slackFor(workspaceId));
      if (client && row.status === 'live') await retire(row, client, how);
      if (how === 'delete') await store.canvases.gone(workspaceId, slackChannelId);
      return how === 'delete'
        ? 'The plan’s canvas was deleted.'
        : 'The plan’s canvas stays, no longer kept current.';
    },

    async unlinked(workspaceId, slackChannelId, slack) {
      const row = await store.canvases.get(workspaceId, slackChannelId);
      const client =
        row?.enabled && row.status === 'live' ? (slack ?? (await deps.slackFor(workspaceId))) : undefined;
      if (row && client) await retire(row, client, 'leave');
      await store.canvases.delete(workspaceId, slackChannelId);
    },

    async changed(change) {
      const marked = await store.canvases.markDirty(change.workspaceId, change.place);
      if (change.origin.from !== 'slack') return;
      for (const slackChannelId of marked)
        await bringUpToDate(change.workspaceId, slackChannelId, change.slack);
    },

    bringUpToDate,

    async tick() {
      const report = { edited: 0, unchanged: 0, failed: 0 };
      const due = await store.canvases.listDue({ editedBefore: now() - debounceMs, limit: MAX_PER_TICK });
      for (const row of due) {
        const outcome = await bringUpToDate(row.workspaceId, row.slackChannelId);
        if (outcome === 'edited' || outcome === 'section') report.edited += 1;
        else if (outcome === 'unchanged') report.unchanged += 1;
        else if (outcome === 'failed') report.failed += 1;
      }
      return report;
    },
  };
}
