/**
 * The one Block Kit layer: Slack's limits, safe mrkdwn and the builders every surface uses (the
 * Slack listeners' blocks and the digest alike). Knows Block Kit, nothing of planning or Bolt.
 */
export * from './blocks.js';
export * from './limits.js';
export * from './mrkdwn.js';
