/**
 * People and skills (issue 28): `/plan who @someone`, *Planning profile*, `/plan who knows
 * <notion>` and their refusals, through signed requests against the sandbox and the fake Slack.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlanningClient } from '../../../src/planning/index.js';
import { ACTION } from '../../../src/slack/kit/ids.js';
import { PEOPLE_ACTION } from '../../../src/slack/people/ids.js';
import { EXPLAINED } from '../../../src/slack/tasks/fit.js';
import { TASK_ACTION, TASK_VIEW } from '../../../src/slack/tasks/ids.js';
import { type FakeUser, Harness, profilesOffered, TEAM, viewIdOf } from '../../helpers/slack-harness.js';

const json = (v: unknown) => JSON.stringify(v);
type Block = {
  type: string;
  elements?: { action_id?: string; value?: string; text?: { text: string } }[];
  accessory?: { action_id?: string; value?: string };
};

let h: Harness;
let typescript: string;

/** The service's own clients of the seeded people. */
const as = (token: string) => createPlanningClient({ baseUrl: h.sandbox.url, token });

beforeEach(async () => {
  h = await Harness.start();
  await h.connect('UME', 'member');
  await h.connect('UPEER', 'admin');
  await h.link('C1', 'UME');
  const { teamId, channelId, featureId } = h.fixture;
  const owner = h.owner();
  for (const id of [h.sandbox.adminId, h.sandbox.memberId]) await owner.teams.assign(teamId, id);
  typescript = (await owner.notions.create({ value: 'TypeScript' })).id;
  await owner.notions.create({ value: 'Rust' });
  // The admin (UPEER): graded 8 by the owner, 6 by themselves; a task assigned; a feature authored.
  await owner.experiences.evaluatePeer(typescript, 8, h.sandbox.adminId);
  await as(h.sandbox.adminToken).experiences.evaluate(typescript, 6);
  const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Harden the login' });
  await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.adminId);
  await as(h.sandbox.adminToken).features.create(teamId, channelId, { heading: 'Single sign-on' });
});
afterEach(() => h.close());

async function answer(text: string, user = 'UME', channel = 'C1') {
  const since = h.slack.calls.length;
  expect((await h.command(text, user, channel)).status).toBe(200);
  return (await h.slack.waitFor('respond', () => true, { since })).body;
}

describe('/plan who @someone', () => {
  it("shows a teammate's profile privately: account, experience as the service gives it, open tasks, features — never who graded", async () => {
    const body = await answer('who <@UPEER|peer>');
    expect(body).toMatchObject({ response_type: 'ephemeral' });
    const text = json(body);
    expect(text).toContain('<@UPEER>');
    expect(text).toContain('admin of the organization');
    expect(text).toContain('*TypeScript* — self *6* · peers *8* (1 grade)');
    expect(text).toContain('Harden the login');
    expect(text).toContain('Single sign-on');
    // Anonymous: neither the grader's planning id nor their Slack user, nor a time.
    expect(text).not.toContain(h.sandbox.ownerId);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(h.sandbox.requests.count('experienceListPeer')).toBe(1);
    expect((body.blocks as unknown[]).length).toBeLessThanOrEqual(50);
  });

  it('for yourself, adds what the Home tab shows', async () => {
    const text = json(await answer('who <@UME|me>'));
    expect(text).toContain('Your planning profile');
    expect(text).toContain('Waiting for me');
    expect(text).toContain('Recent activity');
    expect(h.sandbox.requests.count('experienceList')).toBe(1);
  });

  it.each<[string, Partial<FakeUser> | undefined, string]>([
    ['a guest', { guest: 'multi-channel' }, 'they are a guest in this workspace'],
    ['a bot', { bot: true }, 'they are a bot or an app'],
    ['someone from another organization', { teamId: 'T0OTHER' }, 'they are from another organization'],
    ['a full member who is not connected', {}, 'is not connected to the planning service yet'],
    ['someone Slack does not know', undefined, 'I could not find that person in this workspace'],
  ])('%s: one sentence, nothing read', async (_, facts, why) => {
    if (facts) h.slack.users.set('UX', { id: 'UX', name: 'someone', ...facts });
    const body = await answer('who <@UX|someone>');
    expect(json(body)).toContain(why);
    expect(body.blocks).toHaveLength(1);
    expect(json(body)).not.toContain('went wrong');
    expect(h.sandbox.requests.count('experienceListPeer')).toBe(0);
    expect(await h.store.identities.get(TEAM, 'UX')).toBeUndefined();
  });

  it('someone connected to another planning organization: one sentence, nothing read', async () => {
    await h.connect('UELSE', 'member');
    const mine = (await h.store.identities.get(TEAM, 'UELSE'))!;
    await h.store.identities.save({ ...mine, orgId: 'another-org', origin: 'brought' });
    const body = await answer('who <@UELSE|else>');
    expect(json(body)).toContain('works in another planning organization');
    expect(h.sandbox.requests.count('experienceListPeer')).toBe(0);
  });

  it('what is not a mention gets the usage; a guest asking is refused by the gate', async () => {
    expect(json(await answer('who bob'))).toContain('I could not read that');
    h.slack.users.set('UGUEST', { id: 'UGUEST', name: 'guest', guest: 'multi-channel' });
    expect(json(await answer('who <@UPEER|peer>', 'UGUEST'))).toContain('you are a guest in this workspace');
    expect(h.sandbox.requests.count('experienceListPeer')).toBe(0);
  });

  it('a service failure is one sentence', async () => {
    h.sandbox.inject({ operationId: 'experienceListPeer', status: 503 });
    expect(json(await answer('who <@UPEER|peer>'))).toContain('not answering right now');
  });
});

