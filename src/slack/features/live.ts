/**
 * Feature cards as live cards: read with the acting user's own client, rendered by the pure card
 * builder, as the change funnel reads them (kit/changes/), and pressed once (kit/press.ts). Advance
 * and Delete are presses; forms that change a feature tell the funnel what they changed.
 */

import type { Context } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { type Mrkdwn, md } from '../../blockkit/index.js';
import { ForbiddenError } from '../../planning/index.js';
import type { Feature } from '../../planning/models.js';
import { STAGE_NAMES } from '../../planning/stages.js';
import type { ActionArgs } from '../bolt/routes.js';
import { type PlanningContext, planningOf } from '../kit/acting.js';
import type { CardSources, FeatureFacts, OnCard } from '../kit/changes/index.js';
import type { SlackDeps } from '../kit/deps.js';
import { refusal } from '../kit/failures.js';
import type { Acting, CardReader } from '../kit/identity.js';
import { type CardRef, postCard } from '../kit/live-cards.js';
import { notice } from '../kit/messages.js';
import { type ModalRequest, modalRequest, noticeView } from '../kit/modal.js';
import { peopleOf } from '../kit/people.js';
import { applyPress, type LiveCard, type Press, pressCard, type Shown } from '../kit/press.js';
import type { Services } from '../kit/services.js';
import { FormProblem } from '../kit/submission.js';
import { privateSurface } from '../kit/surfaces.js';
import { openUrl } from '../kit/web-links.js';
import { type FeatureCoords, type FeatureView, featureCard, featureShown } from './card.js';

export function featureRef(workspaceId: string, featureId: string): CardRef {
  return { workspaceId, kind: 'feature', entityId: featureId };
}

/** The feature as a card shows it: read, with the Slack users behind its experiments' authors. */
export async function readFeatureView(
  svc: { deps: Pick<SlackDeps, 'store' | 'config'> },
  acting: CardReader,
  coords: FeatureCoords,
): Promise<FeatureView> {
  const feature = await acting.planning.features.read(coords.teamId, coords.channelId, coords.featureId);
  const participants = await svc.deps.store.participants.get(
    acting.workspaceId,
    feature.assumptions.map((a) => a.id),
  );
  const authors = new Set([
    ...feature.assumptions.flatMap((a) => a.experiment?.authorUserIds ?? []),
    ...Object.values(participants).flat(),
  ]);
  const people = (await peopleOf(svc.deps, acting.workspaceId, authors)).asRecord();
  return { coords, feature, people, participants, ...openUrl(svc.deps.config, 'feature', coords) };
}

/** The feature as the change funnel is given it: its card, and what the DM rules read of it. */
export function featureOnCard(view: FeatureView): OnCard<FeatureFacts> {
  const { feature } = view;
  return {
    body: featureCard(view),
    facts: {
      id: feature.id,
      stage: feature.stage,
      ...(feature.heading ? { heading: feature.heading } : {}),
      ...(feature.authorUserId ? { authorUserId: feature.authorUserId } : {}),
    },
  };
}

/** How the change funnel reads a feature as its cards show it (given at composition, src/slack/changes.ts). */
export const featureCards =
  (deps: Pick<SlackDeps, 'store' | 'config'>): CardSources['feature'] =>
  async (reader, place) =>
    featureOnCard(await readFeatureView({ deps }, reader, place));

export function featureLiveCard(
  svc: Services,
  workspaceId: string,
  coords: FeatureCoords,
): LiveCard<FeatureView> {
  return {
    ref: featureRef(workspaceId, coords.featureId),
    place: { teamId: coords.teamId, channelId: coords.channelId, featureId: coords.featureId },
    noun: 'feature',
    read: (acting) => readFeatureView(svc, acting, coords),
    known: (view) => ({ feature: featureOnCard(view) }),
    shown: (view) => featureShown(view.feature),
    describe: (_before: Shown, after: Shown) =>
      md`it is now in *${STAGE_NAMES[after.stage as keyof typeof STAGE_NAMES] ?? after.stage ?? '?'}*`,
  };
}

/**
 * A form's change refused by a rule of the service (403: "Features in deep context are read-only"):
 * the form comes back with the service's own words, nothing else done.
 */
export async function refusedOnForm<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ForbiddenError) throw new FormProblem(refusal(error));
    throw error;
  }
}

/** The service's own words when it refuses, in one private sentence. */
function refused(error: ForbiddenError, fallback: Mrkdwn): Mrkdwn {
  return error.serviceMessage ? refusal(error) : fallback;
}

/**
 * Advance, pressed on a card, a list or the digest (after its confirmation dialog). `stage` is the
 * stage the pressed button showed: a press made on a card that no longer shows it (a double click,
 * Slack's retry, a change elsewhere) refreshes the card instead of advancing again.
 */
