/**
 * `npm run playground`: the playground, whatever the environment says (`npm start` chooses it only
 * when no Slack variable is set).
 */
import { loadDotEnv } from '../config.js';
import { runPlayground } from '../playground/process.js';

loadDotEnv();
await runPlayground(process.env);
