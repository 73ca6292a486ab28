/**
 * Deep context: the organization's features that reached the last stage, searched by a
 * case-insensitive term in heading or details, read expanded, and deleted by owners and admins.
 * A feature not (yet) in deep context answers 404 here.
 */
import type { AreaHandlers, Ctx } from '../context.js';
import { notFound } from '../errors.js';
import type { FeatureRec } from '../state.js';
import { featureExpandedView, featureView, page } from '../views.js';
import { deleteFeature } from './features.js';

function deepFeature(ctx: Ctx<'featureId'>): FeatureRec {
  const feature = ctx.store.state.features[ctx.params.featureId];
  if (!feature || feature.orgId !== ctx.org.id || feature.stage !== 'deep context') {
    throw notFound('Feature in deep context');
  }
  return feature;
}

export const deepContext: AreaHandlers<'deepContext'> = {
  search: (ctx) => {
    const term = (ctx.query.searchTerm ?? '').toLowerCase();
    const found = ctx.store
      .featuresOf(ctx.org.id)
      .filter((f) => f.stage === 'deep context')
      .filter((f) => `${f.heading}\n${f.details ?? ''}`.toLowerCase().includes(term));
    return page('features', found.map(featureView), ctx.query);
  },

  read: (ctx) => featureExpandedView(ctx.store, deepFeature(ctx)),

  delete: (ctx) => deleteFeature(ctx, deepFeature(ctx)),
};
