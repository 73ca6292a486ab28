/**
 * Feature cards as live cards: read with the acting user's own client, rendered by the pure card
 * builder, updated in place after any change made from Slack, and pressed once (kit/press.ts).
 * Advance and Delete are presses; forms that change a feature refresh its cards afterwards.
 */

import type { Context } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { type Mrkdwn, md, mention, message, section } from '../../blockkit/index.js';
import { ForbiddenError } from '../../planning/index.js';
import type { Feature } from '../../planning/models.js';
import { STAGE_NAMES } from '../../planning/stages.js';
import { noteOf } from '../../watch/changes.js';
import type { ActionArgs } from '../bolt/routes.js';
import { type PlanningContext, planningOf } from '../kit/acting.js';
import type { SlackDeps } from '../kit/deps.js';
import { refusal } from '../kit/failures.js';
import type { Acting, CardReader } from '../kit/identity.js';
import { type CardRef, postCard, updateCards } from '../kit/live-cards.js';
import { notice } from '../kit/messages.js';
import { type ModalRequest, modalRequest, noticeView } from '../kit/modal.js';
import { notify } from '../kit/notify.js';
import { peopleOf, profileActions, slackUserOf } from '../kit/people.js';
import { applyPress, type LiveCard, type Press, pressCard, type Shown } from '../kit/press.js';
import type { Services } from '../kit/services.js';
import { noteFromSlack } from '../kit/slack-notes.js';
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

/** The note of a feature's stage as Slack shows it after advancing it (src/watch/changes.ts). */
export const stageNote = (feature: Pick<Feature, 'id' | 'stage'>): string =>
  noteOf(feature.id, { kind: 'stage', from: feature.stage, to: feature.stage });

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
    render: featureCard,
    shown: (view) => featureShown(view.feature),
    describe: (_before: Shown, after: Shown) =>
      md`it is now in *${STAGE_NAMES[after.stage as keyof typeof STAGE_NAMES] ?? after.stage ?? '?'}*`,
    // An Advance pressed (or run by a workflow step): the stage it reached, made from Slack.
    notes: (view) => [stageNote(view.feature)],
  };
}

/**
 * After a change made from Slack (a form, a task's press): every card of the feature shows it, and
 * `notes` — what the change was (src/watch/changes.ts `noteOf`) — are written so the watch does not
 * announce it again (kit/slack-notes.ts). Best effort — the change is made; a card that cannot be
 * refreshed is logged, never reported as a failure of the change.
 */
export async function refreshFeatureCards(
  svc: Services,
  client: WebClient,
  acting: Acting,
  coords: FeatureCoords,
  notes: readonly string[] = [],
): Promise<void> {
  const ref = featureRef(acting.workspaceId, coords.featureId);
  await noteFromSlack(svc.deps, acting.workspaceId, notes);
  try {
    if ((await svc.deps.store.cards.list(ref.workspaceId, ref.kind, ref.entityId)).length === 0) return;
    await updateCards(svc.deps, client, ref, featureCard(await readFeatureView(svc, acting, coords)));
  } catch (error) {
    svc.deps.logger.warn({ action: 'refresh feature cards', err: error }, 'could not refresh feature cards');
  }
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
        const after = await advanceFeature(svc, args.client, acting, coords);
        return {
          said: md`:arrow_forward: *${after.heading ?? after.id}* is now in *${STAGE_NAMES[after.stage]}*.`,
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

/** Advances the feature one stage and tells its author; the feature after. */
async function advanceFeature(svc: Services, client: WebClient, acting: Acting, coords: FeatureCoords) {
  const after = await acting.planning.features.advance(coords.teamId, coords.channelId, coords.featureId);
  await tellAuthor(svc, client, acting, after.authorUserId, featureAdvancedDm(after, acting.slackUserId));
  return after;
}

/**
 * The DM telling a feature's author it advanced: who advanced it from Slack, or (no one given) that
 * it was advanced outside Slack — seen by the watch of its channel (src/slack/watch/).
 */
export function featureAdvancedDm(
  feature: Pick<Feature, 'id' | 'heading' | 'stage'>,
  actorSlackId: string | undefined,
): Mrkdwn {
  const by = actorSlackId ? md`advanced by ${mention(actorSlackId)}` : md`advanced outside Slack`;
  return md`:arrow_forward: Your feature *${feature.heading ?? feature.id}* moved to *${STAGE_NAMES[feature.stage]}* (${by}).`;
}

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
      apply: async (_view, acting) => {
        advanced = await advanceFeature(svc, client, acting, coords);
        return {};
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

/** The feature's author hears that it advanced, unless they advanced it themselves. Best effort. */
async function tellAuthor(
  svc: Services,
  client: WebClient,
  acting: Acting,
  authorUserId: string | undefined,
  text: Mrkdwn,
) {
  if (!authorUserId || authorUserId === acting.identity.planningUserId) return;
  try {
    const author = await slackUserOf(svc.deps, acting.workspaceId, authorUserId);
    if (!author) return;
    await notify(
      svc.deps,
      client,
      { workspaceId: acting.workspaceId, slackUserId: author },
      'featureAdvanced',
      // The DM names who advanced it: their planning profile is one press away.
      message(text, [section(text), ...profileActions(acting.slackUserId)]),
    );
  } catch (error) {
    svc.deps.logger.warn({ action: 'feature advanced DM', err: error }, 'could not tell the author');
  }
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
