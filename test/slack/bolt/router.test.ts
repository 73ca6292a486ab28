/**
 * The router alone: it binds each topic's ids once, and for every kind of request it checks the
 * route's gate before the handler runs — a refused request never reaches its handler, whatever its
 * kind. (The app's gates themselves, through signed requests: admin-gate.test.ts, provisioning.test.ts.)
 */
import type { App, Assistant } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  compileRoutes,
  type GatedRequest,
  type RoutePolicy,
  registerRoutes,
} from '../../../src/slack/bolt/router.js';
import type { Gate, TopicRoutes } from '../../../src/slack/bolt/routes.js';

type Listener = (args: Record<string, unknown>) => Promise<void>;

/** Captures what the router registers, by kind, as Bolt would call it. */
function fakeApp() {
  const listeners: Record<string, Listener> = {};
  const app = {
    // Bolt's Assistant is global middleware: it runs before any listener, and takes what it matches.
    assistant: (assistant: Assistant) => {
      const middleware = assistant.getMiddleware() as unknown as Listener;
      listeners.assistant = (args) =>
        middleware({
          ...args,
          payload: args.event,
          body: { event: args.event },
          next: async () => {
            passed.push((args.event as { type: string }).type);
          },
        });
    },
    command: (_name: string, l: Listener) => (listeners.command = l),
    shortcut: (_id: unknown, l: Listener) => (listeners.shortcut = l),
    action: (_id: unknown, l: Listener) => (listeners.action = l),
    // `view_submission` and `view_closed` are two listeners, as Bolt matches them by type.
    view: (c: { type?: string }, l: Listener) =>
      (listeners[c.type === 'view_closed' ? 'closed' : 'view'] = l),
    options: (_id: unknown, l: Listener) => (listeners.options = l),
    // Bolt runs every listener whose type (a name, or a pattern) matches an event's type.
    event: (name: string | RegExp, l: Listener) => events.push({ name, l }),
  };
  const events: { name: string | RegExp; l: Listener }[] = [];
  /** What Bolt runs for an event of `type`: each listener bound to it, in order. */
  const onEvent =
    (type: string): Listener =>
    async (args) => {
      for (const { name, l } of events) {
        if (typeof name === 'string' ? name === type : name.test(type)) await l(args);
      }
    };
  return { app: app as unknown as App, listeners, onEvent, events };
}

/** A policy that refuses whatever `refuse` says, and records what it was asked. */
function policy(refuse: (gate: Gate) => boolean) {
  const seen: {
    checked: [string, string][];
    refused: string[];
    help: (string | undefined)[];
    once: string[];
  } = {
    checked: [],
    refused: [],
    help: [],
    once: [],
  };
  const p: RoutePolicy<null, string> = {
    async check(_svc, gate, request: GatedRequest) {
      seen.checked.push([request.kind, gate.access]);
      return refuse(gate) ? `no (${gate.doing ?? ''})` : undefined;
    },
    async refuse(_svc, refusal, request) {
      seen.refused.push(`${request.kind}: ${refusal}`);
      if (request.kind === 'options') await request.args.ack({ options: [] });
    },
    async commandFailed() {},
    async help(_svc, _args, _entries, unknown) {
      seen.help.push(unknown);
    },
    async once(_svc, key, _args, work) {
      if (seen.once.includes(key)) return;
      seen.once.push(key);
      await work();
    },
  };
  return { policy: p, seen };
}

function topic(ran: string[]): TopicRoutes<null> {
  const run = (what: string) => async () => {
    ran.push(what);
  };
  return {
    topic: 'things',
    gate: { access: 'admin', doing: 'manage things' },
    subcommands: [{ name: 'thing', usage: 'thing', summary: 'a thing', run: run('command') }],
    shortcuts: {
      thing_shortcut: { type: 'global', name: 'Thing', description: 'A thing', run: run('shortcut') },
    },
    actions: { thing_button: run('action'), open_button: { access: 'anyone', run: run('open') } },
    views: { thing_form: () => ({ ack: { response_action: 'clear' }, work: run('view') }) },
    closes: { thing_form: run('closed') },
    options: { thing_select: run('options') },
  };
}

const acked: unknown[] = [];
/** Events the Assistant middleware let through to the listeners. */
const passed: string[] = [];
const base = {
  ack: async (body?: unknown) => {
    acked.push(body);
  },
  respond: async () => {},
  context: {},
  client: {},
  logger: { info() {}, warn() {} },
};
const requests: Record<string, Record<string, unknown>> = {
  command: { ...base, command: { text: 'thing', command: '/x' } },
  shortcut: { ...base, shortcut: { type: 'shortcut', callback_id: 'thing_shortcut' } },
  action: { ...base, action: { action_id: 'thing_button' }, body: {} },
  view: { ...base, view: { callback_id: 'thing_form' } },
  closed: { ...base, view: { callback_id: 'thing_form' } },
  options: { ...base, options: { action_id: 'thing_select' } },
};

