/**
 * What a topic declares: its route table. Each topic binds the ids it answers — subcommands,
 * shortcuts, buttons, form submissions, searchable selects, events — and says once who may use
 * them; the router (router.ts) enforces that for every kind of request and binds nothing else.
 *
 * Handlers take the app's services first (`svc`), then Bolt's arguments for their surface: a
 * handler written for another surface's arguments does not compile in that table.
 */
import type {
  AllMiddlewareArgs,
  AssistantConfig,
  AssistantThreadContextChangedMiddleware,
  AssistantThreadStartedMiddleware,
  AssistantUserMessageMiddleware,
  BlockAction,
  GlobalShortcut,
  MessageShortcut,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewClosedAction,
  ViewResponseAction,
  ViewSubmitAction,
} from '@slack/bolt';

import type { MessageBody } from '../../blockkit/index.js';

export type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
export type MessageShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;
export type GlobalShortcutArgs = SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs;
export type ShortcutArgs = SlackShortcutMiddlewareArgs & AllMiddlewareArgs;
export type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type ClosedArgs = SlackViewMiddlewareArgs<ViewClosedAction> & AllMiddlewareArgs;
export type OptionsArgs = SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs;
export type EventArgs<E extends EventName> = SlackEventMiddlewareArgs<SlackEventType<E>> & AllMiddlewareArgs;
/** A Workflow Builder step's execution (`function_executed`), with Bolt's `complete` and `fail`. */
export type StepArgs = SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs;

/**
 * The Events API subscriptions the app answers (each declared in the manifest by the topic that
 * binds it), by the event's type — but a message in the app's own DM (`channel_type: im`, Slack's
 * `message.im` subscription) is the route `message.im`, and `message` is then a message anywhere
 * else (channels and private channels).
 */
export type EventName =
  | 'app_uninstalled'
  | 'tokens_revoked'
  | 'user_change'
  | 'app_home_opened'
  | 'link_shared'
  | 'entity_details_requested'
  | 'message'
  | 'message.im'
  | 'assistant_thread_started'
  | 'assistant_thread_context_changed';

/** The type Slack gives the events of a route (`message.im` is a `message`). */
export type SlackEventType<E extends EventName> = E extends 'message.im' ? 'message' : E;

/** The route an event goes to: its type, but `message.im` for a message in the app's DM. */
export function eventRouteOf(event: { type: string; channel_type?: unknown }): string {
  return event.type === 'message' && event.channel_type === 'im' ? 'message.im' : event.type;
}

/**
 * Who may use a route:
 * - `anyone`: whoever Slack sends (help, connecting, events Slack itself raises);
 * - `member`: someone who acts with a planning account of their own here — connected, or a full
 *   member of the workspace who can get one; guests, people from other organizations, bots and
 *   deactivated users without a connection of their own are refused before anything opens;
 * - `admin`: a workspace admin or owner, as Slack says at the time of the request.
 */
export type Access = 'anyone' | 'member' | 'admin';

/** A route's gate: who may use it, and what a refusal says they tried (“change the digest settings”). */
export interface Gate {
  access: Access;
  /** Completes “Only workspace admins can …”; defaults to the topic's. */
  doing?: string;
}

export type Handler<S, A> = (svc: S, args: A) => Promise<void>;

/** A route: its handler alone (the topic's gate applies), or with a gate of its own. */
export type Route<S, A> = Handler<S, A> | ({ run: Handler<S, A> } & Partial<Gate>);

/**
 * A button or dispatching select. `inView` binds it only inside modals of that callback id: one
 * action id (the team picker) can then mean a different redraw in each topic's form.
 */
export type ActionRoute<S> =
  | Route<S, ActionArgs>
  | ({ run: Handler<S, ActionArgs>; inView: string } & Partial<Gate>);

/** A `/plan` subcommand, acked by the router before it runs. */
export interface Subcommand<S> {
  name: string;
  /** How it is typed after the command, e.g. `grade @user <notion> <1-10>`. */
  usage: string;
  summary: string;
  /**
   * Who may run it (default: the topic's gate). A function of what follows the name when that
   * decides, e.g. `/plan digest` shows the settings to members but `/plan digest 09:00` changes them.
   */
  access?: Access | ((text: string) => Access);
  doing?: string;
  run: Handler<S, SubcommandArgs>;
}

/** A subcommand's arguments: Bolt's, what follows the subcommand's name, and a private reply. */
export type SubcommandArgs = CommandArgs & {
  /** What follows the subcommand's name, trimmed. */
  text: string;
  /** Answers privately (ephemeral, through the response_url). */
  reply(body: MessageBody): Promise<void>;
};

/** A shortcut, as the manifest declares it and the router binds it. */
export type Shortcut<S> = (
  | { type: 'message'; run: Handler<S, MessageShortcutArgs> }
  | { type: 'global'; run: Handler<S, GlobalShortcutArgs> }
) & { name: string; description: string } & Partial<Gate>;

/** Slack's answer to a form submission, carried by its ack. */
export type ViewAck = ViewResponseAction | undefined;

/**
 * A form submission is answered in two steps. `answer` decides the ack from the submission alone,
 * without I/O (field errors, or the view to show while working); when there is work, the router
 * runs it after the ack — and after the gate allowed the person — so no form does anything for
 * someone who may not use it.
 */
export interface Answer {
  ack: ViewAck;
  work?: () => Promise<void>;
}
export type ViewHandler<S> = (svc: S, args: SubmitArgs) => Answer;
export type ViewRoute<S> = ViewHandler<S> | ({ run: ViewHandler<S> } & Partial<Gate>);

