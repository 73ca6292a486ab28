/**
 * Binds every topic's route table to Bolt: one listener per kind of request, dispatching on the
 * request's id. It is the one place a gate is enforced: each route's gate (who may use it, see
 * routes.ts) is checked for every kind of request — subcommands, shortcuts, buttons, form
 * submissions, searchable selects, and a message a person types to the app in its DM — before its
 * handler does anything, so no listener can forget it.
 *
 * Slack's AI side panel is Bolt's own `Assistant` class, which the router builds from the one
 * topic's `assistant` part and registers: the class is global middleware that takes the assistant's
 * events before any listener, so its handlers run the same gated, once-per-delivery pipeline as the
 * event routes, and a message in a DM thread that is not the assistant's goes on to `message.im`.
 *
 * Acks stay immediate: buttons, commands and shortcuts are acked before the gate and the handler
 * run (and the requests already waiting are acked too, see ack.ts); a form is acked with what its
 * route decides from the submission alone, and its work runs after the gate; only a searchable
 * select waits for its gate and its list before its ack, which carries the list.
 *
 * An id no route binds (a button or form from an older version, a retired shortcut, another slash
 * command, an event the app does not follow) is acked at once and logged on one line: left to
 * Bolt, a command or a step answered 404 after 3 seconds and Slack showed the user an error. A
 * Workflow Builder step the app no longer has (removed or renamed while workflows still use it) is
 * acked and its run failed with a sentence saying so. An id bound twice is refused at start-up.
 */
import { type App, Assistant, type Logger } from '@slack/bolt';
import { decodeSlackEntities, md, showsNothing } from '../../blockkit/index.js';
import { afterPendingAcks } from './ack.js';
import type {
  Access,
  ActionArgs,
  ActionRoute,
  AssistantRoute,
  AssistantRoutes,
  ClosedArgs,
  CommandArgs,
  EventArgs,
  EventName,
  EventRoute,
  Gate,
  GlobalShortcutArgs,
  Handler,
  MessageShortcutArgs,
  OptionsArgs,
  Route,
  Shortcut,
  ShortcutArgs,
  StepArgs,
  Subcommand,
  SubcommandArgs,
  SubmitArgs,
  TopicRoutes,
  ViewHandler,
  ViewRoute,
  WorkflowStep,
} from './routes.js';
import { assistantEvents, eventRouteOf } from './routes.js';

/** A request a gate is checked for: its kind says where a refusal can be told. */
export type GatedRequest =
  | { kind: 'command'; args: SubcommandArgs }
  | { kind: 'shortcut'; args: ShortcutArgs }
  | { kind: 'action'; args: ActionArgs }
  | { kind: 'view'; args: SubmitArgs }
  | { kind: 'closed'; args: ClosedArgs }
  | { kind: 'options'; args: OptionsArgs }
  | { kind: 'event'; args: EventArgs<EventName> };

/** A subcommand as `/plan help` lists it. */
export interface HelpEntry {
  usage: string;
  summary: string;
  /** Only workspace admins may run it. */
  adminOnly: boolean;
}

/** What the router needs from the app to enforce gates and answer the command (kit/access.ts). */
export interface RoutePolicy<S, R> {
  /** Undefined when the person may use the route; else the refusal to tell them. */
  check(svc: S, gate: Gate, request: GatedRequest): Promise<R | undefined>;
  /** Tells a refusal where the person is: ephemeral, in the modal, by DM, or as the select's only option (which acks it). */
  refuse(svc: S, refusal: R, request: GatedRequest): Promise<void>;
  /** A subcommand threw: the person is told in one private sentence (or led to Connect), and it is logged. */
  commandFailed(svc: S, error: unknown, args: SubcommandArgs, name: string): Promise<void>;
  /** The command alone, `help`, or an unknown word (`unknown`: what was typed). */
  help(svc: S, args: SubcommandArgs, entries: readonly HelpEntry[], unknown?: string): Promise<void>;
  /**
   * Runs `work` for a gated event's delivery once per `key` (the route's own key of the event):
   * Slack's retries of an event the app was slow to ack then neither answer nor refuse twice.
   */
  once(svc: S, key: string, args: EventArgs<EventName>, work: () => Promise<void>): Promise<void>;
}

