/**
 * One server under test of the ack benchmark, alone in its own process so that nothing else (the
 * load, the sandbox, the fake Slack) shares its event loop:
 *
 * - `app`: the real app as test/helpers/slack-harness.ts builds it — `loadConfig`, a SQLite store in the
 *   given folder, `createSlackApp` in HTTP mode — with every Slack user connected beforehand to the
 *   sandbox's member account (as `/plan connect` would);
 * - `bare`: a bare Bolt `App` on the default HTTP receiver, same signing secret, whose `/plan`
 *   handler and button handler (bench:card) only ack;
 * - `floor`: the bare app that, after its ack, also makes the HTTP exchanges the app's use case makes,
 *   over undici with `JSON.parse` only (no store, no validation, no Web API client): for `/plan` the
 *   account read and the reply at the response_url; for a card's state button the task and feature
 *   reads, the state change and one `chat.update`. What the app could cost at best, measured.
 *
 * Started as `node --import tsx ack-target.ts '<TargetOptions JSON>'`. Prints `{"port": …}` once
 * listening. Each `cpu` line on stdin is answered with `{"cpuMs": …, "handled": …}`, each `mem` line
 * with `{"rss": …, "heapUsed": …}` after a full GC when it can (node --expose-gc); when stdin ends it
 * stops (receiver, store, planning pools), prints `{"problems": […], "problemCount": …}` — the
 * warnings and errors its log received — and exits.
 */
import { createInterface } from 'node:readline';
import { App } from '@slack/bolt';
import { Pool } from 'undici';
import { createClients } from '../../src/clients.js';
import { loadConfig } from '../../src/config.js';
import { createLogger, toSlackLogger } from '../../src/logger.js';
import { closePlanningPools } from '../../src/planning/index.js';
import { createSlackApp } from '../../src/slack/app.js';
import { PATHS } from '../../src/slack/bolt/manifest.js';
import { COMMAND } from '../../src/slack/kit/ids.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';

export interface TargetOptions {
  kind: 'app' | 'bare' | 'floor';
  signingSecret: string;
  botToken: string;
  team: string;
  slackApiUrl: string;
  planningUrl: string;
  /** Client timeout for planning calls: above the sandbox's added latency. */
  planningTimeoutMs: number;
  /** PLANNING_MAX_CONNECTIONS; unset: the app's default. */
  maxConnections?: number;
  /** SQLite file of the app's store, and its encryption key (base64, 32 bytes). */
  sqliteFile: string;
  encryptionKey: string;
  /** Slack users to connect to `member`. */
  users: string[];
  member: { id: string; orgId: string; token: string };
}

const options = JSON.parse(process.argv[2] ?? '{}') as TargetOptions;
const say = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

const problems: string[] = [];
let problemCount = 0;
// Production's default level; warnings and errors are kept (and reported), the rest dropped.
const logger = createLogger({
  level: 'info',
  destination: {
    write: (line: string) => {
      if (!/"level":(40|50|60)\b/.test(line)) return;
      problemCount += 1;
      if (problems.length < 5) problems.push(line.trim().slice(0, 600));
    },
  },
});

let handled = 0;
let stop: () => Promise<void>;
let port: number | undefined;
let store: Store | undefined;
const stops: (() => Promise<void>)[] = [];

/**
 * The HTTP a use case makes, and nothing else: undici pools to the service and to Slack, bodies as
 * JSON strings, answers read with `JSON.parse`. Failures are counted as problems (the bench reports them).
 */
function floorCalls(o: TargetOptions) {
  const planning = new URL(o.planningUrl);
  const base = planning.pathname.replace(/\/+$/, '');
  const service = new Pool(planning.origin, { connections: 128 });
  const slackApi = new URL(o.slackApiUrl);
  const slack = new Pool(slackApi.origin, { connections: 128 });
  const replyPools = new Map<string, Pool>();
  const serviceHeaders = {
    authorization: `Bearer ${o.member.token}`,
    accept: 'application/json',
    'content-type': 'application/json',
    'x-org-id': o.member.orgId,
  };
  const call = async (
    pool: Pool,
    path: string,
    method: 'GET' | 'POST',
    headers: Record<string, string>,
    body?: string,
  ) => {
    const response = await pool.request({ path, method, headers, ...(body ? { body } : {}) });
    const answer = JSON.parse(await response.body.text()) as Record<string, unknown>;
    if (response.statusCode !== 200) throw new Error(`${method} ${path}: HTTP ${response.statusCode}`);
    return answer;
  };
  const failed = (error: unknown) => {
    problemCount += 1;
    if (problems.length < 5) problems.push(`floor: ${(error as Error).message}`);
  };
  return {
    async command(responseUrl: string) {
      try {
        const account = await call(service, `${base}/account`, 'GET', serviceHeaders);
        const url = new URL(responseUrl);
        let pool = replyPools.get(url.origin);
        if (!pool) {
          pool = new Pool(url.origin, { connections: 128 });
          replyPools.set(url.origin, pool);
        }
        await pool
          .request({
            path: `${url.pathname}${url.search}`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              response_type: 'ephemeral',
              text: `You act as *${String(account.userName)}*`,
            }),
          })
          .then((r) => r.body.dump());
      } catch (error) {
        failed(error);
      }
    },
    async press(value: string, channel: string, ts: string) {
      try {
        const v = JSON.parse(value) as Record<string, string>;
        const feature = `${base}/teams/${v.teamId}/channels/${v.channelId}/features/${v.featureId}`;
        const taskPath = `${feature}/tasks/${v.taskId}`;
        const [task, read] = await Promise.all([
          call(service, taskPath, 'GET', serviceHeaders),
          call(service, feature, 'GET', serviceHeaders),
        ]);
        const updated = await call(
          service,
          taskPath,
          'POST',
          serviceHeaders,
          JSON.stringify({ state: v.to }),
        );
        const label = v.to === 'idle' ? 'Start' : 'Send to review';
        const blocks = [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: `*${String(updated.heading ?? task.heading)}*\n${String(read.heading)}`,
            },
          },
          {
            type: 'actions',
            elements: [{ type: 'button', text: { type: 'plain_text', text: label }, action_id: 'x', value }],
          },
        ];
        await call(
          slack,
          `${slackApi.pathname.replace(/\/+$/, '')}/chat.update`,
          'POST',
          {
            authorization: `Bearer ${o.botToken}`,
            'content-type': 'application/json; charset=utf-8',
          },
          JSON.stringify({ channel, ts, text: String(updated.heading), blocks }),
        );
      } catch (error) {
        failed(error);
      }
    },
    async close() {
      await Promise.all([service.close(), slack.close(), ...[...replyPools.values()].map((p) => p.close())]);
    },
  };
}

