/**
 * A button on a live card that changes its entity: a task's state, a feature's (or the digest's)
 * Advance, Delete after its confirmation dialog. A press is applied once:
 * - presses on one entity are serialized across replicas (`store.locks`); one arriving while another
 *   is applied is told so and does nothing;
 * - the press names its entity and where it lives (team, channel, feature); the app recorded where
 *   each card's entity lives when it posted the card. A press that does not match — another place
 *   than the entity's cards were recorded with, another entity than the card it was pressed on, or a
 *   presser acting in another organization than the cards' — is refused: nothing is read or changed;
 * - the button carries what the card showed (`Shown`); a press made on a card that no longer shows
 *   the entity as it is — changed elsewhere, or the second click of a double click — refreshes the
 *   card and says what changed, instead of applying;
 * - a card is retired (one line saying its entity was deleted) only when its entity is gone from the
 *   place recorded for the card, read by someone of the card's organization. A 404 that proves
 *   nothing about any card — no card recorded with a place — is said as it is: not found in the
 *   presser's organization, nothing changed.
 * After a change the change funnel (kit/changes/) updates every card of the entity, notes it for the
 * watch and DMs whom it concerns. A refusal (a role, a stage rule) is explained in one private
 * sentence and the card stays as it was.
 */

import type { WebClient } from '@slack/web-api';
import { type MessageBody, type Mrkdwn, md } from '../../blockkit/index.js';
import { NotFoundError } from '../../planning/index.js';
import { type CardPlace, LOCK_LEASE, type PostedCard } from '../../store/index.js';
import type { FeatureChange } from '../../watch/changes.js';
import type { ActionArgs } from '../bolt/routes.js';
import { type PlanningContext, planningOf } from './acting.js';
import { type KnownCards, madeFromSlack, type PlanningChange } from './changes/index.js';
import type { Acting } from './identity.js';
import type { CardRef } from './live-cards.js';
import { notice } from './messages.js';
import type { Services } from './services.js';
import { privateSurface, showFailure } from './surfaces.js';

/** The facts a card shows that a press depends on, carried in its buttons' values (short strings). */
export type Shown = Readonly<Record<string, string>>;

/** Where a press says its entity lives: its team, channel and feature (a feature's own id). */
export type PressPlace = Omit<CardPlace, 'orgId'>;

export interface LiveCard<T> {
  ref: CardRef;
  /** Where the press says the entity lives: what `read` addresses. */
  place: PressPlace;
  /** What the entity is called in sentences: "task", "feature". */
  noun: string;
  /** The entity as it is now, read with the acting user's own client; undefined when it is gone. */
  read(acting: Acting): Promise<T | undefined>;
  /** The entity as the change funnel is given it: its cards show it without reading it again. */
  known(entity: T): NonNullable<PlanningChange['known']>;
  /** What a card of `entity` shows (see {@link Shown}). */
  shown(entity: T): Shown;
  /** One phrase saying what changed between two shown states ("it is now *in review*"). */
  describe(before: Shown, after: Shown): Mrkdwn;
}

export interface Press<T> {
  /**
   * What the card showed when its button was pressed. A workflow step shows nothing: without it the
   * change applies to the entity as it is when the lock is taken.
   */
  shown?: Shown;
  /**
   * Makes the change. Returns what to tell the presser, the entity after it when known, and what
   * changed (the change funnel's notes and DMs are read off it).
   */
  apply(
    entity: T,
    acting: Acting,
  ): Promise<{ after?: T | 'deleted'; said?: Mrkdwn; changes?: readonly FeatureChange[] }>;
  /**
   * The pressed message again, when it is not a remembered card (an ephemeral list answers through
   * its response_url): given the entity after the change, or undefined once it is gone.
   */
  pressedMessage?(after: T | undefined): MessageBody;
  /**
   * Redraws what the button was pressed on when it is neither a remembered card nor answered through
   * `pressedMessage` (a list, a Details modal, a digest's line): given the entity after the press —
   * changed, refreshed because the button was out of date, or undefined once it is gone. Best
   * effort: a failure is logged, never told as a failure of the press.
   */
  redraw?(after: T | undefined): Promise<void>;
}

/** Shown states are the same when every fact is. */
export function sameShown(a: Shown, b: Shown): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/** The same place: team, channel and feature (the organization is compared on its own). */
function samePlace(recorded: CardPlace, pressed: PressPlace): boolean {
  return (
    recorded.teamId === pressed.teamId &&
    recorded.channelId === pressed.channelId &&
    recorded.featureId === pressed.featureId
  );
}