export interface RouterOptions<S, R> {
  svc: S;
  /** The slash command the subcommands are typed after (`/plan`). */
  command: string;
  topics: readonly TopicRoutes<S>[];
  policy: RoutePolicy<S, R>;
}

/** A handler with the gate that guards it. */
interface Bound<H> {
  run: H;
  gate: Gate;
  topic: string;
}

/** A route's own gate, where it has one, over its topic's. */
const gateOf = (route: Partial<Gate>, topic: TopicRoutes<unknown>): Gate => ({
  access: route.access ?? topic.gate.access,
  doing: route.doing ?? topic.gate.doing,
});

function bind<H>(route: H | ({ run: H } & Partial<Gate>), topic: TopicRoutes<unknown>): Bound<H> {
  if (typeof route === 'function') return { run: route, gate: topic.gate, topic: topic.topic };
  const r = route as { run: H } & Partial<Gate>;
  return { run: r.run, gate: gateOf(r, topic), topic: topic.topic };
}

/** A person's event: who may send it, and the key of each delivery it takes. */
interface GatedEvent {
  gate: Gate;
  delivery(event: unknown): string | undefined;
}

/** An event's handler; a person's event (a message in the app's DM) with its gate and delivery key. */
interface BoundEvent<S> {
  run: Handler<S, never>;
  gated?: GatedEvent;
}

