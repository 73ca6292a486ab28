/** What the Slack sender tells callers beyond `@slack/web-api`'s own errors. */
import { webApi } from '@slack/bolt';

/**
 * A call that must not be made twice (a new message, a modal opened…) failed after it may have
 * reached Slack — a 5xx, a reset connection, a timeout — and could not be confirmed: it may have
 * been made. It is never sent again; whoever waits is told "may have", never "nothing was saved".
 */
export class SlackCallUnconfirmedError extends Error {
  override name = 'SlackCallUnconfirmedError';
  constructor(
    /** The Web API method (`chat.postMessage`), or `response_url`. */
    readonly method: string,
    cause: unknown,
  ) {
    super(
      `${method}: may have been made, not confirmed (${cause instanceof Error ? cause.message : String(cause)})`,
      {
        cause,
      },
    );
  }
}

/**
 * The {@link SlackCallUnconfirmedError} behind a failed call, if that is what it was: the WebClient
 * wraps what its `fetch` throws in a `WebAPIRequestError`.
 */
export function unconfirmedCall(error: unknown): SlackCallUnconfirmedError | undefined {
  if (error instanceof SlackCallUnconfirmedError) return error;
  if (error instanceof webApi.WebAPIRequestError && error.original instanceof SlackCallUnconfirmedError)
    return error.original;
  return undefined;
}

/** Slack's error code of a Web API call Slack refused (`not_in_channel`, `expired_trigger_id`…). */
export function slackErrorCode(error: unknown): string | undefined {
  const failure = error as { code?: unknown; data?: { error?: unknown } } | undefined;
  if (failure?.code === webApi.ErrorCode.RateLimitedError) return 'ratelimited';
  if (failure?.code !== webApi.ErrorCode.PlatformError) return undefined;
  return typeof failure.data?.error === 'string' ? failure.data.error : undefined;
}
