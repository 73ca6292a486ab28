/**
 * Keep-alive undici pools shared per origin, for every HTTP client of the process: the planning
 * service's and Slack's Web API. Knows nothing of either.
 */
import { Pool } from 'undici';

const pools = new Map<string, Pool>();

/** Sockets open at once to one origin unless told otherwise (PLANNING_MAX_CONNECTIONS). */
export const DEFAULT_MAX_CONNECTIONS = 128;

/**
 * The shared keep-alive pool for `origin`: the Slack app creates one client per Slack user, and
 * they should all reuse the same sockets. At most `connections` sockets are open at once: a slow
 * service would otherwise get one new socket per call in flight (hundreds under load, each a file
 * descriptor here and a connection there). Calls beyond the cap wait in the pool's queue, in order;
 * that wait counts toward each attempt's timeout.
 */
export function poolFor(
  origin: string,
  connectTimeoutMs: number,
  connections = DEFAULT_MAX_CONNECTIONS,
): Pool {
  const key = `${origin} ${connectTimeoutMs} ${connections}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(origin, { connect: { timeout: connectTimeoutMs }, connections });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes every shared pool (clean shutdown, tests). Clients created before keep working: they reopen one. */
export async function closeHttpPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.close()));
}