/** The message the button was pressed on, when it is one in a channel or DM (not ephemeral, not a view). */
export function messagePressedOn(args: ActionArgs): { channel: string; ts: string } | undefined {
  const container = args.body.container as
    | { type?: string; channel_id?: string; message_ts?: string; is_ephemeral?: boolean }
    | undefined;
  if (container?.type !== 'message' || container.is_ephemeral) return undefined;
  const channel = container.channel_id ?? args.body.channel?.id;
  const ts = container.message_ts ?? args.body.message?.ts;
  return channel && ts ? { channel, ts } : undefined;
}

/**
 * Why a press does not match what the app recorded, or undefined when it does: the card it was
 * pressed on is another entity's; or a card of the entity was recorded in another organization
 * than the presser's, or at another place than the press names.
 */
function mismatch(
  noun: string,
  ref: CardRef,
  place: PressPlace,
  orgId: string,
  cards: readonly PostedCard[],
  pressedOn: PostedCard | undefined,
): Mrkdwn | undefined {
  const wrongButton = md`:warning: This button does not match the ${noun} the app recorded for its card, so nothing was changed. Use the ${noun}'s own card, or a fresh list.`;
  if (pressedOn && pressedOn.kind === ref.kind && pressedOn.entityId !== ref.entityId) return wrongButton;
  const placed = cards.flatMap((c) => (c.place ? [c.place] : []));
  if (placed.some((p) => p.orgId !== orgId)) {
    return md`This ${noun} belongs to another planning organization than the one you act in, so nothing was changed.`;
  }
  if (placed.some((p) => !samePlace(p, place))) return wrongButton;
  return undefined;
}

/** What every press lock's key starts with (`card-press:<workspace>:<kind>:<entity>`), as shipped. */
export const PRESS_LOCK_PREFIX = 'card-press:';

/**
 * Who presses, and on what: a button (on a message, a list, a modal), or a workflow step acting as
 * a person (nothing pressed).
 */
export interface Presser<T> {
  planning: PlanningContext;
  client: WebClient;
  /** The message the button was pressed on, when it is one in a channel. */
  on?: { channel: string; ts: string };
  /** Redraws what was pressed when it is not a remembered card; whether it now shows `after`. */
  replacePressed(after: T | undefined): Promise<boolean>;
}

