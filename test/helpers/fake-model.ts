/**
 * A loopback OpenAI-compatible chat-completions server for the assistant's tests: each request
 * answered by the next scripted turn — tool calls, or text in streamed chunks, or a refusal, an
 * HTTP error, or a stall — as Server-Sent Events the way the real endpoint streams them. Every
 * request body is kept, so a test reads exactly what the model was sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Turn =
  | { toolCalls: { name: string; args: Record<string, unknown> }[] }
  | { text: string[] }
  | { refusal: string }
  | { status: number }
  /** Never answers (until the server closes): the app's time bound ends it. */
  | { stall: true };

export interface FakeModel {
  /** The base URL to give as ASSISTANT_MODEL_URL. */
  url: string;
  /** Each request's body, parsed, in order. */
  requests: Record<string, unknown>[];
  /** Each request's Authorization header. */
  authorizations: (string | undefined)[];
  script(...turns: Turn[]): void;
  close(): Promise<void>;
}

const sse = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

export async function startFakeModel(): Promise<FakeModel> {
  const turns: Turn[] = [];
  const requests: Record<string, unknown>[] = [];
  const authorizations: (string | undefined)[] = [];
  let calls = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString('utf8');
    });
    req.on('end', () => {
      requests.push(JSON.parse(raw || '{}') as Record<string, unknown>);
      authorizations.push(req.headers.authorization);
      const turn = turns.shift() ?? { text: ['(no scripted turn)'] };
      if ('stall' in turn) return;
      if ('status' in turn) {
        res.writeHead(turn.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
        return;
      }
      const id = `chatcmpl-${++calls}`;
      const base = { id, object: 'chat.completion.chunk', created: 1, model: 'fake' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if ('toolCalls' in turn) {
        turn.toolCalls.forEach((call, index) => {
          const delta = {
            tool_calls: [
              {
                index,
                id: `call_${calls}_${index}`,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.args) },
              },
            ],
          };
          res.write(sse({ ...base, choices: [{ index: 0, delta, finish_reason: null }] }));
        });
        res.write(sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }));
      } else if ('refusal' in turn) {
        res.write(
          sse({ ...base, choices: [{ index: 0, delta: { refusal: turn.refusal }, finish_reason: null }] }),
        );
        res.write(sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      } else {
        for (const piece of turn.text) {
          res.write(
            sse({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] }),
          );
        }
        res.write(sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    authorizations,
    script: (...more) => {
      turns.push(...more);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
