/**
 * One concurrency limit per key (a workspace, a planning organization): p-limit instances made on
 * first use and dropped once idle, so the map never outgrows the work in flight.
 */
import pLimit, { type LimitFunction } from 'p-limit';

export type KeyedLimit = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function keyedLimit(concurrency: number): KeyedLimit {
  const limits = new Map<string, LimitFunction>();
  return async (key, task) => {
    let limit = limits.get(key);
    if (!limit) {
      limit = pLimit(concurrency);
      limits.set(key, limit);
    }
    try {
      return await limit(task);
    } finally {
      if (limit.activeCount === 0 && limit.pendingCount === 0) limits.delete(key);
    }
  };
}
