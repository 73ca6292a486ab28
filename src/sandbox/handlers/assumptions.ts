/**
 * Assumptions of a feature and their experiments. Any member of the organization writes them;
 * whoever updates an experiment joins its authors. Nothing changes in deep context (403, checked by the engine from the endpoint table).
 */
import type { AreaHandlers, Ctx } from '../context.js';
import { changedFields, childChanged } from '../events.js';
import type { AssumptionRec, FeatureRec } from '../state.js';
import { assumptionView, page } from '../views.js';
import { featureAt } from './features.js';

type AssmCtx = Ctx<'teamId' | 'channelId' | 'featureId' | 'assmId'>;

function assumptionAt(ctx: AssmCtx): { feature: FeatureRec; assm: AssumptionRec } {
  const feature = featureAt(ctx);
  return { feature, assm: ctx.store.assumption(feature, ctx.params.assmId) };
}

const touched = (ctx: Ctx, feature: FeatureRec, assm: AssumptionRec, diff: string[]) =>
  childChanged(ctx, feature, 'assumptions', assm, diff);

export const assumptions: AreaHandlers<'assumptions'> = {
  list: (ctx) => page('assumptions', featureAt(ctx).assumptions.map(assumptionView), ctx.query),

  create: (ctx) => {
    const feature = featureAt(ctx);
    const now = ctx.store.now();
    const assm: AssumptionRec = {
      id: ctx.store.nextId(),
      authorUserId: ctx.actor.id,
      heading: ctx.body.heading,
      experiment: { authorUserIds: [], confirmed: false, details: '', state: 'idle' },
      createdAt: now,
      updatedAt: now,
    };
    feature.assumptions.push(assm);
    touched(ctx, feature, assm, ['created']);
    return assumptionView(assm);
  },

  update: (ctx) => {
    const { feature, assm } = assumptionAt(ctx);
    const diff = changedFields(assm, ctx.body);
    Object.assign(assm, ctx.body);
    if (diff.length > 0) touched(ctx, feature, assm, diff);
    return assumptionView(assm);
  },

  delete: (ctx) => {
    const { feature, assm } = assumptionAt(ctx);
    touched(ctx, feature, assm, ['deleted']);
    feature.assumptions = feature.assumptions.filter((a) => a.id !== assm.id);
    return true;
  },

  experiment: (ctx) => {
    const { feature, assm } = assumptionAt(ctx);
    const diff = changedFields(assm.experiment, ctx.body).map((field) => `experiment.${field}`);
    Object.assign(assm.experiment, ctx.body);
    if (!assm.experiment.authorUserIds.includes(ctx.actor.id))
      assm.experiment.authorUserIds.push(ctx.actor.id);
    touched(ctx, feature, assm, diff.length > 0 ? diff : ['experiment']);
    return assumptionView(assm);
  },
};
