/**
 * What a failed planning call is said as: "nothing was saved" only for a call that writes (a read
 * saves nothing whatever happens), and a refused field in words, never the service's field name.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, RateLimitedError } from '../../../src/planning/index.js';
import type { SlackDeps } from '../../../src/slack/kit/deps.js';
import { explainFailure } from '../../../src/slack/kit/failures.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const deps = { logger: quiet } as unknown as SlackDeps;
const ctx = { action: 'test', workspaceId: 'T1', slackUserId: 'U1' };
const said = async (error: unknown) => {
  const explained = await explainFailure(deps, error, ctx);
  return 'text' in explained ? explained.text.text : JSON.stringify(explained);
};

describe('explainFailure (issue 23 item 6)', () => {
  it('a refused search (a read) names the field in words and never says "nothing was saved"', async () => {
    const error = new InvalidArgumentError('bad', {
      operation: 'deepContextSearch',
      method: 'GET',
      path: '/deep-context',
      field: 'searchTerm',
    });
    const text = await said(error);
    expect(text).toBe('The planning service refused the search term.');
  });

  it('a refused write still says nothing was saved', async () => {
    const error = new InvalidArgumentError('bad', {
      operation: 'taskUpdate',
      method: 'POST',
      path: '/tasks/1',
      field: 'notionIds',
    });
    expect(await said(error)).toBe('The planning service refused the notions; nothing was saved.');
  });

  it('a read over the daily limit says so without "nothing was saved"', async () => {
    const error = new RateLimitedError('limit', { operation: 'featureList', method: 'GET', path: '/f' });
    expect(await said(error)).not.toContain('nothing was saved');
  });
});