export async function pressAdvance(
  svc: Services,
  args: ActionArgs,
  coords: FeatureCoords,
  stage: string,
  redraw?: Press<FeatureView>['redraw'],
) {
  const { workspaceId } = planningOf(args.context);
  const press: Press<FeatureView> = {
    shown: { stage },
    ...(redraw ? { redraw } : {}),
    apply: async ({ feature }, acting) => {
      try {
        const after = await advance(acting, coords);
        return {
          said: md`:arrow_forward: *${after.heading ?? after.id}* is now in *${STAGE_NAMES[after.stage]}*.`,
          changes: [{ kind: 'stage', from: feature.stage, to: after.stage }],
        };
      } catch (error) {
        if (error instanceof ForbiddenError) {
          svc.deps.logger.info({ action: 'advance feature', featureId: feature.id }, 'advance refused');
          return { said: refused(error, md`The planning service refused to advance it.`) };
        }
        throw error;
      }
    },
  };
  await pressCard(svc, args, featureLiveCard(svc, workspaceId, coords), press);
}

/** Advances the feature one stage (its author hears it from the change funnel); the feature after. */
const advance = (acting: Acting, coords: FeatureCoords) =>
  acting.planning.features.advance(coords.teamId, coords.channelId, coords.featureId);

/**
 * Advance from a workflow step, as `planning`'s person: a press on the feature without a button —
 * under the same lock as a card's Advance (kit/press.ts), so it never runs beside a press, and its
 * cards updated after. Returns the feature advanced, or what stopped it (another press under way,
 * the feature gone). Rejects with the service's refusal as any failure.
 */
export async function advanceAs(
  svc: Services,
  planning: PlanningContext,
  client: WebClient,
  coords: FeatureCoords,
): Promise<{ advanced: Feature } | { said: Mrkdwn }> {
  let advanced: Feature | undefined;
  const said = await applyPress(
    svc,
    { planning, client, replacePressed: async () => false },
    featureLiveCard(svc, planning.workspaceId, coords),
    {
      apply: async ({ feature }, acting) => {
        advanced = await advance(acting, coords);
        return { changes: [{ kind: 'stage', from: feature.stage, to: advanced.stage }] };
      },
    },
  );
  if (advanced) return { advanced };
  return { said: said ?? md`The feature was not advanced.` };
}

/** Posts the feature's live card in a Slack channel, as `planning`'s person reads it; the card's ts. */
export async function postFeatureCard(
  svc: Services,
  planning: PlanningContext,
  client: WebClient,
  coords: FeatureCoords,
  channel: string,
): Promise<{ ts: string; view: FeatureView }> {
  const acting = await planning.acting();
  const view = await readFeatureView(svc, acting, coords);
  const ts = await postCard(
    svc.deps,
    client,
    // Where the feature was just read: a press on the card is checked against it.
    {
      ...featureRef(planning.workspaceId, coords.featureId),
      place: { orgId: acting.identity.orgId, ...coords },
    },
    { channel },
    featureCard(view),
  );
  return { ts, view };
}

/** Delete, pressed on a card or a deep-context result (after its confirmation dialog). */
export async function pressDelete(
  svc: Services,
  args: ActionArgs,
  coords: FeatureCoords,
  stage: string,
  redraw?: Press<FeatureView>['redraw'],
) {
  const { workspaceId } = planningOf(args.context);
  const press: Press<FeatureView> = {
    shown: { stage },
    ...(redraw ? { redraw } : {}),
    apply: async ({ feature }, acting) => {
      const { planning } = acting;
      try {
        // In deep context only owners and admins delete; the deep-context operation says so.
        if (feature.stage === 'deep context') await planning.deepContext.delete(coords.featureId);
        else await planning.features.delete(coords.teamId, coords.channelId, coords.featureId);
      } catch (error) {
        if (error instanceof ForbiddenError) {
          return {
            said:
              feature.stage === 'deep context'
                ? md`Only owners and admins of your organization can delete a feature in deep context.`
                : refused(error, md`The planning service refused to delete it.`),
          };
        }
        throw error;
      }
      return { after: 'deleted', said: md`:wastebasket: *${feature.heading ?? feature.id}* was deleted.` };
    },
  };
  await pressCard(svc, args, featureLiveCard(svc, workspaceId, coords), press);
}

export type Req = ModalRequest & { context: Context };

export const readOnly = (title: string, feature: Feature) =>
  noticeView(
    title,
    md`:lock: *${feature.heading ?? feature.id}* is in deep context: it is read-only, so nothing of it can change.`,
  );

export const gone = (title: string) =>
  noticeView(title, md`That assumption no longer exists (it may have been deleted).`);

const STALE = md`This button is out of date: run \`/plan features\` for fresh cards.`;

export async function stale(args: ActionArgs) {
  await privateSurface(args, planningOf(args.context).slackUserId).show(notice(STALE));
}

export const request = (svc: Services, args: ActionArgs, action: string) =>
  modalRequest(svc, args, args.body.trigger_id, action);
