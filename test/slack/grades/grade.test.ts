import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../../src/sandbox/index.js';
import { GRADE_FIELD, GRADE_SHORTCUT, GRADE_VIEW } from '../../../src/slack/grades/ids.js';
import { VIEW } from '../../../src/slack/kit/ids.js';
import {
  choice,
  eventually,
  external,
  Harness,
  submitted,
  TEAM,
  user,
  viewIdOf,
} from '../../helpers/slack-harness.js';

describe('Grade a peer’s notion', () => {
  let h: Harness;
  let notionId: string;

  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('UGRADER', 'member');
    await h.connect('UPEER', 'admin');
    notionId = (await h.owner().notions.create({ value: 'TypeScript' })).id;
  });
  afterEach(() => h.close());

  /** The grader's Grade a peer form (the global shortcut): its view id. */
  const openGradeForm = () =>
    h.openForm(() => h.shortcut(GRADE_SHORTCUT.gradePeer, { user: 'UGRADER' }), GRADE_VIEW.grade);

  const form = (peer: string, grade = '7') =>
    [
      [GRADE_FIELD.peer, user(peer)],
      [GRADE_FIELD.notion, external(notionId, 'TypeScript')],
      [GRADE_FIELD.grade, choice(grade)],
    ] as Parameters<Harness['submit']>[1];

  it('records the grade anonymously: private confirmation, nothing to the peer, no log pairing them', async () => {
    const viewId = await openGradeForm();
    expect(JSON.stringify(h.slack.views.get(viewId))).toContain('24 hours');
    await h.submit(viewId, form('UPEER'), { user: 'UGRADER' });
    const done = await h.slack.waitFor('views.update', (b) =>
      JSON.stringify(b.view).includes('recorded anonymously'),
    );
    expect(done.body.view_id).toBe(viewId);

    const experience = await h.owner().experiences.readPeer(notionId, h.sandbox.adminId);
    expect(experience.peerEval).toMatchObject({ count: 1, average: 7 });
    // Nothing public and nothing to the peer.
    expect(h.slack.called('chat.postMessage')).toEqual([]);
    expect(h.slack.called('chat.postEphemeral')).toEqual([]);
    expect(h.slack.called('conversations.open')).toEqual([]);
    // No log line names the peer (so none can pair grader and peer or grade).
    const logs = h.logs.join('');
    expect(logs).not.toContain('UPEER');
    expect(logs).not.toContain(h.sandbox.adminId);
  });

  it('records one grade for a retried or double submission', async () => {
    const viewId = await openGradeForm();
    // The same payload each time, as Slack resends it.
    const payload = {
      type: 'view_submission',
      view: submitted(viewId, h.slack.views.get(viewId)!, form('UPEER')),
    };
    const [first, second] = await Promise.all([
      h.interact(payload, 'UGRADER'),
      h.interact(payload, 'UGRADER'),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('recorded anonymously'));
    const updates = h.slack.called('views.update').length;
    const retried = await h.interact(payload, 'UGRADER', {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(retried.status).toBe(200);
    // The retry shows the stored confirmation again instead of grading again.
    await eventually(() => h.slack.called('views.update').length > updates, 'the stored result shown again');
    expect(JSON.stringify(h.slack.called('views.update').at(-1)?.body.view)).toContain(
      'recorded anonymously',
    );
    expect(h.sandbox.requests.count('experienceEvaluatePeer')).toBe(1);
    const experience = await h.owner().experiences.readPeer(notionId, h.sandbox.adminId);
    expect(experience.peerEval).toMatchObject({ count: 1, average: 7 });
  });

  it('shows a grader who is not connected Connect in place of the form as it opens; records nothing', async () => {
    await h.store.identities.delete(TEAM, 'UGRADER');
    const viewId = await openGradeForm();
    const shown = await h.slack.waitFor('views.update', (b) =>
      JSON.stringify(b.view).includes('connect_open'),
    );
    expect(shown.body.view_id).toBe(viewId);
    expect(JSON.stringify(shown.body.view)).toContain('not connected');
    // The form is gone before anything was typed (a token lost later is answered on submit: see 401).
    expect((h.slack.views.get(viewId) as { callback_id: string }).callback_id).toBe(VIEW.info);
    expect(h.sandbox.requests.count('experienceEvaluatePeer')).toBe(0);
    expect(h.sandbox.requests.count('experienceEvaluate')).toBe(0);
  });

  it('never logs the grader next to the notion or the grade, whether grading fails or succeeds', async () => {
    const viewId = await openGradeForm();
    h.sandbox.inject({ operationId: 'experienceEvaluatePeer', status: 503 });
    await h.submit(viewId, form('UPEER'), { user: 'UGRADER' });
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('not answering'));
    await h.submit(viewId, form('UPEER'), { user: 'UGRADER', hash: `${viewId}-again` });
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('recorded anonymously'));
    await h.command('grade <@UPEER|peer> typescript 7', 'UGRADER');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('recorded anonymously'));
    expect(h.sandbox.requests.count('experienceEvaluatePeer')).toBe(3);

    const grader = ['UGRADER', h.sandbox.memberId];
    for (const line of h.logs.flatMap((chunk) => chunk.split('\n'))) {
      if (!grader.some((id) => line.includes(id))) continue;
      expect(line).not.toContain(notionId);
      expect(line.toLowerCase()).not.toContain('typescript');
      // The grade (7) as a value of its own, not a digit of a timestamp or an id.
      expect(line).not.toMatch(/(?<![\w.-])7(?![\w.-])/);
    }
  });

  it('grading yourself is a self-evaluation', async () => {
    const viewId = await openGradeForm();
    await h.submit(viewId, form('UGRADER', '4'), { user: 'UGRADER' });
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('self-evaluation'));
    const member = h.owner();
    const mine = await member.experiences.readPeer(notionId, h.sandbox.memberId);
    expect(mine.selfEval).toMatchObject({ count: 1, average: 4 });
    expect(h.sandbox.requests.count('experienceEvaluatePeer')).toBe(0);
  });

  it('tells the grader a peer must connect first when nobody can provision them', async () => {
    h.slack.users.set('UNEW', { id: 'UNEW', name: 'new' });
    const viewId = await openGradeForm();
    await h.submit(viewId, form('UNEW'), { user: 'UGRADER' });
    const view = await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('connect'));
    expect(JSON.stringify(view.body.view)).toContain('<@UNEW> is not connected');
    expect(h.sandbox.requests.count('experienceEvaluatePeer')).toBe(0);
  });

  it.each<[FaultRule, string]>([
    [{ status: 401 }, 'Reconnect'],
    [{ status: 403 }, 'your role does not allow it'],
    [{ status: 503 }, 'not answering right now; nothing was saved'],
    [{ delayMs: 2_500 }, 'did not answer in time'],
  ])('when the service answers %o, tells only the grader and keeps the form', async (fault, why) => {
    const viewId = await openGradeForm();
    h.sandbox.inject({ operationId: 'experienceEvaluatePeer', ...fault });
    await h.submit(viewId, form('UPEER'), { user: 'UGRADER' });
    const shown = await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes(why));
    if (fault.status === 401) expect((await h.store.identities.get(TEAM, 'UGRADER'))?.valid).toBe(false);
    else expect(JSON.stringify(shown.body.view)).toContain('"initial_user":"UPEER"');
    expect(h.slack.called('chat.postMessage')).toEqual([]);
    if (fault.status) {
      const experience = await h
        .owner()
        .experiences.readPeer(notionId, h.sandbox.adminId)
        .catch(() => undefined);
      expect(experience?.peerEval?.count ?? 0).toBe(0);
    }
  });

  it('refuses a missing grade on its field', async () => {
    const viewId = await openGradeForm();
    const res = await h.submit(
      viewId,
      [
        [GRADE_FIELD.peer, user('UPEER')],
        [GRADE_FIELD.notion, external(notionId)],
      ],
      {
        user: 'UGRADER',
      },
    );
    expect(res.json()).toEqual({
      response_action: 'errors',
      errors: { [GRADE_FIELD.grade.block]: 'Choose a grade.' },
    });
  });

  it('searches notions for the form', async () => {
    await h.owner().notions.create({ value: 'Rust' });
    const res = await h.suggest({ id: 'V9' }, GRADE_FIELD.notion, 'type', 'UGRADER');
    const { options } = res.json() as { options: { value: string; text: { text: string } }[] };
    expect(options.map((o) => o.text.text)).toEqual(['TypeScript']);
  });

  it('grades in one line with /plan grade @user <notion> <grade>', async () => {
    expect((await h.command('grade <@UPEER|peer> typescript 9', 'UGRADER')).status).toBe(200);
    const reply = await h.slack.waitFor('respond');
    expect(reply.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(reply.body)).toContain('recorded anonymously');
    const experience = await h.owner().experiences.readPeer(notionId, h.sandbox.adminId);
    expect(experience.peerEval).toMatchObject({ count: 1, average: 9 });
  });

  it('/plan grades shows the graded person their averages and counts, never who graded them', async () => {
    await h.command('grade <@UPEER|peer> typescript 9', 'UGRADER');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('recorded anonymously'));
    await h.command('grade <@UPEER|peer> typescript 6', 'UPEER');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('self-evaluation'));

    await h.command('grades', 'UPEER');
    const reply = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('Your experience'));
    expect(reply.body.response_type).toBe('ephemeral');
    const shown = JSON.stringify(reply.body.blocks);
    expect(shown).toContain('*TypeScript* — peers *9* (1 grade) · you *6* (1 grade)');
    expect(shown).toContain('never who graded you');
    for (const grader of ['UGRADER', 'user-UGRADER', h.sandbox.memberId]) expect(shown).not.toContain(grader);

    await h.command('grades', 'UGRADER');
    const none = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('no grades yet'));
    expect(JSON.stringify(none.body)).toContain('/plan grade');
  });

  it.each([
    ['grade <@UPEER|peer> Cobol 5', 'no notion named “Cobol”'],
    ['grade <@UPEER|peer> TypeScript 11', '`11` is not a grade'],
    ['grade someone 5', 'I could not read that'],
  ])('answers %s with a clear message and records nothing', async (input, message) => {
    await h.command(input, 'UGRADER');
    const reply = await h.slack.waitFor('respond');
    expect(JSON.stringify(reply.body)).toContain(message);
    expect(h.sandbox.requests.count('experienceEvaluatePeer')).toBe(0);
  });
});

