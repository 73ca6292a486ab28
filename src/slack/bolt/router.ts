/**
 * One Bolt listener per kind of request, dispatching on the request's id through a typed table: a
 * handler written for another surface's arguments does not compile in it. An id no listener
 * handles (a button or form from an older version, a retired shortcut) is acked at once: left to
 * Bolt, it answered 404 after 3 seconds and Slack showed the user an error. It also spares every
 * request a pass through each registered listener's middleware.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  GlobalShortcut,
  MessageShortcut,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewClosedAction,
  ViewSubmitAction,
} from '@slack/bolt';
import { afterPendingAcks } from './ack.js';

export type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
export type MessageShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;
export type GlobalShortcutArgs = SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs;
export type ShortcutArgs = SlackShortcutMiddlewareArgs & AllMiddlewareArgs;
export type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type ClosedArgs = SlackViewMiddlewareArgs<ViewClosedAction> & AllMiddlewareArgs;
export type OptionsArgs = SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs;

export type Handler<A> = (args: A) => Promise<void>;
export type Routes<A> = Readonly<Record<string, Handler<A>>>;

/**
 * For requests whose ack is empty (buttons, commands, shortcuts): acks first, lets the requests
 * already waiting be acked too (context/ack.ts), then runs the handler for the id, if any. Handlers
 * never ack themselves.
 */
export function ackThenRoute<A extends { ack: () => Promise<void> }>(
  idOf: (args: A) => string | undefined,
  routes: Routes<A>,
): Handler<A> {
  const table = lookup(routes);
  return ackThen((args) => table(idOf(args)));
}

/** The same, with the handler picked by `pick` (e.g. from one of several tables). */
export function ackThen<A extends { ack: () => Promise<void> }>(
  pick: (args: A) => Handler<A> | undefined,
): Handler<A> {
  return async (args) => {
    await args.ack();
    const handler = pick(args);
    if (!handler) return;
    await afterPendingAcks();
    await handler(args);
  };
}

/** A route table as a lookup by id; never a property of Object.prototype (an id like `toString`). */
export function lookup<A>(routes: Routes<A>): (id: string | undefined) => Handler<A> | undefined {
  const table = new Map(Object.entries(routes));
  return (id) => (id === undefined ? undefined : table.get(id));
}

/**
 * For requests whose ack carries the answer (a form's errors or next view, a list of options): the
 * handler acks; an unknown id gets `unknown`, which must ack.
 */
export function route<A>(
  idOf: (args: A) => string | undefined,
  routes: Routes<A>,
  unknown: Handler<A>,
): Handler<A> {
  const table = lookup(routes);
  return (args) => (table(idOf(args)) ?? unknown)(args);
}

/** The value a button (or the selected option of a select) carries. */
export function actionValue(action: ActionArgs['action']): string | undefined {
  if ('value' in action && typeof action.value === 'string') return action.value;
  if ('selected_option' in action) return action.selected_option?.value;
  return undefined;
}
