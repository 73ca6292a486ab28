/**
 * One value per key, made on first use and kept: for clients that are costly to build and cheap
 * to keep (a WebClient per bot token, a planning client per service-account token). The map holds
 * one entry per token the process has used.
 */
export function memoByKey<V>(make: (key: string) => V): (key: string) => V {
  const made = new Map<string, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}
