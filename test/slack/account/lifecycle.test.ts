/**
 * What becomes of the accounts the app made when Slack takes people or the app away: the app
 * uninstalled or its bot token revoked closes every account it provisioned in the workspace (with
 * the workspace's organization admin access, recorded before the workspace is forgotten) — once,
 * retried in the background through a failure, a restart or another replica — and leaves accounts
 * people connected themselves open; a person deactivated twice at once is closed once.
 * Checked in the service (the sandbox): which accounts are closed, how often close was called.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { appJobs, startJobs } from '../../../src/app/jobs.js';
import { createClients } from '../../../src/clients.js';
import { createLogger } from '../../../src/logger.js';
import { eventually, Harness, type HarnessOptions, TEAM } from '../../helpers/slack-harness.js';

let h: Harness;
const start = async (options: HarnessOptions = { provisioning: true }) => {
  h = await Harness.start(options);
};
afterEach(() => h.close());

/** Gives `ids` provisioned accounts (their first command), and returns their service-account ids. */
async function provisioned(...ids: string[]): Promise<string[]> {
  const accounts: string[] = [];
  for (const id of ids) {
    h.slack.users.set(id, { id, name: `person-${id}` });
    await h.command('whoami', id);
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('You act as'));
    h.slack.calls.length = 0;
    const identity = (await h.store.identities.get(TEAM, id))!;
    expect(identity.origin).toBe('provisioned');
    accounts.push(identity.serviceAccountId);
  }
  return accounts;
}

const closedTime = async (serviceAccountId: string) =>
  (await h.owner().serviceAccounts.read(serviceAccountId)).closedTime;
const closes = () => h.sandbox.requests.count('serviceAccounts.close');
const allClosed = async (accounts: string[]) =>
  (await Promise.all(accounts.map(closedTime))).every((t) => t !== 0);

describe('the app uninstalled', () => {
  it.each([
    ['app_uninstalled', { type: 'app_uninstalled' }],
    ['tokens_revoked for the bot token', { type: 'tokens_revoked', tokens: { bot: ['UBOT'] } }],
  ])(
    '%s: every provisioned account is closed once; a pasted one is forgotten, left open',
    async (_, event) => {
      await start();
      const accounts = await provisioned('U1', 'U2', 'U3');
      const pasted = await h.connect('U4', 'member');

      expect((await h.event(event)).status).toBe(200);
      await eventually(() => allClosed(accounts), 'every provisioned account closed');
      expect(closes()).toBe(3);
      expect(await closedTime(pasted.serviceAccountId)).toBe(0);
      expect(await h.store.identities.listByWorkspace(TEAM)).toEqual([]);

      // Slack retries the event: nothing is closed again.
      expect((await h.event(event)).status).toBe(200);
      await h.app.stop();
      expect(closes()).toBe(3);
    },
  );
});

/** The minute tick of one replica (src/app/jobs.ts), over the app's store, woken by hand. */
function replica() {
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => h.logs.push(line) } });
  const clients = createClients({
    planningUrl: h.sandbox.url,
    slackApiUrl: h.slack.apiUrl,
    logger,
    // One request per attempt, as the app under test makes: the counts below are attempts.
    planningOptions: { timeoutMs: 1_000, retries: 0 },
  });
  return startJobs({
    logger,
    setTimer: () => () => {},
    jobs: appJobs({
      store: h.store,
      clients,
      logger,
      botTokenFor: async () => undefined,
      planningAccessFor: async () => undefined,
    }),
  });
}

const pendingClosures = () => h.store.db.selectFrom('account_closures').selectAll().execute();

describe('closing what an uninstall left, in the background', () => {
  it('with the admin token the workspace saved: through a failing service, a restart and two replicas ticking, each account is closed once', async () => {
    // No PLANNING_ADMIN_TOKEN: the workspace's own admin token (`/plan connect admin`) provisions.
    await start({ provisioning: false });
    await h.store.workspaces.setAdminToken(TEAM, h.sandbox.adminToken, h.sandbox.orgId);
    const accounts = await provisioned('U1', 'U2');
    const pasted = await h.connect('U3', 'member');

    h.sandbox.inject({ status: 503, operationId: 'serviceAccounts.close', times: 2 });
    expect((await h.event({ type: 'app_uninstalled' })).status).toBe(200);
    await eventually(
      async () => (await pendingClosures()).every((c) => c.attempts === 1) && closes() === 2,
      'both closings to fail once',
    );
    // The workspace is forgotten — its admin token too — but what closes its accounts is not.
    expect(await h.store.workspaces.get(TEAM)).toBeUndefined();
    expect(await h.store.identities.listByWorkspace(TEAM)).toEqual([]);
    const pending = await pendingClosures();
    expect(pending.map((c) => c.service_account_id).sort()).toEqual([...accounts].sort());
    for (const c of pending) expect(c.admin_token).not.toContain(h.sandbox.adminToken);
    expect(await allClosed(accounts)).toBe(false);

    // The process stops; two replicas tick once the retry is due.
    await h.app.stop();
    const [a, b] = [replica(), replica()];
    const later = new Date(Date.now() + 2 * 60_000);
    await Promise.all([a.pass(later), b.pass(later)]);
    expect(await allClosed(accounts)).toBe(true);
    expect(closes()).toBe(2 + 2);
    expect(await pendingClosures()).toEqual([]);
    expect(await closedTime(pasted.serviceAccountId)).toBe(0);

    // Later ticks find nothing left to close.
    await Promise.all([a.pass(new Date(later.getTime() + 60 * 60_000)), b.pass()]);
    expect(closes()).toBe(4);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('gives up after its bounded attempts, logged for an organization admin, and closes nothing twice', async () => {
    await start();
    const [account] = await provisioned('U1');
    h.sandbox.inject({ status: 503, operationId: 'serviceAccounts.close', times: 100 });
    await h.event({ type: 'app_uninstalled' });
    await eventually(async () => (await pendingClosures())[0]?.attempts === 1, 'the first attempt to fail');
    await h.app.stop();
    const tick = replica();
    let at = Date.now();
    for (let pass = 0; pass < 12; pass++) {
      at += 2 * 60 * 60_000; // past any retry delay
      await tick.pass(new Date(at));
    }
    await tick.stop();
    expect(closes()).toBe(10); // one at uninstall, nine by the tick
    expect(await pendingClosures()).toEqual([]);
    expect(await closedTime(account!)).toBe(0);
    expect(h.logs.join('\n')).toContain('could not be closed; given up');
  });
});

describe('a person deactivated in Slack', () => {
  it('deactivated twice at once (user_change delivered twice): the account is closed once', async () => {
    await start();
    const [account] = await provisioned('U5');
    const deactivated = () =>
      h.event({ type: 'user_change', user: { id: 'U5', team_id: TEAM, name: 'gone', deleted: true } });

    const answers = await Promise.all([deactivated(), deactivated()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await eventually(() => allClosed([account!]), 'the account closed');
    await h.app.stop(); // waits for what both deliveries still did after their acks
    expect(closes()).toBe(1);
    expect(await h.store.identities.get(TEAM, 'U5')).toBeUndefined();
  });
});
