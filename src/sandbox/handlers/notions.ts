/**
 * Notions (skills) of the organization. Creating, renaming and deleting are writes on the
 * organization (owner/admin); a value is unique per organization, case-insensitively (400
 * `invalid-argument-value` otherwise). Search is a case-insensitive substring match, sorted by
 * value. Deleting a notion removes every experience on it and takes it off tasks (spec rule 3).
 */
import type { AreaHandlers, Ctx } from '../context.js';
import { invalidArgument } from '../errors.js';
import { requireAdmin } from '../rbac.js';
import { notionView, page } from '../views.js';

function requireUnique(ctx: Ctx, value: string, exceptId?: string): void {
  const taken = ctx.store
    .notionsOf(ctx.org.id)
    .some((n) => n.id !== exceptId && n.value.toLowerCase() === value.toLowerCase());
  if (taken) throw invalidArgument('value', `A notion "${value}" already exists`);
}

export const notions: AreaHandlers<'notions'> = {
  search: (ctx) => {
    const term = (ctx.query.searchTerm ?? '').toLowerCase();
    const found = ctx.store
      .notionsOf(ctx.org.id)
      .filter((n) => n.value.toLowerCase().includes(term))
      .sort((a, b) => a.value.localeCompare(b.value));
    return page('notions', found.map(notionView), ctx.query);
  },

  create: (ctx) => {
    requireAdmin(ctx, 'create notions');
    requireUnique(ctx, ctx.body.value);
    const now = ctx.store.now();
    const notion = {
      id: ctx.store.nextId(),
      orgId: ctx.org.id,
      value: ctx.body.value,
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.state.notions[notion.id] = notion;
    return notionView(notion);
  },

  read: (ctx) => notionView(ctx.store.notion(ctx.org.id, ctx.params.notionId)),

  update: (ctx) => {
    requireAdmin(ctx, 'update notions');
    const notion = ctx.store.notion(ctx.org.id, ctx.params.notionId);
    if (ctx.body.value !== undefined) {
      requireUnique(ctx, ctx.body.value, notion.id);
      notion.value = ctx.body.value;
    }
    notion.updatedAt = ctx.store.now();
    return notionView(notion);
  },

  delete: (ctx) => {
    requireAdmin(ctx, 'delete notions');
    const notion = ctx.store.notion(ctx.org.id, ctx.params.notionId);
    const { state } = ctx.store;
    for (const exp of Object.values(state.experiences)) {
      if (exp.notionId === notion.id) delete state.experiences[exp.id];
    }
    for (const feature of ctx.store.featuresOf(ctx.org.id)) {
      for (const task of feature.tasks) task.notionIds = task.notionIds.filter((id) => id !== notion.id);
    }
    delete state.notions[notion.id];
    return true;
  },
};
