/**
 * The Home tab across replicas (issue 35 item 8): two replicas of the app on one PostgreSQL schema,
 * each with its own cache of Home snapshots. A tab one replica published is never overwritten by
 * another replica publishing from an older cache; the store keeps the newest snapshot published.
 */
import { expect, it } from 'vitest';
import { describeWithPostgres } from '../../helpers/postgres.js';
import { type Harness, onTwoReplicas, TEAM } from '../../helpers/slack-harness.js';

describeWithPostgres('Home tab on two replicas (PostgreSQL)', () => {
  let a: Harness;
  let b: Harness;
  onTwoReplicas('home', {}, (r) => ({ a, b } = r));

  const open = (h: Harness) =>
    h.event({ type: 'app_home_opened', user: 'UMEM', channel: 'DUMEM', tab: 'home' });
  const publishes = () => a.slack.called('views.publish').filter((c) => c.body.user_id === 'UMEM');
  /** The tab published with `heading` in it (a filled one), from call index `since` on. */
  const filledWith = (heading: string, since: number) =>
    a.slack.waitFor('views.publish', (body) => JSON.stringify(body.view).includes(heading), { since });

  it('a replica with an older snapshot cached never publishes it over the newer tab another published', async () => {
    await a.connect('UMEM', 'member');
    await a.link('C1', 'UMEM');
    const owner = a.owner();
    const { teamId, channelId, featureId, taskId } = await a.assignedTask('Old heading');

    // Replica b shows the tab first, and caches what it read.
    await open(b);
    await filledWith('Old heading', 0);
    // The task changes in the service; replica a shows the tab next, with the change.
    await owner.tasks.update(teamId, channelId, featureId, taskId, { heading: 'New heading' });
    let since = a.slack.calls.length;
    await open(a);
    const newer = await filledWith('New heading', since);
    const newestAt = await a.store.homes.newest(TEAM, 'UMEM');

    // The person opens the tab again and the request reaches b, whose cache is older.
    since = a.slack.calls.length;
    await open(b);
    await filledWith('New heading', since);
    const after = publishes().filter((c) => a.slack.calls.indexOf(c) > a.slack.calls.indexOf(newer));
    expect(after.length).toBeGreaterThanOrEqual(1);
    for (const call of after) expect(JSON.stringify(call.body.view)).not.toContain('Old heading');
    // What Slack shows now is the newest; the store says b's snapshot is the newest published.
    expect(JSON.stringify(after.at(-1)?.body.view)).toContain('New heading');
    expect(newestAt).toBeDefined();
    expect(await a.store.homes.newest(TEAM, 'UMEM')).toBeGreaterThan(newestAt!);
  }, 60_000);
});