/** A topic answering messages: in channels (Slack's own, not gated) and in the app's DM (gated, once per delivery). */
function messageTopic(ran: string[]): TopicRoutes<null> {
  return {
    topic: 'messages',
    gate: { access: 'anyone' },
    events: {
      message: async (_svc, args) => {
        ran.push(`channel:${(args.event as { ts?: string }).ts}`);
      },
      'message.im': {
        access: 'member',
        doing: 'write to the app',
        delivery: (event) =>
          (event as { bot_id?: string }).bot_id ? undefined : (event as { ts: string }).ts,
        run: async (_svc, args) => {
          ran.push(`dm:${(args.event as { ts?: string }).ts}`);
        },
      },
    },
  };
}

/**
 * A topic with the assistant part (its threads started: ts 1 and 2 are the assistant's), beside the
 * app DM's `message.im` route: what ran, and what its context store was asked.
 */
function assistantTopics(ran: string[], withContextChanged = true): TopicRoutes<null>[] {
  const threadKey = (event: unknown) => {
    const e = event as { assistant_thread?: { thread_ts?: string }; event_ts?: string };
    return e.assistant_thread?.thread_ts ? `${e.assistant_thread.thread_ts}:${e.event_ts}` : undefined;
  };
  return [
    messageTopic(ran),
    {
      topic: 'assistant',
      gate: { access: 'member', doing: 'use the assistant' },
      assistant: {
        threadStarted: {
          delivery: threadKey,
          run: async (_svc, args) => {
            ran.push(`started:${args.event.assistant_thread.thread_ts}`);
          },
        },
        ...(withContextChanged
          ? {
              threadContextChanged: {
                delivery: threadKey,
                run: async (_svc, args) => {
                  ran.push(`moved:${(await args.getThreadContext()).channel_id}`);
                },
              },
            }
          : {}),
        userMessage: {
          delivery: (event) => (event as { ts: string }).ts,
          run: async (_svc, args) => {
            ran.push(`asked:${(args.event as { ts?: string }).ts}`);
          },
        },
        ownsThread: async (_svc, args) =>
          ['1', '2'].includes((args.event as { thread_ts: string }).thread_ts),
        threadContextStore: () => ({
          get: async () => ({ channel_id: 'C7' }),
          save: async () => {},
        }),
      },
    },
  ];
}

const threadEvent = (type: string, threadTs: string, eventTs = '9') => ({
  ...base,
  event: {
    type,
    assistant_thread: { user_id: 'U1', channel_id: 'D1', thread_ts: threadTs, context: {} },
    event_ts: eventTs,
  },
});

const message = (fields: Record<string, unknown>) => ({
  ...base,
  event: { type: 'message', channel: 'C1', ...fields },
});

