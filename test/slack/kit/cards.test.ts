/**
 * The live-card mechanism on its own: remembered cards updated in place (and forgotten when their
 * message is gone), and a press applied once — serialized per entity, refused on a stale card, and
 * turned into "deleted" when the entity is gone. Slack is the playground's fake Slack on loopback,
 * called with a real WebClient; its call log says what was sent.
 */
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { md, message, section } from '../../../src/blockkit/index.js';
import { createLogger } from '../../../src/logger.js';
import { ForbiddenError, NotFoundError } from '../../../src/planning/index.js';
import { type FakeSlack, startFakeSlack } from '../../../src/playground/fake-slack.js';
import type { ActionArgs } from '../../../src/slack/bolt/routes.js';
import { updateCards } from '../../../src/slack/kit/changes/cards.js';
import { createChangeFunnel, type OnCard, type TaskFacts } from '../../../src/slack/kit/changes/index.js';
import { postCard } from '../../../src/slack/kit/live-cards.js';
import { type LiveCard, PRESS_LOCK_PREFIX, pressCard, type Shown } from '../../../src/slack/kit/press.js';
import type { Services } from '../../../src/slack/kit/services.js';
import { createKeyring, openStore, type Store } from '../../../src/store/index.js';

interface Thing {
  id: string;
  state: string;
}

const TOKEN = 'xoxb-cards-test';

/** What the app sent Slack: posts and updates, their bodies as sent. */
const sent = (method: 'chat.postMessage' | 'chat.update') => slack.called(method).map((c) => c.body);
const updates = () => sent('chat.update');

let store: Store;
let slack: FakeSlack;
let client: WebClient;
let svc: Services;
let things: Map<string, Thing>;
const ref = { workspaceId: 'T1', kind: 'task' as const, entityId: 'x1' };
/** Where the thing lives, as the app recorded it when posting its cards. */
const place = { teamId: 'team1', channelId: 'chan1', featureId: 'feat1' };
const posted = { ...ref, place: { orgId: 'O1', ...place } };
const logs: string[] = [];

beforeEach(async () => {
  store = await openStore({
    sqliteFile: ':memory:',
    keyring: createKeyring({ current: Buffer.alloc(32, 3).toString('base64') }),
  });
  slack = await startFakeSlack({ tokens: [TOKEN] });
  for (const id of ['C1', 'C2']) slack.workspace.addChannel({ id });
  client = new WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  const logger = createLogger({ level: 'debug', destination: { write: (l: string) => logs.push(l) } });
  const deps = { store, logger };
  // The funnel reads the thing as its cards show it (the topics' card sources, in the app).
  const changes = createChangeFunnel(deps, {
    task: async (_reader, at) => {
      const found = things.get(at.taskId);
      if (!found) throw notFound();
      return onCard(found);
    },
    feature: async () => Promise.reject(new Error('no features here')),
  });
  svc = { deps, changes } as unknown as Services;
  things = new Map([['x1', { id: 'x1', state: 'idle' }]]);
});
afterEach(async () => {
  await store.close();
  await slack.close();
});

const notFound = () =>
  new NotFoundError('gone', { operation: 'tasks.read', method: 'GET', path: '/x', status: 404 });
const render = (t: Thing) => message(md`Thing is ${t.state}`, [section(md`Thing is ${t.state}`)]);
const onCard = (t: Thing): OnCard<TaskFacts> => ({
  body: render(t),
  facts: { heading: t.id, state: t.state as TaskFacts['state'] },
});

const card: LiveCard<Thing> = {
  ref,
  place,
  noun: 'thing',
  read: async () => {
    const found = things.get('x1');
    if (!found) throw notFound();
    return { ...found };
  },
  known: (t) => ({ tasks: new Map([[t.id, onCard(t)]]) }),
  shown: (t) => ({ state: t.state }),
  describe: (before, after) => md`it is now *${after.state ?? '?'}* (was *${before.state ?? '?'}*)`,
};

/** A button press as the router hands it over, answering on a recorded response_url. */
function pressArgs() {
  const said: Record<string, unknown>[] = [];
  const args = {
    client,
    // Pressed in an ephemeral list: not on a remembered card.
    body: { container: { type: 'message', is_ephemeral: true } },
    respond: async (m: Record<string, unknown>) => void said.push(m),
    context: {
      planning: {
        workspaceId: 'T1',
        slackUserId: 'U1',
        acting: async () => ({ identity: { orgId: 'O1' } }),
        other: async () => ({}),
      },
    },
  } as unknown as ActionArgs;
  return { args, said, text: () => said.map((m) => String(m.text)).join('\n') };
}

const advance = (shown: Shown, to: string) => ({
  shown,
  apply: async (t: Thing) => {
    things.set(t.id, { ...t, state: to });
    return { said: md`Now ${to}.` };
  },
});

