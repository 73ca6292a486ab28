/**
 * Features of a channel. Any member of the organization plans: create, update, advance and delete
 * — except that a feature in deep context is read-only and only an owner or admin deletes it.
 * Advancing when the stage's condition is not met answers 403 `not-allowed` with the reason.
 */
import { FEATURE_STAGES, type FeatureStage } from '../../planning/models.js';
import type { AreaHandlers, Ctx } from '../context.js';
import { notAllowed } from '../errors.js';
import { changedFields, planningEvent } from '../events.js';
import { requireAdmin } from '../rbac.js';
import { advanceBlocker, nextStage } from '../stages.js';
import type { FeatureRec } from '../state.js';
import { featureLiteView, featureView, page } from '../views.js';

/** The feature addressed by the path `F` = /teams/{teamId}/channels/{channelId}/features/{featureId}. */
export function featureAt(ctx: Ctx<'teamId' | 'channelId' | 'featureId'>): FeatureRec {
  const { teamId, channelId, featureId } = ctx.params;
  return ctx.store.feature(ctx.org.id, teamId, channelId, featureId);
}

/** Deletes a feature; one in deep context only by an owner or admin. */
export function deleteFeature(ctx: Ctx, feature: FeatureRec): true {
  if (feature.stage === 'deep context') requireAdmin(ctx, 'delete features in deep context');
  planningEvent(ctx, feature, 'features', ['deleted']);
  ctx.store.dropFeatures((f) => f.id === feature.id);
  return true;
}

/** The query spells the last stage `deep-context`. */
const stageOf = (filter: string): FeatureStage =>
  FEATURE_STAGES.find((stage) => stage.replace(' ', '-') === filter) ?? 'planning';

export const features: AreaHandlers<'features'> = {
  list: (ctx) => {
    ctx.store.channel(ctx.store.team(ctx.org.id, ctx.params.teamId), ctx.params.channelId);
    const stage = ctx.query.stage === undefined ? undefined : stageOf(ctx.query.stage);
    const found = ctx.store
      .featuresOf(ctx.org.id)
      .filter((f) => f.teamId === ctx.params.teamId && f.channelId === ctx.params.channelId)
      .filter((f) => stage === undefined || f.stage === stage);
    return page('features', found.map(featureLiteView), ctx.query);
  },

  create: (ctx) => {
    const team = ctx.store.team(ctx.org.id, ctx.params.teamId);
    const channel = ctx.store.channel(team, ctx.params.channelId);
    const now = ctx.store.now();
    const feature: FeatureRec = {
      id: ctx.store.nextId(),
      orgId: ctx.org.id,
      teamId: team.id,
      channelId: channel.id,
      heading: ctx.body.heading,
      details: ctx.body.details,
      focus: ctx.body.focus,
      priority: ctx.body.priority ?? 1,
      authorUserId: ctx.actor.id,
      stage: 'planning',
      assumptions: [],
      tasks: [],
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.addFeature(feature);
    planningEvent(ctx, feature, 'features', ['created']);
    return featureView(feature);
  },

  read: (ctx) => featureView(featureAt(ctx)),

  update: (ctx) => {
    const feature = featureAt(ctx);
    const diff = changedFields(feature, ctx.body);
    Object.assign(feature, ctx.body, { updatedAt: ctx.store.now() });
    if (diff.length > 0) planningEvent(ctx, feature, 'features', diff);
    return featureView(feature);
  },

  advance: (ctx) => {
    const feature = featureAt(ctx);
    const blocker = advanceBlocker(feature);
    if (blocker) throw notAllowed(blocker);
    feature.stage = nextStage(feature.stage);
    feature.updatedAt = ctx.store.now();
    planningEvent(ctx, feature, 'features', ['stage']);
    return featureView(feature);
  },

  delete: (ctx) => deleteFeature(ctx, featureAt(ctx)),
};
