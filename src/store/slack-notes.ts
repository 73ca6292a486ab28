/**
 * What Slack itself already did or showed about a service object: a task moved or assigned from a
 * card, a feature advanced from Slack, a discovery recorded from a thread reply. The watch of linked
 * channels (src/watch) reads these notes before it announces a change it found in the service, so
 * a change made from Slack is never echoed back into Slack nor DMed twice.
 *
 * A note is a short text key (the watch names them: `noteOf` in src/watch/changes.ts) kept per
 * workspace with the time it was made; only a note made after the watch last looked counts, so an
 * old note never hides a later change back to the same value. Notes are only ever added and purged.
 */
import { z } from 'zod';
import { compiledStatement } from './compiled.js';
import type { RepoContext } from './context.js';
import { parseInput } from './errors.js';

export interface SlackNotesRepo {
  /** Notes what Slack did (again: its time moves to now). */
  note(workspaceId: string, notes: readonly string[]): Promise<void>;
  /** Which of `notes` were made at or after `since` (epoch ms). */
  since(workspaceId: string, notes: readonly string[], since: number): Promise<Set<string>>;
  /** Deletes notes older than `days` days; returns how many went. */
  purgeOlderThan(days: number): Promise<number>;
}

/** Notes one call takes or asks about at most (each is a bound parameter). */
export const MAX_NOTES = 500;
const notesInput = z.object({
  workspaceId: z.string().min(1),
  notes: z.array(z.string().min(1).max(500)).max(MAX_NOTES),
});

/** One note, as a change made from Slack most often writes (compiled once; more notes vary the statement's shape). */
const noteOne = compiledStatement(3, (db, workspaceId: string, note: string, at: number) =>
  db
    .insertInto('slack_notes')
    .values({ workspace_id: workspaceId, note, created_at: at })
    .onConflict((oc) => oc.columns(['workspace_id', 'note']).doUpdateSet({ created_at: at })),
);

export function createSlackNotesRepo({ db, now }: RepoContext): SlackNotesRepo {
  return {
    async note(workspaceId, notes) {
      const v = parseInput(notesInput, { workspaceId, notes: [...new Set(notes)] }, 'Slack notes');
      if (v.notes.length === 0) return;
      const at = now();
      if (v.notes.length === 1) {
        await noteOne.run(db, v.workspaceId, v.notes[0]!, at);
        return;
      }
      await db
        .insertInto('slack_notes')
        .values(v.notes.map((note) => ({ workspace_id: v.workspaceId, note, created_at: at })))
        .onConflict((oc) => oc.columns(['workspace_id', 'note']).doUpdateSet({ created_at: at }))
        .execute();
    },

    async since(workspaceId, notes, since) {
      const v = parseInput(notesInput, { workspaceId, notes: [...new Set(notes)] }, 'Slack notes');
      if (v.notes.length === 0) return new Set();
      const rows = await db
        .selectFrom('slack_notes')
        .select('note')
        .where('workspace_id', '=', v.workspaceId)
        .where('note', 'in', v.notes)
        .where('created_at', '>=', since)
        .execute();
      return new Set(rows.map((r) => r.note));
    },

    async purgeOlderThan(days) {
      const result = await db
        .deleteFrom('slack_notes')
        .where('created_at', '<', now() - days * 24 * 60 * 60 * 1000)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