describe('Grade a peer with provisioning on', () => {
  let h: Harness;
  let notionId: string;

  beforeEach(async () => {
    h = await Harness.start({ provisioning: true });
    await h.connect('UGRADER', 'member');
    notionId = (await h.owner().notions.create({ value: 'TypeScript' })).id;
  });
  afterEach(() => h.close());

  it('provisions a service account for a peer who has none, and records the grade for it', async () => {
    h.slack.users.set('UNEW', { id: 'UNEW', name: 'newcomer', realName: 'New Comer' });
    await h.shortcut(GRADE_SHORTCUT.gradePeer, { user: 'UGRADER' });
    const open = await h.slack.waitFor('views.open');
    await h.submit(
      viewIdOf(open),
      [
        [GRADE_FIELD.peer, user('UNEW')],
        [GRADE_FIELD.notion, external(notionId, 'TypeScript')],
        [GRADE_FIELD.grade, choice('8')],
      ],
      { user: 'UGRADER' },
    );
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('recorded anonymously'));

    const peer = await h.store.identities.get(TEAM, 'UNEW');
    expect(peer).toMatchObject({ origin: 'provisioned', orgId: h.sandbox.orgId, valid: true });
    const accounts = (await h.owner().serviceAccounts.list()).serviceAccounts;
    expect(accounts.find((a) => a.id === peer?.serviceAccountId)?.userName).toBe('New Comer');
    const experience = await h.owner().experiences.readPeer(notionId, peer!.planningUserId);
    expect(experience.peerEval).toMatchObject({ count: 1, average: 8 });
    // The grader already had an account: only the peer's was made.
    expect((await h.store.identities.get(TEAM, 'UGRADER'))?.origin).toBe('brought');
    expect(h.sandbox.requests.count('experienceEvaluatePeer')).toBe(1);
  });
});
