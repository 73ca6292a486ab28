/**
 * The playground as this process's work, for `npm run playground` and `npm start` with no Slack
 * variable (src/bin/): starts it, prints one line with its address, and stops on Ctrl-C or SIGTERM.
 */
import { redactSecrets } from '../logger.js';
import { DEFAULT_PLAYGROUND_PORT, startPlayground } from './index.js';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export async function runPlayground(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const port = env.PORT?.trim() ? Number(env.PORT) : DEFAULT_PLAYGROUND_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('PORT must be a port number (0-65535)\n');
    process.exitCode = 1;
    return;
  }
  const level = LEVELS.find((l) => l === env.LOG_LEVEL?.trim()) ?? 'warn';
  let playground: Awaited<ReturnType<typeof startPlayground>>;
  try {
    playground = await startPlayground({ port, logLevel: level });
  } catch (error) {
    process.stderr.write(`${redactSecrets(`The playground could not start: ${(error as Error).message}`)}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(
    `Playground ready: open ${playground.url} — the app, the demo organization and a local page playing Slack (Ctrl-C stops)\n`,
  );
  const shutdown = () => {
    playground.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
