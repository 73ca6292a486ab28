/**
 * What a process running the app adds to it: a guard against rejections nobody handles, start-up
 * failures told on one line of stderr (exit code 1), and a clean stop on SIGTERM/SIGINT. The entries
 * `npm start` and `npm run dev` (src/bin/) run the app through here.
 */
import { ConfigError, hasSlackVariables, PLAYGROUND_HINT } from '../config.js';
import { type Logger, redactSecrets } from '../logger.js';
import { type Running, startApp } from './start-app.js';

/**
 * The last line of defence: a promise that rejects with nobody listening (a library's fire-and-forget
 * path, a connection dropped between two queries) is logged on one line — the error's secrets
 * redacted by the logger — and the process keeps serving everyone else. Returns the uninstaller.
 */
export function guardProcess(logger: Logger): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection; the process keeps serving');
  };
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}

/** Starts the app as this process's work, and stops it on SIGTERM/SIGINT. */
export async function runApp(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let running: Running;
  try {
    running = await startApp(env);
  } catch (error) {
    const message =
      error instanceof ConfigError
        ? `${error.message}\n(see .env.example)${hasSlackVariables(env) ? '' : `\n${PLAYGROUND_HINT}`}`
        : `Start-up failed: ${(error as Error).message}`;
    process.stderr.write(`${redactSecrets(message)}\n`);
    process.exitCode = 1;
    return;
  }
  guardProcess(running.logger);
  const shutdown = (signal: NodeJS.Signals) => {
    running.logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
