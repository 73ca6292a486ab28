/**
 * The plan as a channel canvas (issue 37): one row per linked Slack channel whose canvas was ever
 * turned on — the canvas's id, whether a change waits to be shown (`dirtyAt`), the last edit (the
 * debounce), each feature's section digest as last written, and what Slack refused.
 */
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { compiledStatement } from './compiled.js';
import { fromFlag, type RepoContext, toFlag, touched } from './context.js';
import { parseInput } from './errors.js';
import type { ChannelCanvasesTable } from './schema.js';

export type CanvasStatus = 'live' | 'gone' | 'refused';
export type CanvasKind = 'channel' | 'tab';

export interface ChannelCanvas {
  workspaceId: string;
  slackChannelId: string;
  enabled: boolean;
  turnedOnBy: string;
  canvasId?: string;
  kind?: CanvasKind;
  status: CanvasStatus;
  /** Slack's error code for the last refusal. */
  problem?: string;
  /** The first change not shown yet; absent when up to date. */
  dirtyAt?: number;
  editedAt?: number;
  /** Each feature's section as last written: [its place (stage and id), digest], in order. */
  sections: [string, string][];
}

export interface ChannelCanvasesRepo {
  get(workspaceId: string, slackChannelId: string): Promise<ChannelCanvas | undefined>;
  /** Whether each of these channels keeps its canvas on (for the settings' checkboxes). */
  enabledIn(workspaceId: string, slackChannelIds: readonly string[]): Promise<Set<string>>;
  /**
   * Turns it on, by `slackUserId`: a canvas deleted in Slack or refused before may be made again,
   * and a refusal is told again. Waits for its first edit.
   */
  turnOn(workspaceId: string, slackChannelId: string, slackUserId: string): Promise<ChannelCanvas>;
  /** Turns it off (the canvas stays known, so turning it on again edits it); the row as it was. */
  turnOff(workspaceId: string, slackChannelId: string): Promise<ChannelCanvas | undefined>;
  /** The canvas Slack made for the channel. */
  created(workspaceId: string, slackChannelId: string, canvasId: string, kind: CanvasKind): Promise<void>;
  /** Slack refused (`code`): true the first time this code is recorded (it is then told). */
  refused(workspaceId: string, slackChannelId: string, code: string): Promise<boolean>;
  /** Deleted in Slack: forgotten and not made again until turned on again. */
  gone(workspaceId: string, slackChannelId: string): Promise<void>;
  /**
   * A change in the planning channel `teamId`/`channelId`: every canvas on of a Slack channel linked
   * to it waits for an edit. The Slack channels marked.
   */
  markDirty(workspaceId: string, place: { teamId: string; channelId: string }): Promise<string[]>;
  /** Waits for an edit (the canvas just turned on, or a whole refresh asked for). */
  markChannelDirty(workspaceId: string, slackChannelId: string): Promise<void>;
  /**
   * Brought up to date as of `startedAt` with `sections`: no longer waiting, unless a change came
   * after `startedAt` (then the next edit shows it).
   */
  edited(
    workspaceId: string,
    slackChannelId: string,
    outcome: { sections: [string, string][]; startedAt: number; edit: boolean },
  ): Promise<void>;
  /** Canvases waiting, not edited after `editedBefore` (epoch ms), oldest change first, across workspaces. */
  listDue(options: { editedBefore: number; limit: number }): Promise<ChannelCanvas[]>;
  /** The link removed: its row goes. */
  delete(workspaceId: string, slackChannelId: string): Promise<boolean>;
  /** The app uninstalled: every canvas id of the workspace forgotten. */
  forgetWorkspace(workspaceId: string): Promise<number>;
}

const place = z.object({ workspaceId: z.string().min(1), slackChannelId: z.string().min(1) });
const sectionsSchema = z.array(z.tuple([z.string(), z.string()]));

function rowToCanvas(row: Selectable<ChannelCanvasesTable>): ChannelCanvas {
  let sections: [string, string][] = [];
  if (row.sections) {
    const parsed = sectionsSchema.safeParse(JSON.parse(row.sections));
    if (parsed.success) sections = parsed.data;
  }
  return {
    workspaceId: row.workspace_id,
    slackChannelId: row.slack_channel_id,
    enabled: fromFlag(row.enabled),
    turnedOnBy: row.turned_on_by,
    ...(row.canvas_id ? { canvasId: row.canvas_id } : {}),
    ...(row.canvas_kind ? { kind: row.canvas_kind as CanvasKind } : {}),
    status: row.status as CanvasStatus,
    ...(row.problem ? { problem: row.problem } : {}),
    ...(row.dirty_at === null ? {} : { dirtyAt: Number(row.dirty_at) }),
    ...(row.edited_at === null ? {} : { editedAt: Number(row.edited_at) }),
    sections,
  };
}

/**
 * Every canvas on of a Slack channel linked to the planning channel waits for an edit: run for every
 * change made from Slack, whether or not any canvas is on (compiled once).
 */
const markLinkedDirty = compiledStatement(
  4,
  (db, workspaceId: string, teamId: string, channelId: string, at: number) =>
    db
      .updateTable('channel_canvases')
      .set((eb) => ({ dirty_at: eb.fn.coalesce('dirty_at', eb.val(at)) }))
      .where('workspace_id', '=', workspaceId)
      .where('enabled', '=', 1)
      .where('status', '=', 'live')
      .where(
        'slack_channel_id',
        'in',
        db
          .selectFrom('channel_links')
          .select('slack_channel_id')
          .where('workspace_id', '=', workspaceId)
          .where('team_id', '=', teamId)
          .where('channel_id', '=', channelId),
      )
      .returning('slack_channel_id'),
);