/**
 * An event: its handler alone (Slack's own events, not gated), or — for an event a person sends the
 * app, to be answered like a request — with a gate and `delivery`, which says which deliveries the
 * route takes: the key naming the event (the same for Slack's retries of it), or undefined to
 * leave it alone (a bot's message, an edit). Each delivery taken is gated and run once per key.
 */
export type EventRoute<S, E extends EventName> =
  | Handler<S, EventArgs<E>>
  | ({
      run: Handler<S, EventArgs<E>>;
      delivery(event: EventArgs<E>['event']): string | undefined;
    } & Gate);

/** Bolt's `Assistant` arguments for each of its events: the event's, with the class's utilities (say, setStatus…). */
export type AssistantStartedArgs = Parameters<AssistantThreadStartedMiddleware>[0];
export type AssistantContextChangedArgs = Parameters<AssistantThreadContextChangedMiddleware>[0];
export type AssistantMessageArgs = Parameters<AssistantUserMessageMiddleware>[0];
/** Where Bolt's `Assistant` keeps and reads a thread's context (the channel its person looks at). */
export type ThreadContextStore = NonNullable<AssistantConfig['threadContextStore']>;

/** An assistant event a person sends: its handler and which deliveries it takes (as an {@link EventRoute}'s). */
export interface AssistantRoute<S, A extends { event: unknown }> {
  run: Handler<S, A>;
  delivery(event: A['event']): string | undefined;
}

/**
 * The app's assistant in Slack's AI side panel, built by the router into Bolt's `Assistant` class
 * (which takes its events before any listener). Each event is gated by the topic's gate and taken
 * once per delivery key, like any person's event. Bolt's class takes every message in a thread of
 * the app's DM: `ownsThread` says which are in one of the assistant's threads; the others go to the
 * `message.im` route as if the class were not there.
 */
export interface AssistantRoutes<S> {
  threadStarted: AssistantRoute<S, AssistantStartedArgs>;
  /** Left out: the event is acked and logged as no route's. */
  threadContextChanged?: AssistantRoute<S, AssistantContextChangedArgs>;
  userMessage: AssistantRoute<S, AssistantMessageArgs>;
  ownsThread(svc: S, args: AssistantMessageArgs): Promise<boolean>;
  /** The class's thread context store (its `getThreadContext`, `saveThreadContext`, and what `say` tags). */
  threadContextStore(svc: S): ThreadContextStore;
}

/** A Workflow Builder parameter's type: Slack's own types, or a plain string. */
export type StepParameterType =
  | 'string'
  | 'slack#/types/user_id'
  | 'slack#/types/channel_id'
  | 'slack#/types/interactivity';

/** One input or output of a step, as Workflow Builder shows it to the workflow's builder. */
export interface StepParameter {
  type: StepParameterType;
  title: string;
  description: string;
  /** Inputs only: the builder must fill it in. */
  required?: boolean;
}

/**
 * A Workflow Builder custom step (a manifest `function`, run on `function_executed`). It is not
 * gated by the router: the person it acts as is one of its inputs, checked by the step itself.
 */
export interface WorkflowStep<S> {
  title: string;
  description: string;
  inputs: Readonly<Record<string, StepParameter>>;
  outputs: Readonly<Record<string, StepParameter>>;
  run: Handler<S, StepArgs>;
}

/** A topic's whole route table. */
export interface TopicRoutes<S> {
  /** The topic's name, for messages about the table itself (an id bound twice). */
  topic: string;
  /** Who may use the topic's routes, unless a route says otherwise. */
  gate: Gate;
  subcommands?: readonly Subcommand<S>[];
  shortcuts?: Readonly<Record<string, Shortcut<S>>>;
  actions?: Readonly<Record<string, ActionRoute<S> | readonly ActionRoute<S>[]>>;
  views?: Readonly<Record<string, ViewRoute<S>>>;
  /**
   * A modal closed (Back, Cancel, ×) that asked to be told (`notify_on_close`): what is under it
   * shown as things are now. Acked at once; nothing to tell a refused person (they left the modal).
   */
  closes?: Readonly<Record<string, Route<S, ClosedArgs>>>;
  options?: Readonly<Record<string, Route<S, OptionsArgs>>>;
  /** Workflow Builder steps, by callback id. */
  steps?: Readonly<Record<string, WorkflowStep<S>>>;
  /**
   * Events: Slack's own (installs, profile changes, Home opened) are not gated — the topic's gate
   * does not apply to them; an event a person sends the app (a message in its DM) declares its gate.
   */
  events?: { readonly [E in EventName]?: EventRoute<S, E> };
  /** Slack's AI side panel (one topic at most): its events are subscribed to by this part, not `events`. */
  assistant?: AssistantRoutes<S>;
}

/** The Events API subscriptions an assistant part takes. */
export function assistantEvents(assistant: AssistantRoutes<unknown> | undefined): EventName[] {
  if (!assistant) return [];
  return [
    'assistant_thread_started',
    ...(assistant.threadContextChanged ? (['assistant_thread_context_changed'] as const) : []),
  ];
}

/** The value a button (or the selected option of a select) carries. */
export function actionValue(action: ActionArgs['action']): string | undefined {
  if ('value' in action && typeof action.value === 'string') return action.value;
  if ('selected_option' in action) return action.selected_option?.value;
  return undefined;
}