describe('the router', () => {
  it('listens for every event with one listener: Bolt runs each listener’s chain for every request of any kind', async () => {
    const ran: string[] = [];
    const { app, events, onEvent } = fakeApp();
    const { policy: p } = policy(() => false);
    registerRoutes(app, { svc: null, command: '/x', topics: [messageTopic(ran)], policy: p });
    expect(events).toHaveLength(1);
    await onEvent('message')(message({ channel_type: 'channel', ts: '1' }));
    expect(ran).toEqual(['channel:1']);
  });

  it('runs a workflow step from that one listener, acked first, with no listener of its own; a step it no longer has fails at once', async () => {
    const ran: string[] = [];
    const { app, events, onEvent } = fakeApp();
    const functions: string[] = [];
    (app as unknown as { function: (id: string) => void }).function = (id) => functions.push(id);
    const { policy: p } = policy(() => false);
    const steps: TopicRoutes<null> = {
      topic: 'steps',
      gate: { access: 'member' },
      steps: {
        make_thing: {
          title: 'Make a thing',
          description: 'Makes a thing',
          inputs: {},
          outputs: {},
          run: async (_svc, args) => {
            ran.push(`step ${String(args.inputs.name)}`);
          },
        },
      },
    };
    registerRoutes(app, { svc: null, command: '/x', topics: [steps], policy: p });
    expect(functions).toEqual([]);
    expect(events).toHaveLength(1);
    const run = (callbackId: string) => {
      const order: string[] = ran;
      return {
        ...base,
        event: { type: 'function_executed', function: { callback_id: callbackId }, inputs: { name: 'one' } },
        inputs: { name: 'one' },
        ack: async () => {
          order.push('ack');
        },
        fail: async ({ error }: { error: string }) => {
          order.push(`fail: ${error.slice(0, 12)}`);
        },
      };
    };
    await onEvent('function_executed')(run('make_thing'));
    expect(ran).toEqual(['ack', 'step one']);
    await onEvent('function_executed')(run('gone_thing'));
    expect(ran.slice(2, 3)).toEqual(['ack']);
    expect(ran[3]).toMatch(/^fail: /);
  });

  it('sends a message in the app’s DM to `message.im`, gated and once per delivery key; any other to `message`, ungated', async () => {
    const ran: string[] = [];
    const { app, onEvent } = fakeApp();
    const { policy: p, seen } = policy(() => false);
    registerRoutes(app, { svc: null, command: '/x', topics: [messageTopic(ran)], policy: p });
    const onMessage = onEvent('message');
    await onMessage(message({ channel_type: 'channel', ts: '1' }));
    await onMessage(message({ channel_type: 'im', ts: '2' }));
    // Slack's retry of the same delivery, and a bot's message the route does not take.
    await onMessage(message({ channel_type: 'im', ts: '2' }));
    await onMessage(message({ channel_type: 'im', ts: '3', bot_id: 'B1' }));
    expect(ran).toEqual(['channel:1', 'dm:2']);
    expect(seen.checked).toEqual([['event', 'member']]);
    expect(seen.once).toEqual(['message.im:2']);
  });

  it('refuses a message in the app’s DM before its handler runs when the gate says no', async () => {
    const ran: string[] = [];
    const { app, onEvent } = fakeApp();
    const { policy: p, seen } = policy(() => true);
    registerRoutes(app, { svc: null, command: '/x', topics: [messageTopic(ran)], policy: p });
    await onEvent('message')(message({ channel_type: 'im', ts: '2' }));
    expect(ran).toEqual([]);
    expect(seen.refused).toEqual(['event: no (write to the app)']);
  });

  it("builds Bolt's Assistant from the assistant part: each of its events gated, once per delivery", async () => {
    const ran: string[] = [];
    const { app, listeners } = fakeApp();
    const { policy: p, seen } = policy(() => false);
    registerRoutes(app, { svc: null, command: '/x', topics: assistantTopics(ran), policy: p });
    const onAssistant = listeners.assistant!;
    passed.length = 0;
    await onAssistant(threadEvent('assistant_thread_started', '1'));
    // Slack's retry of the same delivery: not run again.
    await onAssistant(threadEvent('assistant_thread_started', '1'));
    await onAssistant(threadEvent('assistant_thread_context_changed', '1', '10'));
    // A question in the thread, and Slack's retry of it.
    await onAssistant(message({ channel: 'D1', channel_type: 'im', ts: '5', thread_ts: '1' }));
    await onAssistant(message({ channel: 'D1', channel_type: 'im', ts: '5', thread_ts: '1' }));
    expect(ran).toEqual(['started:1', 'moved:C7', 'asked:5']);
    expect(seen.checked).toEqual([
      ['event', 'member'],
      ['event', 'member'],
      ['event', 'member'],
    ]);
    expect(seen.once).toEqual([
      'assistant_thread_started:1:9',
      'assistant_thread_context_changed:1:10',
      'message.im:5',
    ]);
    // Taken by the class: none went on to the listeners.
    expect(passed).toEqual([]);
  });

  it('refuses an assistant event before its handler runs when the gate says no', async () => {
    const ran: string[] = [];
    const { app, listeners } = fakeApp();
    const { policy: p, seen } = policy((gate) => gate.doing === 'use the assistant');
    registerRoutes(app, { svc: null, command: '/x', topics: assistantTopics(ran), policy: p });
    await listeners.assistant!(threadEvent('assistant_thread_started', '1'));
    await listeners.assistant!(message({ channel: 'D1', channel_type: 'im', ts: '5', thread_ts: '2' }));
    expect(ran).toEqual([]);
    expect(seen.refused).toEqual(['event: no (use the assistant)', 'event: no (use the assistant)']);
  });

  it('a message in a DM thread that is not the assistant’s goes on to the `message.im` route, gated and once', async () => {
    const ran: string[] = [];
    const { app, listeners, onEvent } = fakeApp();
    const { policy: p, seen } = policy(() => false);
    registerRoutes(app, { svc: null, command: '/x', topics: assistantTopics(ran), policy: p });
    const other = message({ channel: 'D1', channel_type: 'im', ts: '6', thread_ts: '3' });
    await listeners.assistant!(other);
    await listeners.assistant!(other);
    // A top-level message in the DM is not the class's: it reaches the listeners as before.
    passed.length = 0;
    const top = message({ channel: 'D1', channel_type: 'im', ts: '7' });
    await listeners.assistant!(top);
    expect(passed).toEqual(['message']);
    await onEvent('message')(top);
    expect(ran).toEqual(['dm:6', 'dm:7']);
    expect(seen.once).toEqual(['message.im:6', 'message.im:7']);
  });

  it('an assistant event no route binds is acked and logged on one line; the subscriptions say what is bound', async () => {
    const ran: string[] = [];
    const lines: string[] = [];
    const { app, listeners } = fakeApp();
    const { policy: p } = policy(() => false);
    const topics = assistantTopics(ran, false);
    const bound = registerRoutes(app, { svc: null, command: '/x', topics, policy: p });
    await listeners.assistant!({
      ...threadEvent('assistant_thread_context_changed', '1'),
      logger: { info: (line: string) => lines.push(line), warn() {} },
    });
    expect(ran).toEqual([]);
    expect(lines).toEqual([
      'Acknowledged without handling: no route binds the event "assistant_thread_context_changed"',
    ]);
    expect(bound.events).toEqual(['message', 'message.im', 'assistant_thread_started']);
    expect(compileRoutes(assistantTopics(ran)).boundIds.events).toContain('assistant_thread_context_changed');
    expect(() => compileRoutes([...assistantTopics(ran), assistantTopics(ran)[1]!])).toThrow(
      'the assistant is bound twice (topics assistant and assistant)',
    );
  });

  it.each(Object.keys(requests))(
    'refuses a %s before its handler runs when the gate says no',
    async (kind) => {
      const ran: string[] = [];
      const { app, listeners } = fakeApp();
      const { policy: p, seen } = policy(() => true);
      registerRoutes(app, { svc: null, command: '/x', topics: [topic(ran)], policy: p });
      await listeners[kind]!(requests[kind]!);
      expect(ran).toEqual([]);
      expect(seen.checked).toEqual([[kind, 'admin']]);
      expect(seen.refused).toHaveLength(1);
    },
  );

  it.each(Object.keys(requests))('runs a %s once its gate allows it', async (kind) => {
    const ran: string[] = [];
    const { app, listeners } = fakeApp();
    const { policy: p } = policy(() => false);
    registerRoutes(app, { svc: null, command: '/x', topics: [topic(ran)], policy: p });
    await listeners[kind]!(requests[kind]!);
    expect(ran).toEqual([kind]);
  });

  it("says what a refused subcommand was (its `doing` defaults to using it), and a route's own gate wins over the topic's", async () => {
    const ran: string[] = [];
    const { app, listeners } = fakeApp();
    const { policy: p, seen } = policy((gate) => gate.access !== 'anyone');
    registerRoutes(app, { svc: null, command: '/x', topics: [topic(ran)], policy: p });
    await listeners.command!(requests.command!);
    expect(seen.refused).toEqual(['command: no (use `/x thing`)']);
    await listeners.action!({ ...base, action: { action_id: 'open_button' }, body: {} });
    expect(ran).toEqual(['open']);
  });

  it('answers an unknown subcommand or none with the help, and acks an id nothing binds', async () => {
    const { app, listeners } = fakeApp();
    const { policy: p, seen } = policy(() => false);
    registerRoutes(app, { svc: null, command: '/x', topics: [topic([])], policy: p });
    await listeners.command!({ ...base, command: { text: 'nope please', command: '/x' } });
    await listeners.command!({ ...base, command: { text: '', command: '/x' } });
    expect(seen.help).toEqual(['nope please', undefined]);
    acked.length = 0;
    await listeners.view!({ ...base, view: { callback_id: 'retired_form' } });
    await listeners.options!({ ...base, options: { action_id: 'retired_select' } });
    expect(acked).toEqual([undefined, { options: [] }]);
    expect(seen.checked).toEqual([]);
  });

  it('refuses at start-up an id two topics bind, unless each binds it in its own modal', () => {
    const one: TopicRoutes<null> = {
      topic: 'one',
      gate: { access: 'anyone' },
      actions: { shared: async () => {} },
    };
    const two: TopicRoutes<null> = {
      topic: 'two',
      gate: { access: 'anyone' },
      actions: { shared: async () => {} },
    };
    expect(() => compileRoutes([one, two])).toThrow('action "shared" is bound twice (topics one and two)');
    const views = (name: string): TopicRoutes<null> => ({
      topic: name,
      gate: { access: 'anyone' },
      views: { form: () => ({ ack: undefined }) },
    });
    expect(() => compileRoutes([views('a'), views('b')])).toThrow('view "form" is bound twice');
    const inView = (name: string): TopicRoutes<null> => ({
      topic: name,
      gate: { access: 'anyone' },
      actions: { picker: { inView: `${name}_form`, run: async () => {} } },
    });
    expect(() => compileRoutes([inView('a'), inView('b')])).not.toThrow();
  });
});
