/**
 * The app's own database failing under a command: the user is told in one private sentence that
 * the database is not answering (not "something went wrong"), and the next command works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/store/index.js';
import { Harness } from '../../helpers/slack-harness.js';

describe('the store unavailable during a command', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
  });
  afterAll(() => h.close());

  it('answers one sentence naming the database, then works again', async () => {
    const get = h.store.identities.get;
    h.store.identities.get = async () => {
      throw new StoreUnavailableError('unreachable', {
        cause: new Error('Connection terminated unexpectedly'),
      });
    };
    try {
      const res = await h.command('whoami');
      expect(res.status).toBe(200);
      const told = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('database'));
      expect(JSON.stringify(told.body)).toContain(
        'Our database is not answering right now; nothing was saved',
      );
      expect(told.body.response_type ?? 'ephemeral').toBe('ephemeral');
    } finally {
      h.store.identities.get = get;
    }
    await h.command('whoami');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('member'));
  });
});
