/**
 * After its ack, a listener lets the event loop take the requests already waiting before it starts
 * its own work (a store read, a service call): in a burst of commands or presses every ack goes out
 * first, instead of each waiting behind the others' work.
 *
 * One listener starts per turn of the event loop. Node runs every `setImmediate` callback queued at
 * the start of a turn's check phase, draining promises after each, before it reads sockets again:
 * with one immediate per listener, 50 presses acked in a burst started their work — about a
 * millisecond of store reads and request building each, until their first service call — back to
 * back, and a request that arrived meanwhile waited for all of them (bench:card: acks at p50 two to
 * four times bare Bolt's). Released one per turn, each start is followed by a poll of the sockets,
 * which acks what arrived; a turn with nothing to read costs microseconds, so the work waits no
 * longer than the acks in front of it.
 */

const waiting: (() => void)[] = [];
let releasing = false;

function releaseOne(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(releaseOne);
  else releasing = false;
}

export function afterPendingAcks(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!releasing) {
      releasing = true;
      setImmediate(releaseOne);
    }
  });
}
