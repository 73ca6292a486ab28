/**
 * `npm run sandbox -- [--port 0] [--host 127.0.0.1] [--data file.json] [--seed minimal|demo] [--latency ms]`
 *
 * Starts the sandbox and, once it listens, prints exactly one JSON line on stdout:
 * `{"url": "http://127.0.0.1:<port>/v1", "ownerToken": "...", "memberToken": "..."}`.
 * Logs go to stderr. SIGINT or SIGTERM closes it cleanly (saving the data file).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';

const USAGE = `Usage: npm run sandbox -- [options]

A local Team Planning Service for tests and demos.

Options:
  --port <n>        port to listen on; 0 picks a free one (default 0)
  --host <address>  interface to listen on (default 127.0.0.1)
  --data <file>     keep the state in this JSON file across restarts
  --seed <name>     minimal | demo, used when there is no saved state (default minimal)
  --latency <ms>    delay added to every response (default 0)
  -h, --help        show this help

Prints one JSON line on stdout once listening: {"url", "ownerToken", "memberToken"}.`;

const Args = z.object({
  port: z.coerce.number().int().min(0).max(65535),
  host: z.string().min(1),
  data: z.string().min(1).optional(),
  seed: z.enum(['minimal', 'demo']),
  latency: z.coerce.number().int().min(0),
});

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string' },
        seed: { type: 'string', default: 'minimal' },
        latency: { type: 'string', default: '0' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const parsed = Args.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(`--${String(issue?.path[0])}: ${issue?.message}`);
  }
  const args = parsed.data;
  // Loaded only now, so that --help and argument errors answer at once.
  const [{ pino }, { createLogger }, { startSandbox }] = await Promise.all([
    import('pino'),
    import('../logger.js'),
    import('../sandbox/index.js'),
  ]);
  const logger = createLogger({ level: 'info', destination: pino.destination({ fd: 2, sync: true }) });
  const sandbox = await startSandbox({
    port: args.port,
    host: args.host,
    seed: args.seed,
    dataFile: args.data,
    latencyMs: args.latency,
    logger,
  });
  logger.info({ url: sandbox.url, data: args.data ?? null, seed: args.seed }, 'sandbox listening');

  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'sandbox closing');
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'sandbox: close failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Printed last: whoever reads this line may signal at once, and must find the handlers in place.
  process.stdout.write(
    `${JSON.stringify({ url: sandbox.url, ownerToken: sandbox.ownerToken, memberToken: sandbox.memberToken })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${(error as Error).message}\n`);
  process.exit(1);
});
