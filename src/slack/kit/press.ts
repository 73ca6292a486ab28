/**
 * A button on a live card that changes its entity: a task's state, Assign to me, Advance, Delete
 * after its confirmation dialog. A press is applied once:
 * - presses on one entity are serialized across replicas (`store.locks`); one arriving while another
 *   is applied is told so and does nothing;
 * - the button carries what the card showed (`Shown`); a press made on a card that no longer shows
 *   the entity as it is — changed elsewhere, or the second click of a double click — refreshes the
 *   card and says what changed, instead of applying;
 * - a deleted entity turns its cards into one line saying so.
 * After a change every card of the entity is updated in place. A refusal (a role, a stage rule) is
 * explained in one private sentence and the card stays as it was.
 */
import { type MessageBody, type Mrkdwn, md } from '../../blockkit/index.js';
import { NotFoundError } from '../../planning/index.js';
import type { ActionArgs } from '../bolt/routes.js';
import { planningOf } from './acting.js';
import type { Acting } from './identity.js';
import { type CardBody, type CardRef, retireCards, updateCards } from './live-cards.js';
import { notice } from './messages.js';
import type { Services } from './services.js';
import { privateSurface, showFailure } from './surfaces.js';

/** The facts a card shows that a press depends on, carried in its buttons' values (short strings). */
export type Shown = Readonly<Record<string, string>>;

export interface LiveCard<T> {
  ref: CardRef;
  /** What the entity is called in sentences: "task", "feature". */
  noun: string;
  /** The entity as it is now, read with the acting user's own client; undefined when it is gone. */
  read(acting: Acting): Promise<T | undefined>;
  render(entity: T): CardBody;
  /** What a card of `entity` shows (see {@link Shown}). */
  shown(entity: T): Shown;
  /** One phrase saying what changed between two shown states ("it is now *in review*"). */
  describe(before: Shown, after: Shown): Mrkdwn;
}

export interface Press<T> {
  /** What the card showed when its button was pressed. */
  shown: Shown;
  /** Makes the change. Returns what to tell the presser, and the entity after it when known. */
  apply(entity: T, acting: Acting): Promise<{ after?: T | 'deleted'; said?: Mrkdwn }>;
  /**
   * The pressed message again, when it is not a remembered card (an ephemeral list answers through
   * its response_url): given the entity after the change, or undefined once it is gone.
   */
  pressedMessage?(after: T | undefined): MessageBody;
}

/** Shown states are the same when every fact is. */
export function sameShown(a: Shown, b: Shown): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/** A lock lives this long if the process dies holding it. */
const PRESS_LOCK_MS = 60_000;

/** What every press lock's key starts with (`card-press:<workspace>:<kind>:<entity>`), as shipped. */
export const PRESS_LOCK_PREFIX = 'card-press:';

export async function pressCard<T>(svc: Services, args: ActionArgs, card: LiveCard<T>, press: Press<T>) {
  const { deps } = svc;
  const planning = planningOf(args.context);
  const surface = privateSurface(args, planning.slackUserId);
  const { ref, noun } = card;
  const lock = `${PRESS_LOCK_PREFIX}${ref.workspaceId}:${ref.kind}:${ref.entityId}`;
  const replacePressed = async (after: T | undefined) => {
    if (!press.pressedMessage || !args.respond) return;
    await args.respond({ replace_original: true, ...press.pressedMessage(after) });
  };

  /** The press under the entity's lock; returns what to tell the presser. */
  const underLock = async (): Promise<Mrkdwn | undefined> => {
    const acting = await planning.acting();
    const gone = async () => {
      await retireCards(deps, args.client, ref, md`:wastebasket: This ${noun} was deleted.`);
      await replacePressed(undefined);
    };
    const current = await readOrGone(card, acting);
    if (current === undefined) {
      await gone();
      return md`This ${noun} no longer exists: it was deleted.`;
    }
    const now = card.shown(current);
    if (!sameShown(now, press.shown)) {
      await updateCards(deps, args.client, ref, card.render(current));
      await replacePressed(current);
      return md`This card was out of date: ${card.describe(press.shown, now)}. It shows the ${noun} as it is now; press again if you still want to.`;
    }
    const { after, said } = await press.apply(current, acting);
    const next = after ?? (await readOrGone(card, acting));
    if (next === 'deleted' || next === undefined) await gone();
    else {
      await updateCards(deps, args.client, ref, card.render(next));
      await replacePressed(next);
    }
    return said;
  };

  let held = false;
  let answer: Mrkdwn | undefined;
  let failure: { error: unknown } | undefined;
  try {
    if (!(await deps.store.locks.acquire(lock, PRESS_LOCK_MS))) {
      answer = md`Someone is changing this ${noun} right now; the card shows it in a moment.`;
    } else {
      held = true;
      answer = await underLock();
    }
  } catch (error) {
    failure = { error };
  } finally {
    if (held) {
      await deps.store.locks
        .release(lock)
        .catch((error: unknown) => deps.logger.error({ err: error }, 'could not release a card lock'));
    }
  }
  // Told once the lock is released: whoever reads the answer can press again at once.
  if (failure) {
    await showFailure(deps, surface, failure.error, {
      action: `${ref.kind} card press`,
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  } else if (answer) {
    await surface
      .show(notice(answer))
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not answer a card press'));
  }
}

async function readOrGone<T>(card: LiveCard<T>, acting: Acting): Promise<T | undefined> {
  try {
    return await card.read(acting);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
