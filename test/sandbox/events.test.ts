import { describe, expect, it } from 'vitest';
import { clientFor, featureIn, roles, useSandbox } from '../helpers/sandbox.js';

const ctx = useSandbox();
const { owner, admin, member } = roles(ctx);

describe('account events', () => {
  it('feature, assumption and task changes reach the channel members of the moment, newest first', async () => {
    const f = await featureIn(owner(), member(), ctx.sandbox.memberId, 'Evented');
    await owner().teams.assign(f.teamId, ctx.sandbox.adminId);
    const assm = await member().assumptions.create(...f.path, { heading: 'Worth it' });
    await member().features.advance(...f.path);
    const task = await member().tasks.create(...f.path, { heading: 'Step one' });
    await member().tasks.update(...f.path, task.id, { state: 'in progress' });

    const ofFeature = async (client: ReturnType<typeof member>) =>
      (await client.account.eventsList()).events.filter((e) => e.featureId === f.featureId);
    const mine = await ofFeature(member());
    expect(mine.map((e) => [e.type, e.diff])).toEqual([
      ['tasks', ['state']],
      ['tasks', ['created']],
      ['features', ['stage']],
      ['assumptions', ['created']],
      ['features', ['created']],
    ]);
    expect(mine[0]).toMatchObject({
      teamId: f.teamId,
      channelId: f.channelId,
      taskId: task.id,
      stage: 'validation',
    });
    expect(mine[3]).toMatchObject({ assmId: assm.id });
    // The admin joined after the feature was created: they receive what happened since.
    expect((await ofFeature(admin())).map((e) => e.id)).toEqual(mine.slice(0, 4).map((e) => e.id));
  });

  it('someone outside the channel does not receive them', async () => {
    const f = await featureIn(owner(), member(), ctx.sandbox.memberId, 'Private channel work');
    const bot = await owner().serviceAccounts.create({ roleOrg: 'member', userName: 'Outsider bot' });
    const { events } = await clientFor(ctx.sandbox, bot.serviceToken as string).account.eventsList();
    expect(events.filter((e) => e.featureId === f.featureId)).toEqual([]);
  });

  it('aggregate=1 (the default) folds consecutive evaluation events per notion; aggregate=0 keeps them', async () => {
    const n1 = await owner().notions.create({ value: 'aggregation-1' });
    const n2 = await owner().notions.create({ value: 'aggregation-2' });
    await member().experiences.evaluate(n1.id, 4);
    await member().experiences.evaluate(n1.id, 5);
    await member().experiences.evaluate(n1.id, 6);
    await member().experiences.evaluate(n2.id, 7);
    const evaluations = (events: { type?: string; notionId?: string }[]) =>
      events.filter((e) => e.type === 'self-evaluation').map((e) => e.notionId);
    expect(evaluations((await member().account.eventsList({ aggregate: 0 })).events)).toEqual([
      n2.id,
      n1.id,
      n1.id,
      n1.id,
    ]);
    expect(evaluations((await member().account.eventsList()).events)).toEqual([n2.id, n1.id]);
    expect(evaluations((await member().account.eventsList({ aggregate: 1 })).events)).toEqual([n2.id, n1.id]);
  });

  it('pages with total and readOnly false', async () => {
    const page = await member().account.eventsList({ pageSize: 2, pageNumber: 1 });
    expect(page.events).toHaveLength(2);
    expect(page).toMatchObject({ pageNumber: 1, pageSize: 2, readOnly: false });
    expect(page.total).toBeGreaterThan(2);
  });
});