/** A lookup by id that refuses a second binding (never a property of Object.prototype, e.g. `toString`). */
class Table<T> {
  readonly #entries = new Map<string, T & { topic: string }>();
  constructor(readonly kind: string) {}
  add(id: string, entry: T & { topic: string }) {
    const before = this.#entries.get(id);
    if (before)
      throw new Error(`${this.kind} "${id}" is bound twice (topics ${before.topic} and ${entry.topic})`);
    this.#entries.set(id, entry);
  }
  get(id: string | undefined) {
    return id === undefined ? undefined : this.#entries.get(id);
  }
  ids() {
    return [...this.#entries.keys()];
  }
  entries() {
    return this.#entries.entries();
  }
}

/** Every id the route tables bind, by kind (the manifest and the wire-id test read it). */
export interface BoundIds {
  subcommands: string[];
  shortcuts: string[];
  actions: string[];
  views: string[];
  closes: string[];
  options: string[];
  events: string[];
  steps: string[];
}

/** The routes of every topic, checked for ids bound twice, ready to be registered. */
export function compileRoutes<S>(topics: readonly TopicRoutes<S>[]) {
  const subcommands = new Table<Bound<Subcommand<S>['run']> & { sub: Subcommand<S> }>('subcommand');
  const shortcuts = new Table<{ shortcut: Shortcut<S>; gate: Gate }>('shortcut');
  const actions = new Map<string, (Bound<Handler<S, ActionArgs>> & { inView?: string })[]>();
  const views = new Table<Bound<ViewHandler<S>>>('view');
  const closes = new Table<Bound<Handler<S, ClosedArgs>>>('closed view');
  const options = new Table<Bound<Handler<S, OptionsArgs>>>('options source');
  const events = new Table<BoundEvent<S>>('event');
  const steps = new Table<{ step: WorkflowStep<S> }>('workflow step');
  let assistant: { routes: AssistantRoutes<S>; gate: Gate; topic: string } | undefined;
  const helpEntries: HelpEntry[] = [];

  for (const topic of topics) {
    const t = topic as TopicRoutes<unknown>;
    for (const sub of topic.subcommands ?? []) {
      subcommands.add(sub.name, { run: sub.run, gate: topic.gate, topic: topic.topic, sub });
      const access = typeof sub.access === 'function' ? undefined : (sub.access ?? topic.gate.access);
      helpEntries.push({ usage: sub.usage, summary: sub.summary, adminOnly: access === 'admin' });
    }
    for (const [id, shortcut] of Object.entries(topic.shortcuts ?? {})) {
      shortcuts.add(id, { shortcut, gate: gateOf(shortcut, t), topic: topic.topic });
    }
    for (const [id, declared] of Object.entries(topic.actions ?? {})) {
      const list = (Array.isArray(declared) ? declared : [declared]) as ActionRoute<S>[];
      for (const route of list) {
        const bound = {
          ...bind<Handler<S, ActionArgs>>(route as Route<S, ActionArgs>, t),
          ...(typeof route === 'object' && 'inView' in route ? { inView: route.inView } : {}),
        };
        const others = actions.get(id) ?? [];
        if (others.some((o) => o.inView === bound.inView)) {
          const other = others.find((o) => o.inView === bound.inView)!;
          throw new Error(
            `action "${id}"${bound.inView ? ` in view "${bound.inView}"` : ''} is bound twice (topics ${other.topic} and ${topic.topic})`,
          );
        }
        actions.set(id, [...others, bound]);
      }
    }
    for (const [id, route] of Object.entries(topic.views ?? {}))
      views.add(id, bind<ViewHandler<S>>(route as ViewRoute<S>, t));
    for (const [id, route] of Object.entries(topic.closes ?? {}))
      closes.add(id, bind<Handler<S, ClosedArgs>>(route as Route<S, ClosedArgs>, t));
    for (const [id, route] of Object.entries(topic.options ?? {}))
      options.add(id, bind<Handler<S, OptionsArgs>>(route as Route<S, OptionsArgs>, t));
    for (const [id, step] of Object.entries(topic.steps ?? {})) steps.add(id, { step, topic: topic.topic });
    for (const [name, route] of Object.entries(topic.events ?? {})) {
      const r = route as EventRoute<S, EventName>;
      events.add(
        name,
        typeof r === 'function'
          ? { run: r as Handler<S, never>, topic: topic.topic }
          : {
              run: r.run as Handler<S, never>,
              gated: { gate: { access: r.access, doing: r.doing }, delivery: r.delivery },
              topic: topic.topic,
            },
      );
    }
    if (topic.assistant) {
      // Bolt takes one Assistant: a second would never see an event.
      if (assistant)
        throw new Error(`the assistant is bound twice (topics ${assistant.topic} and ${topic.topic})`);
      assistant = { routes: topic.assistant, gate: topic.gate, topic: topic.topic };
    }
  }

  const boundIds: BoundIds = {
    subcommands: subcommands.ids(),
    shortcuts: shortcuts.ids(),
    actions: [...actions.keys()],
    views: views.ids(),
    closes: closes.ids(),
    options: options.ids(),
    events: [...events.ids(), ...assistantEvents(assistant?.routes as AssistantRoutes<unknown> | undefined)],
    steps: steps.ids(),
  };
  return {
    subcommands,
    shortcuts,
    actions,
    views,
    closes,
    options,
    events,
    steps,
    assistant,
    boundIds,
    helpEntries,
  };
}

/** What a workflow's run is told when its step is one the app no longer has. */
export const STEP_GONE = md`This step no longer exists in the app (it was removed or renamed): edit the workflow to remove it or pick one of the app's current steps.`;

/** One line for a request no route binds, acked without handling (the id cut short: it is what Slack sent). */
function unbound(logger: Logger, kind: string, id: unknown) {
  const shown = typeof id === 'string' ? JSON.stringify(id.slice(0, 100)) : 'without an id';
  logger.info(`Acknowledged without handling: no route binds the ${kind} ${shown}`);
}

/** Who may run a subcommand given what follows its name. */
function subcommandGate<S>(sub: Subcommand<S>, topicGate: Gate, command: string, text: string): Gate {
  const access: Access =
    typeof sub.access === 'function' ? sub.access(text) : (sub.access ?? topicGate.access);
  return { access, doing: sub.doing ?? `use \`${command} ${sub.name}\`` };
}

/** Registers every route on `app`; throws when an id is bound twice. */
export function registerRoutes<S, R>(app: App, { svc, command, topics, policy }: RouterOptions<S, R>) {
  const compiled = compileRoutes(topics);

  /** Whether the gate lets the request through; when not, the person has been told. */
  const allowed = async (gate: Gate, request: GatedRequest): Promise<boolean> => {
    if (gate.access === 'anyone') return true;
    const refusal = await policy.check(svc, gate, request);
    if (refusal === undefined) return true;
    await policy.refuse(svc, refusal, request);
    return false;
  };

  const entries = compiled.helpEntries;

  app.command(/.*/, async (args: CommandArgs) => {
    await args.ack();
    if (args.command.command !== command) {
      unbound(args.logger, 'slash command', args.command.command);
      return;
    }
    // Slack escapes what the person typed (`R&D` arrives as `R&amp;D`): decoded once, here, so every
    // subcommand matches, searches, sends and echoes what was typed (echoes escape it again, once).
    // Slack's own markup (`<@U…|name>`, `<#C…>`) is real brackets and stays as it came.
    // A word that shows nothing (zero-width characters, a soft hyphen, a blank link) is no word:
    // `/plan search` then a zero-width space is `/plan search`, and `/plan` then a soft hyphen the help.
    const words = decodeSlackEntities(args.command.text)
      .split(/\s+/)
      .filter((w) => !showsNothing(w));
    const text = words.join(' ');
    const [word = '', ...rest] = words;
    const name = word.toLowerCase();
    const subArgs: SubcommandArgs = {
      ...args,
      text: rest.join(' '),
      reply: async (body) => {
        await args.respond({ response_type: 'ephemeral', replace_original: false, ...body });
      },
    };
    await afterPendingAcks();
    const bound = compiled.subcommands.get(name);
    if (!bound) {
      await policy.help(svc, subArgs, entries, name === '' || name === 'help' ? undefined : text);
      return;
    }
    const request: GatedRequest = { kind: 'command', args: subArgs };
    try {
      if (!(await allowed(subcommandGate(bound.sub, bound.gate, command, subArgs.text), request))) return;
      await bound.run(svc, subArgs);
    } catch (error) {
      await policy.commandFailed(svc, error, subArgs, bound.sub.name);
    }
  });

  app.shortcut(/.*/, async (args: ShortcutArgs) => {
    await args.ack();
    const bound = compiled.shortcuts.get(args.shortcut.callback_id);
    const wanted = args.shortcut.type === 'message_action' ? 'message' : 'global';
    if (!bound || bound.shortcut.type !== wanted) {
      unbound(args.logger, `${wanted} shortcut`, args.shortcut.callback_id);
      return;
    }
    await afterPendingAcks();
    if (!(await allowed(bound.gate, { kind: 'shortcut', args }))) return;
    // The shortcut's type picked the route, and so makes the route's narrower argument type hold.
    if (bound.shortcut.type === 'message') await bound.shortcut.run(svc, args as MessageShortcutArgs);
    else await bound.shortcut.run(svc, args as GlobalShortcutArgs);
  });

  app.action(/.*/, async (args: ActionArgs) => {
    await args.ack();
    const candidates = compiled.actions.get(args.action.action_id);
    const inView = args.body.view?.callback_id;
    const bound =
      candidates?.find((c) => c.inView !== undefined && c.inView === inView) ??
      candidates?.find((c) => c.inView === undefined);
    if (!bound) {
      unbound(args.logger, 'action', args.action.action_id);
      return;
    }
    await afterPendingAcks();
    if (!(await allowed(bound.gate, { kind: 'action', args }))) return;
    await bound.run(svc, args);
  });

  app.view({ type: 'view_submission' }, async (args: SubmitArgs) => {
    const bound = compiled.views.get(args.view.callback_id);
    // Loading and result modals have no submit button: anything that still arrives is acked.
    if (!bound) {
      await args.ack();
      unbound(args.logger, 'form', args.view.callback_id);
      return;
    }
    const answer = bound.run(svc, args);
    await args.ack(answer.ack);
    if (!answer.work) return;
    await afterPendingAcks();
    if (!(await allowed(bound.gate, { kind: 'view', args }))) return;
    await answer.work();
  });

  app.view({ type: 'view_closed' }, async (args: ClosedArgs) => {
    await args.ack();
    const bound = compiled.closes.get(args.view.callback_id);
    if (!bound) {
      unbound(args.logger, 'closed view', args.view.callback_id);
      return;
    }
    await afterPendingAcks();
    if (!(await allowed(bound.gate, { kind: 'closed', args }))) return;
    await bound.run(svc, args);
  });

  app.options(/.*/, async (args: OptionsArgs) => {
    const id = 'action_id' in args.options ? args.options.action_id : undefined;
    const bound = compiled.options.get(id);
    if (!bound) {
      await args.ack({ options: [] });
      unbound(args.logger, 'options source', id);
      return;
    }
    // The ack carries the list: the gate is checked first, and a refusal is the only option.
    if (!(await allowed(bound.gate, { kind: 'options', args }))) return;
    await bound.run(svc, args);
  });

  /**
   * A person's event, the one pipeline for every gated event (the `events` routes and the
   * assistant's): taken once per delivery key — Slack's retries neither answer nor refuse twice —
   * then gated like a request, then run.
   */
  const personEvent = async (
    name: string,
    gated: GatedEvent,
    args: EventArgs<EventName>,
    run: () => Promise<void>,
  ) => {
    const key = gated.delivery(args.event);
    if (key === undefined) return;
    const request = { kind: 'event', args } as const;
    await policy.once(svc, `${name}:${key}`, args, async () => {
      if (!(await allowed(gated.gate, request))) return;
      await run();
    });
  };

  /** An event given to the route `name` of the `events` tables, or logged as no route's. */
  const routeEvent = async (name: string, args: EventArgs<EventName>) => {
    const bound = compiled.events.get(name);
    if (!bound) return unbound(args.logger, 'event', name);
    if (!bound.gated) return bound.run(svc, args as never);
    await personEvent(name, bound.gated, args, () => bound.run(svc, args as never));
  };

  // Slack's AI side panel: Bolt's Assistant is global middleware that takes its events (and every
  // message in a thread of the app's DM) before any listener, so the router builds it, and each of
  // its events runs the same pipeline as above. A DM thread that is not the assistant's goes on to
  // the `message.im` route, as it would without the class.
  if (compiled.assistant) {
    const { routes, gate } = compiled.assistant;
    const take =
      <A extends { event: unknown }>(name: string, route: AssistantRoute<S, A>) =>
      (args: A) =>
        personEvent(name, { gate, delivery: route.delivery }, args as unknown as EventArgs<EventName>, () =>
          route.run(svc, args),
        );
    const contextChanged = routes.threadContextChanged;
    app.assistant(
      new Assistant({
        threadContextStore: routes.threadContextStore(svc),
        threadStarted: take('assistant_thread_started', routes.threadStarted),
        threadContextChanged: contextChanged
          ? take('assistant_thread_context_changed', contextChanged)
          : async ({ logger }) => unbound(logger, 'event', 'assistant_thread_context_changed'),
        userMessage: async (args) => {
          // Keyed as the DM's messages are: one message is answered once, by whichever route takes it.
          if (await routes.ownsThread(svc, args)) return take('message.im', routes.userMessage)(args);
          await routeEvent('message.im', args as unknown as EventArgs<EventName>);
        },
      }),
    );
  }

  // Every event goes to its route through one listener, a step's run included: Bolt runs each
  // listener's chain for every request, whatever it matches (about 10 µs each), so one per event
  // type and one per step (`app.function`) cost every request of any kind (a command, a press) a
  // dozen chains more. Slack's own events (installs, profile changes, Home opened) have no gate; an
  // event a person sends (a message in the app's DM) is taken once per delivery key, then gated like
  // a request. Several routes may share Slack's type (`message`, `message.im`): the event's route is
  // one of them. An event no route binds gets its one line.
  // Events are acked by Bolt before their listeners, but a step's run, which waits for its step's
  // ack: it is acked here at once (as `app.function` does), then the step runs — it checks the
  // person it acts as itself (an input) and ends with complete or fail (Bolt gives every listener of
  // a run both, and the run's token). A step the app no longer has ends at once, with a sentence
  // for the workflow's builder.
  app.event(/.*/, async (args) => {
    const { event, logger } = args;
    if (event.type !== 'function_executed') {
      await routeEvent(eventRouteOf(event), args as EventArgs<EventName>);
      return;
    }
    const stepArgs = args as unknown as StepArgs & { ack(): Promise<void> };
    const step = stepArgs.event.function?.callback_id;
    const { ack, fail } = stepArgs;
    await ack();
    const bound = compiled.steps.get(step);
    if (bound) {
      await bound.step.run(svc, stepArgs);
      return;
    }
    unbound(logger, 'workflow step', step);
    try {
      await fail({ error: STEP_GONE.text });
    } catch (error) {
      logger.warn(
        `Could not fail the run of a workflow step the app no longer has: ${(error as Error).message}`,
      );
    }
  });
  return compiled.boundIds;
}
