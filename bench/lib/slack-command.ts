/**
 * Signed slash commands as Slack posts them, for the benchmarks that drive the real app over HTTP
 * (bench:ack, bench:idle).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { COMMAND } from '../../src/slack/kit/ids.js';

/** Signs a body as Slack does (v0, HMAC-SHA256 of `v0:<ts>:<body>`), as test/helpers/slack-harness.ts does. */
export function sign(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const digest = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${digest}` };
}

/** A `/plan <text>` slash command from `user` in `team`; its response_url points wherever given. */
export function commandBody(team: string, user: string, text: string, responseUrl: string) {
  return new URLSearchParams({
    token: 'legacy',
    team_id: team,
    team_domain: 'bench',
    channel_id: 'C0BENCH',
    channel_name: 'general',
    user_id: user,
    user_name: `user-${user.toLowerCase()}`,
    command: COMMAND,
    text,
    api_app_id: 'A0BENCH',
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: `trigger-${randomBytes(4).toString('hex')}`,
  }).toString();
}
