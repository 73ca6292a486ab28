/** What bench:digest, bench:replicas, bench:watch and their services process (digest-services.ts) agree on. */

/**
 * The bot token of the bench's n-th workspace: one each, as installs have, so the posting limiter
 * (and the fake Slack's enforcement, per token) treats each workspace on its own.
 */
export const benchBotToken = (workspace: number) => `xoxb-bench-token-${workspace}`;

/** The bench's n-th workspace id. */
export const benchWorkspace = (n: number) => `T${String(n).padStart(4, '0')}`;

/** The bench's n-th linked Slack channel (workspace `n % workspaces`). */
export const benchChannel = (n: number) => `C${String(n).padStart(5, '0')}`;

/** The Slack user of the n-th workspace's planning member (bench:watch connects it). */
export const benchMember = (workspace: number) => `U${String(workspace).padStart(4, '0')}M`;
