/**
 * `npm run dev`: the app against the built-in planning sandbox (demo data), with development
 * defaults (NODE_ENV=development: a local encryption key file; debug logs). Slack credentials are
 * still needed — without them this says which and how to get them, instead of a stack trace.
 */
import { runApp } from '../app/index.js';
import { loadDotEnv } from '../config.js';

loadDotEnv();
const env = process.env;
env.NODE_ENV ??= 'development';
env.PLANNING_API_URL ??= 'sandbox';
env.LOG_LEVEL ??= 'debug';

const http = Boolean(env.SLACK_SIGNING_SECRET && (env.SLACK_BOT_TOKEN || env.SLACK_CLIENT_ID));
const socket =
  ['true', '1', 'yes'].includes(env.SLACK_SOCKET_MODE ?? '') &&
  Boolean(env.SLACK_APP_TOKEN && env.SLACK_BOT_TOKEN);
if (!http && !socket) {
  process.stderr.write(
    [
      'npm run dev needs Slack credentials (the planning service is the built-in sandbox).',
      'To try the app without a Slack workspace: `npm run playground` (a local page plays Slack).',
      '',
      '1. Create a Slack app from the manifest: `npm run manifest -- --socket` (no public URL needed),',
      '   paste it at https://api.slack.com/apps → Create New App → From a manifest, and install it.',
      '2. Put in .env either',
      '     SLACK_SOCKET_MODE=true, SLACK_APP_TOKEN=xapp-… (connections:write) and SLACK_BOT_TOKEN=xoxb-…',
      '   or, for HTTP behind a tunnel, SLACK_SIGNING_SECRET=… and SLACK_BOT_TOKEN=xoxb-…',
      '',
    ].join('\n'),
  );
  process.exitCode = 1;
} else {
  await runApp(env);
}