describe('remembered cards', () => {
  it('are updated in place after a change, and forgotten when their message is gone', async () => {
    await postCard(svc.deps, client, posted, { channel: 'C1', threadTs: '9.9' }, render(things.get('x1')!));
    await postCard(svc.deps, client, posted, { channel: 'C2' }, render(things.get('x1')!));
    expect(sent('chat.postMessage')[0]).toMatchObject({ channel: 'C1', thread_ts: '9.9' });
    expect(await store.cards.list('T1', 'task', 'x1')).toHaveLength(2);
    const [inC1, inC2] = slack.called('chat.postMessage').map((c) => String(c.answer?.ts));

    // Someone deletes the copy in C2.
    slack.workspace.remove(slack.workspace.find('C2', inC2!)!);
    const cards = await store.cards.list('T1', 'task', 'x1');
    expect((await updateCards(svc.deps, client, cards, render({ id: 'x1', state: 'done' }))).updated).toBe(1);
    expect(updates().map((u) => [u.channel, u.ts, u.text])).toEqual([
      ['C1', inC1, 'Thing is done'],
      ['C2', inC2, 'Thing is done'],
    ]);
    expect(slack.workspace.find('C1', inC1!)?.text).toBe('Thing is done');
    expect((await store.cards.list('T1', 'task', 'x1')).map((c) => c.messageTs)).toEqual([inC1]);
  });
});

describe('a press on a live card', () => {
  beforeEach(async () => {
    await postCard(svc.deps, client, posted, { channel: 'C1' }, render(things.get('x1')!));
  });

  it('applies the change once and updates every card', async () => {
    const p = pressArgs();
    await pressCard(svc, p.args, card, advance({ state: 'idle' }, 'started'));
    expect(things.get('x1')?.state).toBe('started');
    expect(updates().map((u) => u.text)).toEqual(['Thing is started']);
    expect(p.text()).toContain('Now started.');
  });

  it('a second press made on the same card (a double click) refreshes it and applies nothing', async () => {
    await pressCard(svc, pressArgs().args, card, advance({ state: 'idle' }, 'started'));
    const second = pressArgs();
    await pressCard(svc, second.args, card, advance({ state: 'idle' }, 'started twice'));
    expect(things.get('x1')?.state).toBe('started');
    expect(second.text()).toContain('out of date: it is now *started* (was *idle*)');
  });

  it('two presses at the same moment: one applies, the other is told', async () => {
    let release: () => void = () => {};
    const slow = {
      shown: { state: 'idle' },
      apply: async (t: Thing) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        things.set(t.id, { ...t, state: 'started' });
        return {};
      },
    };
    const first = pressArgs();
    const second = pressArgs();
    const running = pressCard(svc, first.args, card, slow);
    // Listened to at once: a failure while the second press runs is still thrown by `await running`.
    running.catch(() => {});
    // The first holds the entity's lock while it applies.
    await expect
      .poll(async () => {
        const keys = await store.db.selectFrom('processed_interactions').select('key').execute();
        return keys.some((k) => k.key.startsWith(PRESS_LOCK_PREFIX));
      })
      .toBe(true);
    await pressCard(svc, second.args, card, advance({ state: 'idle' }, 'twice'));
    release();
    await running;
    // The same person's double click (issue 23 item 6): nobody else is blamed.
    expect(second.text()).toContain('A press on this thing is still being applied');
    expect(second.text()).not.toContain('Someone');
    expect(things.get('x1')?.state).toBe('started');
  });

  it('the entity deleted elsewhere: its cards say so in one line and are forgotten', async () => {
    things.delete('x1');
    const p = pressArgs();
    await pressCard(svc, p.args, card, advance({ state: 'idle' }, 'started'));
    // The line names the card's kind (a task's here: the thing's cards are recorded as a task's).
    expect(updates().map((u) => u.text)).toEqual([':wastebasket: This task was deleted.']);
    expect(await store.cards.list('T1', 'task', 'x1')).toEqual([]);
    expect(p.text()).toContain('no longer exists');
  });

  it('a refusal is told in one sentence and the card stays as it was', async () => {
    const p = pressArgs();
    await pressCard(svc, p.args, card, {
      shown: { state: 'idle' },
      apply: async () => {
        throw new ForbiddenError('not-allowed', {
          operation: 'tasks.update',
          method: 'POST',
          path: '/x',
          status: 403,
        });
      },
    });
    expect(updates()).toEqual([]);
    expect(p.text()).toContain('The planning service refused');
    // The lock is released: the next press goes through.
    await pressCard(svc, pressArgs().args, card, advance({ state: 'idle' }, 'started'));
    expect(things.get('x1')?.state).toBe('started');
  });

  it('an ephemeral copy that was pressed is replaced through its response_url', async () => {
    const p = pressArgs();
    await pressCard(svc, p.args, card, {
      ...advance({ state: 'idle' }, 'started'),
      pressedMessage: (after) => message(md`list: ${after?.state ?? 'gone'}`, []),
    });
    expect(p.said[0]).toMatchObject({ replace_original: true, text: 'list: started' });
  });
});
