/**
 * Work the app still owes after an ack: listeners run on after Slack has its answer, and a few
 * things (the new account's avatar) run in the background. A shutdown stops taking requests, then
 * waits — bounded — for this work before the store closes: a deploy must not cut a user's task
 * creation in half and answer "something went wrong" for it.
 */
export class InFlight {
  readonly #work = new Set<Promise<void>>();

  /** How much work is in flight now. */
  get size(): number {
    return this.#work.size;
  }

  /** Tracks `work` until it settles; returns it unchanged (its rejection stays the caller's). */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => {},
      () => {},
    );
    this.#work.add(settled);
    void settled.then(() => this.#work.delete(settled));
    return work;
  }

  /**
   * Resolves once nothing is in flight (work started meanwhile included), or after `boundMs`;
   * with how many were still running then.
   */
  async drain(boundMs: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), boundMs);
      timer.unref();
    });
    try {
      while (this.#work.size > 0) {
        if ((await Promise.race([Promise.all(this.#work), timedOut])) === 'late') break;
      }
    } finally {
      clearTimeout(timer);
    }
    return this.#work.size;
  }
}
