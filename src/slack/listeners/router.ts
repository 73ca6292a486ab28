/**
 * One Bolt listener per kind of request, dispatching on the request's id through a table. An id no
 * listener handles (a button or form from an older version, a retired shortcut) is acked at once:
 * left to Bolt, it answered 404 after 3 seconds and Slack showed the user an error. It also spares
 * every request a pass through each registered listener's middleware.
 */
type Handler<A> = (args: A) => Promise<void>;

/**
 * @param idOf the request's id (action id, callback id…)
 * @param routes a listener per id; each may take a narrower argument type than `A`
 * @param unknown what answers an id with no route (it must ack)
 */
export function router<A>(
  idOf: (args: A) => string | undefined,
  routes: Record<string, Handler<never>>,
  unknown: Handler<A>,
): Handler<A> {
  const table = new Map(Object.entries(routes) as [string, Handler<A>][]);
  return (args) => {
    const id = idOf(args);
    return ((id !== undefined && table.get(id)) || unknown)(args);
  };
}
