/**
 * One attempt of a Slack call over undici: a POST with a string body — every Web API call but
 * uploads, every response_url reply — goes out on the keep-alive pool shared per origin, bounded to
 * `connections` sockets, as the planning client's calls do. The global fetch (WHATWG streams,
 * request cloning) cost about as much CPU as the rest of a command. Nothing is sent twice here:
 * whether to try again is the sender's (sender.ts). Anything else (multipart uploads, other HTTP
 * methods) goes to the global fetch, looked up per call.
 */
import { DEFAULT_MAX_CONNECTIONS, poolFor, sendOnce } from '../http/index.js';

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Whether undici sends it (else the global fetch does). */
export function isPlainPost(input: unknown, init: RequestInit | undefined): input is string {
  return (
    typeof input === 'string' &&
    init?.method === 'POST' &&
    typeof init.body === 'string' &&
    (input.startsWith('https:') || input.startsWith('http:'))
  );
}

/**
 * Request headers as a plain object with lower-case names, whatever form the caller gave them in
 * (the WebClient gives a plain object: copied without building a `Headers`, which costs more).
 */
export function headersOf(init: RequestInit | undefined): Record<string, string> {
  const given = init?.headers;
  const headers: Record<string, string> = {};
  if (given && !(given instanceof Headers) && !Array.isArray(given)) {
    for (const [name, value] of Object.entries(given)) {
      if (value !== undefined) headers[name.toLowerCase()] = String(value);
    }
    return headers;
  }
  new Headers(given).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/**
 * The `fetch` of one attempt: resolves with any HTTP answer; rejects with `HttpAttemptError`
 * (src/http/) — or, when the caller's signal aborted it, with the signal's reason, as fetch does.
 */
export function slackFetch(timeoutMs: number, connections = DEFAULT_MAX_CONNECTIONS): typeof fetch {
  return async (input, init) => {
    if (!isPlainPost(input, init)) return globalThis.fetch(input, init);
    const url = new URL(input);
    const signal = init?.signal ?? undefined;
    let answer: Awaited<ReturnType<typeof sendOnce>>;
    try {
      answer = await sendOnce(
        {
          dispatcher: poolFor(url.origin, timeoutMs, connections),
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: headersOf(init),
          body: init?.body as string,
          timeoutMs,
          ...(signal ? { signal } : {}),
        },
        // Names the call in errors by its Web API method or response_url, never its query.
        `Slack ${url.pathname}`,
      );
    } catch (error) {
      // As fetch does: the caller's abort rejects with the caller's reason.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return new Response(NULL_BODY.has(answer.status) ? null : answer.text, {
      status: answer.status,
      headers: answerHeaders,
    });
  };
}
