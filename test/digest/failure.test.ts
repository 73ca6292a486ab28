/**
 * How the digest judges a failure (src/digest/failure.ts): what is passing (overload: retried
 * without using up the day's attempts), what is lasting, and which failed posts may have posted.
 * The flows are in overload.test.ts; this pins each kind of error the clients throw.
 */
import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  isTransientFailure,
  LeaseNearlyOverError,
  PostOutcomeUnknownError,
  postMayHaveLanded,
} from '../../src/digest/failure.js';
import { DigestSetupError } from '../../src/digest/scheduler.js';
import { HttpAttemptError } from '../../src/http/index.js';
import { PostDeadlineError } from '../../src/limits.js';
import {
  AbortedError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServiceError,
  TimeoutError,
} from '../../src/planning/index.js';
import { SlackCallUnconfirmedError } from '../../src/slack-api/index.js';
import { StoreUnavailableError } from '../../src/store/index.js';

const context = { operation: 'features.list', method: 'GET' as const, path: '/features' };
const slackPost = {
  operation: 'Slack /api/chat.postMessage',
  method: 'POST' as const,
  path: '/api/chat.postMessage',
};
const refused = (error: string) => new webApi.WebAPIPlatformError({ ok: false, error });
const notSent = () => {
  const error = new NetworkError('connect ECONNREFUSED', slackPost);
  error.notSent = true;
  return error;
};

describe('digest failures', () => {
  it('overload and outages are passing; refusals that will not change today are lasting', () => {
    const passing = [
      new TimeoutError('no answer', context),
      new NetworkError('socket hang up', context),
      new AbortedError('aborted at half the lease', context),
      new ServiceError('HTTP 503', { ...context, status: 503 }),
      new RateLimitedError('HTTP 429', { ...context, status: 429, retryAfterMs: 1_000 }),
      new webApi.WebAPIRateLimitedError(3),
      new webApi.WebAPIRequestError(new TimeoutError('no answer', slackPost)),
      new webApi.WebAPIHTTPError(502, 'Bad Gateway', {}),
      refused('internal_error'),
      new StoreUnavailableError('unreachable'),
      new PostOutcomeUnknownError(new webApi.WebAPIRequestError(new Error('reset'))),
      new LeaseNearlyOverError(),
    ];
    const lasting = [
      refused('channel_not_found'),
      refused('not_in_channel'),
      refused('is_archived'),
      refused('invalid_auth'),
      new NotFoundError('HTTP 404', { ...context, status: 404 }),
      new ForbiddenError('HTTP 403', { ...context, status: 403 }),
      new DigestSetupError('no Slack bot token for this workspace'),
      new Error('a bug'),
    ];
    expect(passing.filter((e) => !isTransientFailure(e))).toEqual([]);
    expect(lasting.filter((e) => isTransientFailure(e))).toEqual([]);
  });

  it('a failed post may have landed only when it may have left and Slack never said no', () => {
    const mayHave = [
      new webApi.WebAPIRequestError(new TimeoutError('no answer', slackPost)),
      new webApi.WebAPIRequestError(new NetworkError('socket hang up', slackPost)),
      new webApi.WebAPIRequestError(Object.assign(new Error('aborted'), { name: 'TimeoutError' })),
      new webApi.WebAPIHTTPError(504, 'Gateway Timeout', {}),
    ];
    const didNot = [
      refused('channel_not_found'),
      refused('internal_error'),
      new webApi.WebAPIRateLimitedError(3),
      new webApi.WebAPIRequestError(new PostDeadlineError(Date.now() + 60_000)),
      new webApi.WebAPIRequestError(notSent()),
      new webApi.WebAPIHTTPError(400, 'Bad Request', {}),
    ];
    expect(mayHave.map(postMayHaveLanded)).toEqual(mayHave.map(() => true));
    expect(didNot.map(postMayHaveLanded)).toEqual(didNot.map(() => false));
  });

  it('a post the Slack sender could not confirm may have landed; one that never left did not', () => {
    const cause = new Error('HTTP 502');
    expect(
      postMayHaveLanded(
        new webApi.WebAPIRequestError(new SlackCallUnconfirmedError('chat.postMessage', cause)),
      ),
    ).toBe(true);
    expect(
      postMayHaveLanded(new webApi.WebAPIRequestError(new HttpAttemptError('network', 'ECONNREFUSED', true))),
    ).toBe(false);
  });
});
