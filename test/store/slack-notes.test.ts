import { expect, it } from 'vitest';
import { MAX_NOTES, StoreValidationError } from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

forEachBackend('notes of what Slack did', (backend) => {
  it('tells which notes were made since a time, per workspace; noting again moves the time', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const start = clock.t;
    await store.slackNotes.note('T1', ['task:t1:state:done', 'task:t1:assignee:u2', 'task:t1:state:done']);
    await store.slackNotes.note('T2', ['task:t9:state:done']);
    clock.advance(60_000);
    const later = clock.t;
    await store.slackNotes.note('T1', ['feature:f1:stage:validation']);

    const asked = [
      'task:t1:state:done',
      'task:t1:assignee:u2',
      'feature:f1:stage:validation',
      'task:t9:state:done',
    ];
    expect(await store.slackNotes.since('T1', asked, start)).toEqual(
      new Set(['task:t1:state:done', 'task:t1:assignee:u2', 'feature:f1:stage:validation']),
    );
    // A note made before the watch last looked does not hide a later change.
    expect(await store.slackNotes.since('T1', asked, later)).toEqual(
      new Set(['feature:f1:stage:validation']),
    );
    clock.advance(60_000);
    await store.slackNotes.note('T1', ['task:t1:state:done']);
    expect(await store.slackNotes.since('T1', asked, later)).toEqual(
      new Set(['feature:f1:stage:validation', 'task:t1:state:done']),
    );
    expect(await store.slackNotes.since('T1', [], start)).toEqual(new Set());
  });

  it('purges notes older than a number of days, and refuses bad input with nothing stored', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    await store.slackNotes.note('T1', ['old']);
    clock.advance(2 * 24 * 60 * 60 * 1000);
    await store.slackNotes.note('T1', ['new']);
    expect(await store.slackNotes.purgeOlderThan(1)).toBe(1);
    expect(await store.slackNotes.since('T1', ['old', 'new'], 0)).toEqual(new Set(['new']));

    const tooMany = Array.from({ length: MAX_NOTES + 1 }, (_, i) => `n${i}`);
    await expect(store.slackNotes.note('T1', tooMany)).rejects.toBeInstanceOf(StoreValidationError);
    await expect(store.slackNotes.note('', ['x'])).rejects.toBeInstanceOf(StoreValidationError);
    expect(await store.slackNotes.since('T1', ['n0', 'x'], 0)).toEqual(new Set());
  });
});