describe('/plan who knows <notion>', () => {
  it('ranks the linked team on the notion, with the notion as the service has it and a profile button each', async () => {
    await as(h.sandbox.memberToken).experiences.evaluate(typescript, 9);
    const body = await answer('who knows typescript');
    const text = json(body);
    expect(text).toContain('Who knows TypeScript');
    // The admin (peers 8) before the member (self 9 only): peers' average first.
    const blocks = body.blocks as Block[];
    const ranks = blocks
      .filter((b) => b.accessory?.action_id === ACTION.profileOpen)
      .map((b) => b.accessory?.value);
    expect(ranks).toEqual(['UPEER', 'UME']);
    expect(text).toContain('peers *8* (1 grade)');
    expect(text).not.toContain(h.sandbox.ownerId);
    expect(h.sandbox.requests.count('notionRead')).toBe(1);
    expect(h.sandbox.requests.count('experienceRead')).toBe(1);
  });

  it('a notion that does not exist offers the closest; picking one shows its ranking', async () => {
    const body = await answer('who knows typscript');
    expect(json(body)).toContain('There is no notion named “typscript”');
    const offered = (body.blocks as Block[])
      .flatMap((b) => b.elements ?? [])
      .filter((e) => e.action_id === PEOPLE_ACTION.knows);
    expect(offered[0]?.text?.text).toBe('TypeScript');
    await h.press({ message: '1.1', ephemeral: true }, offered[0]!, { user: 'UME' });
    const shown = await h.slack.waitFor('respond', (b) => b.replace_original === true);
    expect(json(shown.body)).toContain('Who knows TypeScript');
    expect(h.sandbox.requests.count('experienceReadPeer')).toBeGreaterThan(0);
  });

  it('a channel that is not linked, or no notion given: one sentence', async () => {
    expect(json(await answer('who knows typescript', 'UME', 'C9'))).toContain(
      'not linked to a planning team',
    );
    expect(json(await answer('who knows'))).toContain('I could not read that');
    expect(h.sandbox.requests.count('experienceReadPeer')).toBe(0);
  });
});

describe('Planning profile button', () => {
  it('shows the profile of the person it names, privately', async () => {
    await h.press({ message: '2.2' }, ACTION.profileOpen, { value: 'UPEER', user: 'UME' });
    const shown = await h.slack.waitFor('respond', (b) => json(b).includes('Planning profile'));
    expect(shown.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(json(shown.body)).toContain('peers *8* (1 grade)');
  });

  it('pressed inside a modal (a candidate in the Assign form), pushes the profile over it', async () => {
    const form = await openAssignForm('Type the API');
    const since = h.slack.calls.length;
    await h.press({ view: String(form.body.view_id) }, ACTION.profileOpen, { value: 'UPEER', user: 'UME' });
    const pushed = await h.slack.waitFor('views.push', () => true, { since });
    const filled = await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewIdOf(pushed) && json(b.view).includes('peers *8* (1 grade)'),
      { since },
    );
    expect(json(filled.body.view)).toContain('Planning profile');
    expect(h.slack.calls.slice(since).filter((c) => c.method === 'respond')).toEqual([]);
  });
});

/** UME opens the Assign form of a new task on TypeScript; resolves with the form as filled. */
async function openAssignForm(heading: string) {
  const { teamId, channelId, featureId } = h.fixture;
  const owner = h.owner();
  const task = await owner.tasks.create(teamId, channelId, featureId, { heading });
  await owner.tasks.update(teamId, channelId, featureId, task.id, { notionIds: [typescript] });
  const since = h.slack.calls.length;
  await h.press({ message: '3.3' }, TASK_ACTION.assignOpen, {
    value: json({ teamId, channelId, featureId, taskId: task.id }),
    user: 'UME',
  });
  return h.slack.waitFor(
    'views.update',
    (b) => (b.view as { callback_id?: string }).callback_id === TASK_VIEW.assign,
    { since },
  );
}

describe('Assign… explains each candidate’s fit', () => {
  it("shows the task's notions with each candidate's experience beside the fit in words — never who graded", async () => {
    const form = await openAssignForm('Type the API');
    const text = json(form.body.view);
    expect(text).toContain('Why they fit');
    // The admin: graded 8 by a peer and 6 by themselves, beside their fit in words.
    expect(text).toMatch(
      /Admin[^"]*— (great|good|weak) fit[^"]*\\nTypeScript: self \*6\* · peers \*8\* \(1 grade\)/,
    );
    // The asker's own experience is read as theirs; the others' with listPeer, one read each.
    expect(h.sandbox.requests.count('experienceList')).toBe(1);
    expect(h.sandbox.requests.count('experienceListPeer')).toBeLessThanOrEqual(EXPLAINED);
    expect((form.body.view as { blocks: unknown[] }).blocks.length).toBeLessThanOrEqual(100);
    // Each explained candidate who is someone in Slack has their planning profile beside them.
    expect(profilesOffered((form.body.view as { blocks: unknown[] }).blocks)).toContain('UPEER');
  });
});
