/**
 * Slack for the benchmarks that drive the real app over HTTP (bench:ack, bench:card, bench:idle):
 * the playground's fake Slack (`src/playground/fake-slack.ts`, the one the tests use) on loopback,
 * with the bench's people, channel and bot token, and a record of what the benchmark checks — when
 * each command's follow-up reached its response_url, and when each chat.update arrived.
 *
 * It runs in the benchmark's own process, which also times the acks, so it keeps little that grows
 * with the run: calls are counted, not kept, and only the latest 1,000 ephemeral replies are.
 */
import { FakeSlack } from '../../src/playground/fake-slack.js';
import { Workspace } from '../../src/playground/workspace.js';

export interface BenchSlackOptions {
  team: string;
  /** Bot tokens the app may call with. */
  tokens: string[];
  /** The Slack people who send the commands. */
  users: string[];
  /** The channel the commands come from and the cards are in. */
  channel: string;
}

export interface BenchSlack {
  /** The shared fake itself (its workspace, to put messages in it). */
  slack: FakeSlack;
  /** Base URL for SLACK_API_URL, ending in `/api/`. */
  apiUrl: string;
  /** A fresh response_url on this fake for the command `id` from `user`. */
  responseUrl(id: string, user: string): string;
  /** Web API calls received, per method. */
  calls: Map<string, number>;
  /** What was posted to each response_url id, in arrival order, with `performance.now()` at arrival. */
  responses: Map<string, { at: number; body: Record<string, unknown> }[]>;
  /** chat.update calls (bench:card), with `performance.now()` at arrival, in arrival order. */
  updates: { at: number; body: Record<string, unknown> }[];
  /** Requests Slack refused (an unknown user or channel, a stale card, a bad token). */
  refused: number;
  close(): Promise<void>;
}

export async function startBenchSlack(options: BenchSlackOptions): Promise<BenchSlack> {
  const workspace = new Workspace({
    team: { id: options.team, name: 'Bench', domain: 'bench' },
    tz: 'Europe/Paris',
    keepEphemerals: 1_000,
  });
  for (const id of options.users) workspace.addUser({ id, name: `user-${id.toLowerCase()}` });
  workspace.addChannel({ id: options.channel, members: [...options.users, workspace.bot.userId] });
  const slack = new FakeSlack({ workspace, tokens: options.tokens, record: false });
  /** The fake's response_url ids → the benchmark's command ids. */
  const commands = new Map<string, string>();
  const fake: BenchSlack = {
    slack,
    apiUrl: '',
    responseUrl: (id, user) => {
      const url = slack.responseUrl({ channel: options.channel, user });
      commands.set(url.slice(url.lastIndexOf('/') + 1), id);
      return url;
    },
    calls: slack.counts,
    responses: new Map(),
    updates: [],
    refused: 0,
    close: () => slack.close(),
  };
  // Noted on arrival, then answered by the fake as usual (undefined: no answer of its own).
  slack.on('respond', (body, { responseUrlId }) => {
    const id = commands.get(responseUrlId ?? '');
    if (id !== undefined) {
      const list = fake.responses.get(id) ?? [];
      list.push({ at: performance.now(), body });
      fake.responses.set(id, list);
    }
    return undefined;
  });
  slack.on('chat.update', (body) => {
    fake.updates.push({ at: performance.now(), body });
    return undefined;
  });
  slack.observe((call) => {
    if (!FakeSlack.accepted(call)) fake.refused += 1;
  });
  await slack.listen();
  fake.apiUrl = slack.apiUrl;
  return fake;
}
