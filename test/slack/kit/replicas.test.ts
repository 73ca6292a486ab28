/**
 * Two replicas of the app on one PostgreSQL schema, behind one load balancer: the same service,
 * the same Slack, each with its own store connection, clients and in-process state. A new person's
 * first command delivered to both at once (Slack's retry, a double submit) makes one account.
 */
import { expect, it } from 'vitest';
import { describeWithPostgres } from '../../helpers/postgres.js';
import { eventually, type Harness, onTwoReplicas, TEAM } from '../../helpers/slack-harness.js';

const PEOPLE = Array.from({ length: 10 }, (_, i) => `UNEW${i}`);

describeWithPostgres('two replicas provisioning new people (PostgreSQL)', () => {
  let a: Harness;
  let b: Harness;
  onTwoReplicas('replicas', { provisioning: true }, (r) => ({ a, b } = r));

  it('ten new people, each first command on both replicas at once: ten accounts, each the one stored, none unheld', async () => {
    for (const id of PEOPLE) a.slack.users.set(id, { id, name: `person-${id}` });
    const answers = await Promise.all(
      PEOPLE.flatMap((id) => [a.command('whoami', id), b.command('whoami', id)]),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(PEOPLE.length * 2).fill(200));
    await eventually(
      () => a.slack.called('respond').length >= PEOPLE.length * 2,
      'every command answered',
      30_000,
    );
    // Both replicas answered each person with the account: nobody is told "not connected".
    for (const call of a.slack.called('respond')) expect(JSON.stringify(call.body)).toContain('You act as');

    const identities = await a.store.identities.listByWorkspace(TEAM);
    expect(identities.map((i) => i.slackUserId).sort()).toEqual([...PEOPLE].sort());
    expect(identities.every((i) => i.origin === 'provisioned')).toBe(true);
    expect(new Set(identities.map((i) => i.serviceAccountId)).size).toBe(PEOPLE.length);
    // The service's side: one account made per person, each the one its identity holds, all open.
    expect(a.sandbox.requests.count('serviceAccountCreate')).toBe(PEOPLE.length);
    const accounts = a.sandbox.state().accounts;
    for (const identity of identities) expect(accounts[identity.serviceAccountId]?.closedTime).toBe(0);
    expect(await a.unheldAccounts()).toEqual([]);
  }, 60_000);
});