export async function pressCard<T>(svc: Services, args: ActionArgs, card: LiveCard<T>, press: Press<T>) {
  const { deps } = svc;
  const planning = planningOf(args.context);
  const surface = privateSurface(args, planning.slackUserId);
  /** Redraws what was pressed, when it is not a remembered card; whether it now shows `after`. */
  const replacePressed = async (after: T | undefined): Promise<boolean> => {
    let shown = false;
    if (press.pressedMessage && args.respond) {
      await args.respond({ replace_original: true, ...press.pressedMessage(after) });
      shown = true;
    }
    if (press.redraw) {
      try {
        await press.redraw(after);
        shown = true;
      } catch (error) {
        deps.logger.warn(
          { action: `${card.ref.kind} press redraw`, err: error },
          'could not redraw what was pressed',
        );
      }
    }
    return shown;
  };
  const on = messagePressedOn(args);
  let said: Mrkdwn | undefined;
  try {
    said = await applyPress(
      svc,
      { planning, client: args.client, ...(on ? { on } : {}), replacePressed },
      card,
      press,
    );
  } catch (error) {
    // Told once the lock is released: whoever reads the answer can press again at once.
    await showFailure(deps, surface, error, {
      action: `${card.ref.kind} card press`,
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
    return;
  }
  if (said) {
    await surface
      .show(notice(said))
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not answer a card press'));
  }
}

/**
 * A press on one entity, under its lock (see the module's comment); what to tell whoever pressed.
 * Rejects, once the lock is released, with what failed.
 */
export async function applyPress<T>(
  svc: Services,
  presser: Presser<T>,
  card: LiveCard<T>,
  press: Press<T>,
): Promise<Mrkdwn | undefined> {
  const { deps } = svc;
  const { planning, client, on, replacePressed } = presser;
  const { ref, noun } = card;
  const lock = `${PRESS_LOCK_PREFIX}${ref.workspaceId}:${ref.kind}:${ref.entityId}`;

  /** Where the press is reflected: the entity's feature, read and posted as the presser. */
  const reflected = (acting: Acting) => ({
    ...madeFromSlack(
      { workspaceId: ref.workspaceId, slackUserId: planning.slackUserId, planning: acting.planning },
      client,
      card.place,
    ),
    ...(ref.kind === 'task' ? { tasks: [ref.entityId] } : { feature: true }),
  });
  const away = ref.kind === 'task' ? { tasks: [ref.entityId] } : { feature: true };

  /** The press under the entity's lock; returns what to tell the presser. */
  const underLock = async (): Promise<Mrkdwn | undefined> => {
    const acting = await planning.acting();
    const orgId = acting.identity.orgId;
    // The entity's cards and its feature's in one read: the change funnel updates them without
    // listing them again.
    const listed = await deps.store.cards.listWithFeature(
      ref.workspaceId,
      ref.kind,
      ref.entityId,
      card.place.featureId,
    );
    const cards = listed.entity;
    const knownCards: KnownCards =
      ref.kind === 'task'
        ? { tasks: new Map([[ref.entityId, cards]]), feature: listed.feature }
        : { feature: listed.feature };
    // Pressed on one of the entity's own cards (the usual case): no second read to know which.
    const pressedOn = on
      ? (cards.find((c) => c.slackChannelId === on.channel && c.messageTs === on.ts) ??
        (await deps.store.cards.find(ref.workspaceId, on.channel, on.ts)))
      : undefined;
    const refused = mismatch(noun, ref, card.place, orgId, cards, pressedOn);
    if (refused) {
      deps.logger.info(
        { action: `${ref.kind} card press`, workspaceId: ref.workspaceId, entityId: ref.entityId },
        'press refused: it does not match the recorded card',
      );
      return refused;
    }
    /**
     * Nothing is at the press's place (404). Every card recorded with a place was recorded at this
     * one, in the presser's organization (checked above), so when there is one, the entity is gone
     * from where the app saw it: its cards are retired (those recorded before places were too — it
     * is the same entity). Without one, a 404 proves nothing about any card: the presser is told
     * what the service said — not found in their organization — and nothing else happens.
     */
    const notFound = async (): Promise<Mrkdwn> => {
      const { retired } = await svc.changes.changed({
        ...reflected(acting),
        origin: { from: 'catch-up' },
        gone: away,
      });
      if (!retired) {
        return md`This ${noun} was not found in your organization in the planning service, so nothing was changed.`;
      }
      await replacePressed(undefined);
      return md`This ${noun} no longer exists: it was deleted.`;
    };
    const current = await readOrGone(card, acting);
    if (current === undefined) return await notFound();
    // Read at the press's place: that is where it lives. Cards recorded before places were learn it.
    if (cards.some((c) => c.place === undefined)) {
      await deps.store.cards.place(ref.workspaceId, ref.kind, ref.entityId, { orgId, ...card.place });
    }
    const now = card.shown(current);
    if (press.shown && !sameShown(now, press.shown)) {
      // Changed by someone else (or the first click of a double click): the cards catch up, and the
      // watch tells the change itself.
      await svc.changes.changed({
        ...reflected(acting),
        origin: { from: 'catch-up' },
        known: { ...card.known(current), cards: knownCards },
      });
      const redrawn = (await replacePressed(current)) || pressedOn?.entityId === ref.entityId;
      const changed = card.describe(press.shown, now);
      // Said only where it is true: what was pressed was redrawn, or is one of the cards just updated.
      return redrawn
        ? md`This button was out of date: ${changed}. Nothing was changed, and where you pressed it now shows the ${noun} as it is.`
        : md`This button was out of date: ${changed}. Nothing was changed.`;
    }
    const { after, said, changes } = await press.apply(current, acting);
    if (after === 'deleted') {
      // Deleted by this press: every card of the entity goes (their place was just read).
      await svc.changes.changed({ ...reflected(acting), ...(changes ? { changes } : {}), deleted: away });
      await replacePressed(undefined);
      return said;
    }
    const next = after ?? (await readOrGone(card, acting));
    if (next === undefined) {
      const gone = await notFound();
      return said ?? gone;
    }
    await svc.changes.changed({
      ...reflected(acting),
      ...(changes ? { changes } : {}),
      known: { ...card.known(next), cards: knownCards },
    });
    await replacePressed(next);
    return said;
  };

  const pressed = await deps.store.locks.with(lock, LOCK_LEASE.cardPress, underLock);
  // The lock does not say whose press holds it, and most often it is the person's own first
  // click: the answer is true either way, and blames nobody.
  return pressed.ran
    ? pressed.value
    : md`A press on this ${noun} is still being applied; the card shows the result in a moment.`;
}

async function readOrGone<T>(card: LiveCard<T>, acting: Acting): Promise<T | undefined> {
  try {
    return await card.read(acting);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
