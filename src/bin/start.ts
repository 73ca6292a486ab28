/**
 * `npm start`: reads .env, then starts the playground when no Slack variable is set at all (see
 * `startMode` in config.ts), otherwise the app in the mode its variables choose.
 */
import { runApp } from '../app/index.js';
import { loadDotEnv, startMode } from '../config.js';

loadDotEnv();
if (startMode(process.env) === 'playground') {
  // Loaded only when asked for, like the sandbox: a deployment never runs the playground's code.
  try {
    const { runPlayground } = await import('../playground/process.js');
    await runPlayground(process.env);
  } catch (error) {
    process.stderr.write(`The playground could not start: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
} else {
  await runApp(process.env);
}
