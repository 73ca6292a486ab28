import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countPeerGrades,
  peerGradeKey,
  peerGradeNotice,
  sendPeerGradeNotices,
} from '../../src/digest/peer-grades.js';
import { Experience } from '../../src/planning/index.js';
import { notify } from '../../src/slack/kit/notify.js';
import { type Bench, BOT_TOKEN, openBench } from '../helpers/digest-bench.js';

const experience = (notionId: string, peerCount: number) =>
  Experience.parse({
    id: `xp-${notionId}`,
    notion: { id: notionId, value: `Notion ${notionId}` },
    peerEval: { count: peerCount, average: 7, recent: [7] },
    selfEval: { count: 1, average: 5, recent: [5] },
  });

describe('peer grade notice (pure)', () => {
  it('counts new peer grades per notion, never negative', () => {
    const before = { n1: 2, n2: 5 };
    const now = countPeerGrades([experience('n1', 4), experience('n2', 3), experience('n3', 1)]);
    expect(now).toEqual({ n1: 4, n2: 3, n3: 1 });
    const notice = peerGradeNotice(before, now);
    expect(notice.newGrades).toBe(3);
    expect(notice.text).toBe(
      'You received 3 new peer grades since your last update. See your averages with `/plan grades`.',
    );
  });

  it('says nothing the first time (baseline) and when nothing arrived', () => {
    expect(peerGradeNotice(undefined, { n1: 4 })).toEqual({ newGrades: 0 });
    expect(peerGradeNotice({ n1: 4 }, { n1: 4 })).toEqual({ newGrades: 0 });
  });

  it('never names a notion, a grade, a person or a time', () => {
    const { text } = peerGradeNotice({ n1: 0 }, { n1: 1 });
    expect(text).toBe(
      'You received a new peer grade since your last update. See your averages with `/plan grades`.',
    );
    expect(text).not.toMatch(/Notion|n1|\d/);
  });
});

describe('sendPeerGradeNotices', () => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await openBench('sqlite');
    for (const [user, token] of [
      ['U1', 'token-u1'],
      ['U2', 'token-u2'],
    ]) {
      bench.person(user as string);
      await bench.store.identities.save({
        workspaceId: 'T1',
        slackUserId: user as string,
        serviceAccountId: `sa-${user}`,
        planningUserId: `p-${user}`,
        orgId: 'org-1',
        token: token as string,
        origin: 'provisioned',
      });
    }
  });
  afterEach(() => bench.close());

  const send = (iso: string) =>
    sendPeerGradeNotices({
      store: bench.store,
      workspaceId: 'T1',
      // As the app delivers it: a DM through the person's notification choices.
      notify: (slackUserId, body) =>
        notify(
          { store: bench.store, now: () => Date.parse(iso) },
          bench.clients.slack(BOT_TOKEN),
          { workspaceId: 'T1', slackUserId },
          'peerGrades',
          body,
        ),
      planningClientFor: bench.clients.planning,
      logger: bench.deps().logger,
      owner: 'test',
      now: new Date(iso),
    });

  it('DMs only the person with new grades, once a day, with their own data', async () => {
    bench.experiences.set('token-u1', [experience('n1', 1)]);
    bench.experiences.set('token-u2', [experience('n1', 2)]);
    expect(await send('2026-03-10T09:00:00Z')).toEqual({ checked: 2, notified: 0, failed: 0 });

    bench.experiences.set('token-u1', [experience('n1', 3)]);
    expect(await send('2026-03-11T09:00:00Z')).toEqual({ checked: 2, notified: 1, failed: 0 });
    expect(bench.posted).toEqual([
      expect.objectContaining({ channel: 'DU1', text: expect.stringContaining('2 new peer grades') }),
    ]);

    // Same day again: already checked, nothing sent twice.
    bench.experiences.set('token-u1', [experience('n1', 5)]);
    expect(await send('2026-03-11T15:00:00Z')).toEqual({ checked: 0, notified: 0, failed: 0 });
    expect(bench.posted).toHaveLength(1);
    expect((await bench.store.digests.lastPosted('T1', peerGradeKey('U1')))?.snapshot).toBe('{"n1":3}');
  });

  it("goes through the person's notification choices: turned off, nothing is sent and the day still counts", async () => {
    await bench.store.notifications.savePrefs('T1', 'U1', { muted: ['peerGrades'], timeZone: 'UTC' });
    bench.experiences.set('token-u1', [experience('n1', 1)]);
    bench.experiences.set('token-u2', [experience('n1', 1)]);
    await send('2026-03-10T09:00:00Z');
    bench.experiences.set('token-u1', [experience('n1', 4)]);
    bench.experiences.set('token-u2', [experience('n1', 2)]);
    expect(await send('2026-03-11T09:00:00Z')).toEqual({ checked: 2, notified: 1, failed: 0 });
    expect(bench.posted).toEqual([expect.objectContaining({ channel: 'DU2' })]);
    expect((await bench.store.digests.lastPosted('T1', peerGradeKey('U1')))?.snapshot).toBe('{"n1":4}');
  });
});
