/**
 * Notification preferences and quiet hours over signed HTTP: feedback on a task DMs its assignee
 * through notify(), which honours what the assignee chose.
 */

import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEEDBACK_FIELD, FEEDBACK_SHORTCUT } from '../../../src/slack/feedback/ids.js';
import { deliverHeld } from '../../../src/slack/kit/notify.js';
import { liveTaskCard } from '../../../src/slack/tasks/card.js';
import { choice, eventually, Harness, TEAM, text, viewIdOf } from '../../helpers/slack-harness.js';

describe('Notification preferences and quiet hours', () => {
  let h: Harness;
  let coords: { teamId: string; channelId: string; featureId: string; taskId: string };

  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('UAUTHOR', 'admin');
    await h.connect('UASSIGNEE', 'member');
    coords = await h.assignedTask('Ship it');
  });
  afterEach(() => h.close());

  /** The author gives feedback on the task card; resolves once the author is told the outcome. */
  async function giveFeedback(told: string) {
    const message = {
      type: 'message',
      ts: '1700000001.000200',
      bot_id: 'BBOT',
      ...liveTaskCard({ coords, heading: 'Ship it', state: 'idle', authorSlackId: 'UAUTHOR' }),
    };
    const since = h.slack.calls.length;
    await h.shortcut(FEEDBACK_SHORTCUT.giveFeedback, { message, user: 'UAUTHOR' });
    const viewId = viewIdOf(await h.slack.waitFor('views.open', undefined, { since }));
    await h.submit(
      viewId,
      [
        [FEEDBACK_FIELD.issue, choice('testing')],
        [FEEDBACK_FIELD.message, text('Needs tests')],
      ],
      { user: 'UAUTHOR', hash: `${viewId}-${told}` },
    );
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes(told),
    );
  }

  const dmsToAssignee = () =>
    h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'DUASSIGNEE');

  it('a kind turned off sends no DM; the others still go', async () => {
    await h.store.notifications.savePrefs(TEAM, 'UASSIGNEE', { muted: ['feedback'], timeZone: 'UTC' });
    await giveFeedback('turned these notifications off');
    expect(dmsToAssignee()).toEqual([]);
    expect(await h.store.notifications.due(Date.now() + 86_400_000)).toEqual([]);

    await h.store.notifications.savePrefs(TEAM, 'UASSIGNEE', { muted: ['reply'], timeZone: 'UTC' });
    await giveFeedback('was told and can reply');
    expect(dmsToAssignee()).toHaveLength(1);
  });

  it('a DM due in quiet hours waits for their end and is sent once, even by two replicas', async () => {
    // Quiet hours around the present moment, in the assignee's zone.
    const zone = 'Asia/Kolkata';
    const at = (ms: number) => format(new TZDate(Date.now() + ms, zone), 'HH:mm');
    const quiet = { start: at(-3_600_000), end: at(3_600_000) };
    await h.store.notifications.savePrefs(TEAM, 'UASSIGNEE', { muted: [], quiet, timeZone: zone });
    await giveFeedback('will be told when their quiet hours end');
    expect(dmsToAssignee()).toEqual([]);

    const deliver = (offsetMs: number) =>
      deliverHeld({
        store: h.store,
        slackFor: async () => h.app.app.client,
        logger: { info: () => {}, warn: () => {} },
        now: () => Date.now() + offsetMs,
      });
    // Still quiet: nothing goes.
    expect(await deliver(0)).toEqual({ sent: 0, dropped: 0, failed: 0 });
    expect(dmsToAssignee()).toEqual([]);

    // After the end, two replicas tick at once: one DM in all.
    const ticks = await Promise.all([deliver(3_700_000), deliver(3_700_000)]);
    expect(ticks.map((t) => t.sent).sort()).toEqual([0, 1]);
    expect(await deliver(3_800_000)).toEqual({ sent: 0, dropped: 0, failed: 0 });
    const dms = dmsToAssignee();
    expect(dms).toHaveLength(1);
    expect(JSON.stringify(dms[0]?.body.blocks)).toContain('Needs tests');
  });

  it('a held DM whose kind is turned off meanwhile is dropped, not sent', async () => {
    const zone = 'UTC';
    const at = (ms: number) => format(new TZDate(Date.now() + ms, zone), 'HH:mm');
    await h.store.notifications.savePrefs(TEAM, 'UASSIGNEE', {
      muted: [],
      quiet: { start: at(-3_600_000), end: at(3_600_000) },
      timeZone: zone,
    });
    await giveFeedback('will be told when their quiet hours end');
    await h.store.notifications.savePrefs(TEAM, 'UASSIGNEE', { muted: ['feedback'], timeZone: zone });
    const report = await deliverHeld({
      store: h.store,
      slackFor: async () => h.app.app.client,
      logger: { info: () => {}, warn: () => {} },
      now: () => Date.now() + 3_700_000,
    });
    expect(report).toEqual({ sent: 0, dropped: 1, failed: 0 });
    expect(dmsToAssignee()).toEqual([]);
  });

  it('quiet hours follow the person when their Slack time zone changes', async () => {
    await h.store.notifications.savePrefs(TEAM, 'UASSIGNEE', {
      muted: ['reply'],
      quiet: { start: '22:00', end: '07:00' },
      timeZone: 'Europe/Paris',
    });
    await h.event({
      type: 'user_change',
      user: { id: 'UASSIGNEE', name: 'a', tz: 'America/Chicago', profile: {} },
    });
    await eventually(
      async () => (await h.store.notifications.prefs(TEAM, 'UASSIGNEE'))?.timeZone === 'America/Chicago',
      'the new zone',
    );
    expect(await h.store.notifications.prefs(TEAM, 'UASSIGNEE')).toMatchObject({
      muted: ['reply'],
      quiet: { start: '22:00', end: '07:00' },
    });
  });
});
