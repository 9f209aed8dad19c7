/**
 * Writes one statement applies to many debates at once: it answers which of them it wrote (the ones whose
 * lease epoch still held), by key.
 */
export type WriteMany<I> = (items: readonly I[]) => Promise<ReadonlySet<string>>;

/** A statement for many items that answers each one by key; an item with no answer gets `undefined`. */
export type RunMany<I, R> = (items: readonly I[]) => Promise<ReadonlyMap<string, R>>;

type Waiter<I, R> = {
  item: I;
  key: string;
  resolve: (answer: R | undefined) => void;
  reject: (error: unknown) => void;
};

export type CoalescedWritesOptions<I> = {
  /** What makes two items the same row: never two of them in one statement. */
  keyOf: (item: I) => string;
  /** Statements out at once; what arrives meanwhile waits for the next one. */
  maxInFlight: number;
  /** Items in one statement at most; the rest go in the next. */
  maxPerStatement: number;
  /**
   * Resume the callers of one statement one turn of the event loop each, not all in the turn it answered:
   * for calls whose callers go on to heavy synchronous work (a claimed debate starts its actor), so a
   * hundred of them do not hold the loop at once (timers, sockets and renewals run between them).
   */
  oneCallerATurn?: boolean;
};

/**
 * The writes of a node's debates, joined into few statements: each caller still learns whether its own item
 * was written (its lease held), as if it had been its own statement. Unloaded, each write is a statement of
 * one, sent at once; loaded, up to `maxInFlight` statements are out and everything arriving meanwhile goes in
 * the next, so a node running hundreds of debates makes a few round trips where it made hundreds, and
 * PostgreSQL commits a few transactions where it committed hundreds.
 *
 * A statement that fails is tried again item by item, each alone: one debate's bad row (a defect, a value
 * the database refuses) then fails that debate only, and an outage fails each caller, who retries on its own
 * schedule as before.
 */
export function coalescedWrites<I>(write: WriteMany<I>, options: CoalescedWritesOptions<I>) {
  const run = coalescedCalls<I, true>(async (items) => {
    const written = await write(items);
    return new Map([...written].map((key) => [key, true as const]));
  }, options);
  return async (item: I): Promise<boolean> => (await run(item)) === true;
}

/**
 * coalescedWrites for statements that answer each item with a row (a claim's debate): the same joining,
 * limits and item-by-item retry of a failed statement; each caller gets its own item's answer, or
 * `undefined` when the statement had none for it.
 */
export function coalescedCalls<I, R>(write: RunMany<I, R>, options: CoalescedWritesOptions<I>) {
  const { keyOf, maxInFlight, maxPerStatement, oneCallerATurn = false } = options;
  let waiting: Waiter<I, R>[] = [];
  let inFlight = 0;
  let scheduled = false;

  /** The next statement's items: the oldest first, one per key, at most `maxPerStatement`. */
  const takeNext = (): Waiter<I, R>[] => {
    const taken: Waiter<I, R>[] = [];
    const left: Waiter<I, R>[] = [];
    const keys = new Set<string>();
    for (const waiter of waiting) {
      if (taken.length >= maxPerStatement || keys.has(waiter.key)) left.push(waiter);
      else {
        keys.add(waiter.key);
        taken.push(waiter);
      }
    }
    waiting = left;
    return taken;
  };

  const settle = (batch: readonly Waiter<I, R>[], answers: ReadonlyMap<string, R>) => {
    if (!oneCallerATurn) {
      for (const waiter of batch) waiter.resolve(answers.get(waiter.key));
      return;
    }
    let next = 0;
    const resumeOne = () => {
      const waiter = batch[next++];
      waiter?.resolve(answers.get(waiter.key));
      // Scheduled from within the check phase, the next runs in the loop's next turn.
      if (next < batch.length) setImmediate(resumeOne);
    };
    resumeOne();
  };

  const alone = (waiter: Waiter<I, R>) =>
    write([waiter.item]).then((written) => settle([waiter], written), waiter.reject);

  const send = () => {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) {
      const batch = takeNext();
      inFlight += 1;
      write(batch.map((waiter) => waiter.item))
        .then(
          (written) => settle(batch, written),
          (error: unknown) =>
            batch.length === 1
              ? (batch[0] as Waiter<I, R>).reject(error)
              : Promise.all(batch.map(alone)).then(() => {}),
        )
        .finally(() => {
          inFlight -= 1;
          send();
        });
    }
  };

  /** Queues the item; resolves with its answer (undefined: none), rejects as its statement failed. */
  return (item: I): Promise<R | undefined> =>
    new Promise((resolve, reject) => {
      waiting.push({ item, key: keyOf(item), resolve, reject });
      // Whatever the same tick adds (the debates one step of the event loop moved) goes in one statement.
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(send);
      }
    });
}
