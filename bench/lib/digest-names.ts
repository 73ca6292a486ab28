/** What bench:digest and its services process (digest-services.ts) agree on. */

/** The bot token the benchmark's scheduler posts with. */
export const BENCH_BOT_TOKEN = 'xoxb-bench-token';

/** The bench's n-th linked Slack channel. */
export const benchChannel = (n: number) => `C${String(n).padStart(5, '0')}`;
