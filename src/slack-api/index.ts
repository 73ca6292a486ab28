/**
 * Slack's Web API as the app sends to it: one attempt over undici (attempt.ts), the one sender that
 * decides per method how a call is spaced, waited for and sent again (sender.ts, methods.ts), and
 * what it tells callers (errors.ts). Bolt's clients and the app's own WebClients all use it; it
 * knows nothing of what the app posts.
 */
export { slackFetch } from './attempt.js';
export { encodedOnce } from './body.js';
export { SlackCallUnconfirmedError, slackErrorCode, unconfirmedCall } from './errors.js';
export { METHOD_POLICY, POSTING_METHODS, policyOf, type SendPolicy } from './methods.js';
export { type SlackSenderOptions, slackSender } from './sender.js';
