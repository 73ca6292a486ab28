/**
 * The playground: the app, the built-in planning sandbox with the demo organization, and a local
 * Slack — a web page at http://127.0.0.1:3000/ that plays Slack's part — in one process, with no
 * Slack workspace needed.
 *
 * The app runs exactly as in production (HTTP mode, one workspace): Slack's requests reach it
 * signed at /slack/events, and its Web API calls go to SLACK_API_URL, which points at the
 * playground's server. Only the start differs: the playground makes the configuration, connects
 * each demo person's Slack user to their planning account and links the demo's channels — what
 * `/plan connect` and `/plan link` would have stored.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { type Running, startApp } from '../app/index.js';
import { createLogger, type Logger } from '../logger.js';
import { orgIdFromToken } from '../planning/index.js';
import { type Sandbox, startSandbox } from '../sandbox/index.js';
import { FakeSlack } from './fake-slack.js';
import { Interactions } from './interactions.js';
import { type ChannelLinkShown, createPlaygroundServer } from './server.js';
import { NOT_LINKED_TOPIC, Workspace } from './workspace.js';

export const DEFAULT_PLAYGROUND_PORT = 3000;

export interface PlaygroundOptions {
  /** The page's port (default 3000; 0 picks a free one). */
  port?: number;
  /** Log level of the app and the playground (default `warn`: stdout stays readable). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Where logs go (default stdout, as the app's). */
  logDestination?: { write(line: string): void };
}

export interface Playground {
  /** The page, e.g. `http://127.0.0.1:3000/`. */
  url: string;
  workspace: Workspace;
  sandbox: Sandbox;
  app: Running;
  stop(): Promise<void>;
}

export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const level = options.logLevel ?? 'warn';
  const logger: Logger = createLogger({
    level,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  const stack: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const s of stack.splice(0).reverse())
      await s().catch((error: unknown) => logger.error({ err: error }, 'playground: error during shutdown'));
  };
  try {
    const sandbox = await startSandbox({
      seed: 'demo',
      logger: options.logDestination
        ? logger
        : createLogger({ level, destination: pino.destination({ fd: 2, sync: true }) }),
    });
    stack.push(() => sandbox.close());

    const secret = randomBytes(24).toString('hex');
    const botToken = `xoxb-playground-${randomBytes(12).toString('hex')}`;
    const workspace = new Workspace({ seed: 'demo' });
    const slack = new FakeSlack({ workspace, tokens: [botToken], logger });
    const interactions = new Interactions(slack, secret, logger);
    // The channel header follows the app's store, once the app runs (`/plan link`, `/plan unlink`).
    let linkOf: ((channelId: string) => Promise<ChannelLinkShown>) | undefined;
    const server = createPlaygroundServer({
      slack,
      interactions,
      logger,
      linkOf: (channelId) =>
        linkOf?.(channelId) ?? Promise.resolve({ linked: false, topic: NOT_LINKED_TOPIC }),
    });
    const port = await listen(server, options.port ?? DEFAULT_PLAYGROUND_PORT);
    stack.push(() => closeServer(server));
    const baseUrl = `http://127.0.0.1:${port}`;
    slack.setUrl(baseUrl);

    // A fresh store each time: the sandbox's tokens are new at every start.
    const dataDir = mkdtempSync(join(tmpdir(), 'slack-playground-'));
    stack.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const app = await startApp({
      NODE_ENV: 'development',
      LOG_LEVEL: level,
      SLACK_SIGNING_SECRET: secret,
      SLACK_BOT_TOKEN: botToken,
      SLACK_API_URL: `${baseUrl}/api/`,
      PLANNING_API_URL: sandbox.url,
      PLANNING_ADMIN_TOKEN: sandbox.ownerToken,
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PORT: '0',
      // Loopback, like the page and the sandbox: the playground is for this machine only, whatever
      // HOST the environment sets for the app.
      HOST: '127.0.0.1',
    });
    stack.push(() => app.stop());
    interactions.connect(`http://127.0.0.1:${app.port}/slack/events`);
    linkOf = async (channelId) => {
      const link = await app.store.links.get(workspace.team.id, channelId);
      if (!link) return { linked: false, topic: NOT_LINKED_TOPIC };
      const team = sandbox.state().teams[link.teamId];
      const channel = team?.channels.find((c) => c.id === link.channelId);
      return {
        linked: true,
        topic: `${team?.teamName ?? link.teamId} › ${channel?.channelName ?? link.channelId}`,
      };
    };
    await connectDemo(workspace, sandbox, app);

    return { url: `${baseUrl}/`, workspace, sandbox, app, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * What an admin would have done with `/plan connect` and `/plan link`: each demo person's Slack
 * user acts with their own planning account, and the demo's channels are linked (digest at 09:00
 * UTC on weekdays). The guest gets nothing: the app refuses to provision a guest.
 */
async function connectDemo(ws: Workspace, sandbox: Sandbox, app: Running) {
  const state = sandbox.state();
  const accounts = Object.values(state.accounts);
  for (const person of ws.people()) {
    const account = accounts.find((a) => a.userName === person.planningName);
    if (!account) continue;
    await app.store.identities.save({
      workspaceId: ws.team.id,
      slackUserId: person.id,
      serviceAccountId: account.id,
      planningUserId: account.id,
      orgId: orgIdFromToken(account.serviceToken) ?? sandbox.orgId,
      token: account.serviceToken,
      origin: 'brought',
    });
  }
  const teams = Object.values(state.teams).filter((t) => t.orgId === sandbox.orgId);
  for (const channel of ws.channels.values()) {
    if (!channel.linkTo) continue;
    const team = teams.find((t) => t.teamName === channel.linkTo?.team);
    const planningChannel = team?.channels.find((c) => c.channelName === channel.linkTo?.channel);
    if (!team || !planningChannel) continue;
    await app.store.links.upsert({
      workspaceId: ws.team.id,
      slackChannelId: channel.id,
      teamId: team.id,
      channelId: planningChannel.id,
      createdBy: 'U0ADA',
    });
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} is in use: stop what uses it, or set PORT to another port`)
          : error,
      ),
    );
    // Loopback only: the page acts as anyone in the demo, with no login.
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