export function createChannelCanvasesRepo({ db, now }: RepoContext): ChannelCanvasesRepo {
  const row = (workspaceId: string, slackChannelId: string) =>
    db
      .selectFrom('channel_canvases')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('slack_channel_id', '=', slackChannelId);
  const update = (workspaceId: string, slackChannelId: string) =>
    db
      .updateTable('channel_canvases')
      .where('workspace_id', '=', workspaceId)
      .where('slack_channel_id', '=', slackChannelId);

  const repo: ChannelCanvasesRepo = {
    async get(workspaceId, slackChannelId) {
      const found = await row(workspaceId, slackChannelId).executeTakeFirst();
      return found ? rowToCanvas(found) : undefined;
    },

    async enabledIn(workspaceId, slackChannelIds) {
      if (slackChannelIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('channel_canvases')
        .select('slack_channel_id')
        .where('workspace_id', '=', workspaceId)
        .where('slack_channel_id', 'in', [...slackChannelIds])
        .where('enabled', '=', 1)
        .execute();
      return new Set(rows.map((r) => r.slack_channel_id));
    },

    async turnOn(workspaceId, slackChannelId, slackUserId) {
      parseInput(place, { workspaceId, slackChannelId }, 'canvas');
      const at = now();
      await db
        .insertInto('channel_canvases')
        .values({
          workspace_id: workspaceId,
          slack_channel_id: slackChannelId,
          enabled: 1,
          turned_on_by: slackUserId,
          status: 'live',
          dirty_at: at,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'slack_channel_id']).doUpdateSet({
            enabled: 1,
            turned_on_by: slackUserId,
            status: 'live',
            problem: null,
            dirty_at: at,
            updated_at: at,
          }),
        )
        .execute();
      return (await repo.get(workspaceId, slackChannelId))!;
    },

    async turnOff(workspaceId, slackChannelId) {
      const before = await repo.get(workspaceId, slackChannelId);
      if (!before) return undefined;
      await update(workspaceId, slackChannelId)
        // Its content is no longer what was written (a last line is added): turned on again, it is
        // written whole.
        .set({ enabled: toFlag(false), dirty_at: null, sections: null, updated_at: now() })
        .execute();
      return before;
    },

    async created(workspaceId, slackChannelId, canvasId, kind) {
      await update(workspaceId, slackChannelId)
        .set({
          canvas_id: canvasId,
          canvas_kind: kind,
          status: 'live',
          problem: null,
          sections: null,
          updated_at: now(),
        })
        .execute();
    },

    async refused(workspaceId, slackChannelId, code) {
      const result = await update(workspaceId, slackChannelId)
        .set({ status: 'refused', problem: code, dirty_at: null, updated_at: now() })
        .where((eb) => eb.or([eb('problem', 'is', null), eb('problem', '<>', code)]))
        .executeTakeFirst();
      if (touched(result)) return true;
      await update(workspaceId, slackChannelId).set({ status: 'refused', dirty_at: null }).execute();
      return false;
    },

    async gone(workspaceId, slackChannelId) {
      await update(workspaceId, slackChannelId)
        .set({
          status: 'gone',
          canvas_id: null,
          canvas_kind: null,
          sections: null,
          dirty_at: null,
          updated_at: now(),
        })
        .execute();
    },

    async markDirty(workspaceId, { teamId, channelId }) {
      const { rows } = await markLinkedDirty.run(db, workspaceId, teamId, channelId, now());
      return rows.map((r) => r.slack_channel_id);
    },

    async markChannelDirty(workspaceId, slackChannelId) {
      await update(workspaceId, slackChannelId)
        .set((eb) => ({ dirty_at: eb.fn.coalesce('dirty_at', eb.val(now())) }))
        .where('enabled', '=', 1)
        .execute();
    },

    async edited(workspaceId, slackChannelId, { sections, startedAt, edit }) {
      await update(workspaceId, slackChannelId)
        .set({
          sections: JSON.stringify(sections),
          ...(edit ? { edited_at: now() } : {}),
          updated_at: now(),
        })
        .execute();
      await update(workspaceId, slackChannelId)
        .set({ dirty_at: null })
        .where('dirty_at', '<=', startedAt)
        .execute();
    },

    async listDue({ editedBefore: before, limit }) {
      const rows = await db
        .selectFrom('channel_canvases')
        .selectAll()
        .where('dirty_at', 'is not', null)
        .where('enabled', '=', 1)
        .where('status', '=', 'live')
        .where((eb) => eb.or([eb('edited_at', 'is', null), eb('edited_at', '<=', before)]))
        .orderBy('dirty_at')
        .limit(limit)
        .execute();
      return rows.map(rowToCanvas);
    },

    async delete(workspaceId, slackChannelId) {
      const result = await db
        .deleteFrom('channel_canvases')
        .where('workspace_id', '=', workspaceId)
        .where('slack_channel_id', '=', slackChannelId)
        .executeTakeFirst();
      return touched(result);
    },

    async forgetWorkspace(workspaceId) {
      const result = await db
        .deleteFrom('channel_canvases')
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
  return repo;
}