if (options.kind === 'app') {
  store = await openStore({
    sqliteFile: options.sqliteFile,
    keyring: createKeyring({ current: options.encryptionKey }),
  });
  for (const slackUserId of options.users) {
    await store.identities.save({
      workspaceId: options.team,
      slackUserId,
      serviceAccountId: options.member.id,
      planningUserId: options.member.id,
      orgId: options.member.orgId,
      token: options.member.token,
      origin: 'brought',
    });
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    SLACK_SIGNING_SECRET: options.signingSecret,
    SLACK_BOT_TOKEN: options.botToken,
    SLACK_API_URL: options.slackApiUrl,
    PLANNING_API_URL: options.planningUrl,
    ENCRYPTION_KEY: options.encryptionKey,
    PORT: '0',
    LOG_LEVEL: 'info',
    ...(options.maxConnections ? { PLANNING_MAX_CONNECTIONS: String(options.maxConnections) } : {}),
  });
  const app = createSlackApp({
    config,
    store,
    logger,
    clients: createClients({
      planningUrl: options.planningUrl,
      slackApiUrl: options.slackApiUrl,
      logger,
      // The harness's 1 s timeout would cut every call short of the sandbox's added latency.
      planningOptions: {
        timeoutMs: options.planningTimeoutMs,
        retries: 0,
        maxConnections: config.PLANNING_MAX_CONNECTIONS,
      },
    }),
  });
  ({ port } = await app.start());
  stop = () => app.stop();
} else {
  const app = new App({
    signingSecret: options.signingSecret,
    token: options.botToken,
    endpoints: PATHS.events,
    processBeforeResponse: false,
    deferInitialization: true,
    clientOptions: { slackApiUrl: options.slackApiUrl },
    logger: toSlackLogger(logger),
  });
  if (options.kind === 'floor') {
    const floor = floorCalls(options);
    app.command(COMMAND, async ({ ack, command }) => {
      handled += 1;
      await ack();
      await floor.command(command.response_url);
    });
    app.action(/.*/, async ({ ack, action, body }) => {
      handled += 1;
      await ack();
      const channel = (body as { channel?: { id?: string } }).channel?.id ?? '';
      const ts = (body as { message?: { ts?: string } }).message?.ts ?? '';
      await floor.press(String((action as { value?: string }).value ?? ''), channel, ts);
    });
    stops.push(() => floor.close());
  } else {
    app.command(COMMAND, async ({ ack }) => {
      handled += 1;
      await ack();
    });
    // bench:card presses buttons: the bare app only acks them too.
    app.action(/.*/, async ({ ack }) => {
      handled += 1;
      await ack();
    });
  }
  await app.init();
  // A port only, as createSlackApp starts the app's receiver.
  const server = (await app.start(0)) as { address(): { port: number } | string | null };
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : undefined;
  stop = async () => {
    await app.stop();
    for (const close of stops) await close();
  };
}

say({ port });
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  const command = line.trim();
  if (command === 'cpu') {
    const cpu = process.cpuUsage();
    say({ cpuMs: (cpu.user + cpu.system) / 1000, handled });
  } else if (command === 'mem') {
    // After a full collection (when started with --expose-gc): what is kept, not what awaits GC.
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    say({ rss, heapUsed });
  }
});
input.once('close', async () => {
  try {
    await stop();
    await store?.close();
    await closePlanningPools();
  } catch (error) {
    problemCount += 1;
    problems.push(`shutdown: ${(error as Error).message}`);
  }
  // Whatever keep-alive sockets remain (fetch's, the Web API client's) must not hold the process.
  process.stdout.write(`${JSON.stringify({ problems, problemCount })}\n`, () => process.exit(0));
});
