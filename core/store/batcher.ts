/**
 * Group commit: calls made in one turn of the event loop are handed to `flush` together,
 * and each caller's promise settles with its own result. Under load (a hundred webhook
 * senders at once) a hundred job inserts become one id block and one insertMany (one
 * transaction on SQLite, one round trip on MongoDB); alone, a call waits one turn at most.
 */
export interface Batcher<I, O> {
  /**
   * `soon`: write the batch once the microtasks queued so far have run, instead of at the
   * next turn. For callers that answer someone only once their item is stored, and whose
   * peers add theirs in the same run of microtasks: the trigger, whose requests of one turn
   * all get their job together and then all add their log line.
   */
  add(item: I, soon?: boolean): Promise<O>;
  /** Resolves when every item added so far has been flushed (settled). */
  drain(): Promise<void>;
}

/**
 * `flush` answers one result per item, in order: a value, or an Error for that item alone
 * (a batch that throws fails every item in it).
 */
export function createBatcher<I, O>(flush: (items: I[]) => Promise<Array<O | Error>>, maxBatch = 500): Batcher<I, O> {
  let pending: Array<{ item: I; resolve: (value: O) => void; reject: (error: unknown) => void }> = [];
  let scheduled = false;
  let soonScheduled = false;
  let running: Promise<void> | null = null;
  const run = async () => {
    scheduled = false;
    while (pending.length) {
      const batch = pending.slice(0, maxBatch);
      pending = pending.slice(batch.length);
      try {
        const results = await flush(batch.map((entry) => entry.item));
        batch.forEach((entry, i) => {
          const result = results[i];
          if (result instanceof Error) entry.reject(result);
          else entry.resolve(result as O);
        });
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
  };
  const start = () => {
    running ??= run().finally(() => {
      running = null;
      // Added while the last batch was being written: go again.
      if (pending.length && !scheduled) start();
    });
    return running;
  };
  return {
    add(item, soon = false) {
      return new Promise<O>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (running) return; // the run under way takes it (or starts again when done)
        if (soon && !soonScheduled) {
          soonScheduled = true;
          queueMicrotask(() => {
            soonScheduled = false;
            void start();
          });
        }
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void start());
        }
      });
    },
    async drain() {
      while (pending.length || running) await start();
    },
  };
}

export interface InsertBatcherOptions<I, D> {
  /**
   * Turns a batch's items into the documents to insert, inside the flush (ids taken for
   * the whole batch at once, say); a throw fails the batch. Without it items are inserted as given.
   */
  prepare?: (items: I[]) => Promise<D[]>;
  /** At most this many documents per flush (default 500). */
  maxBatch?: number;
}

/**
 * Inserts through insertMany; when the batch is refused, one at a time so one bad document
 * fails alone. Each caller gets its stored document (or its own error).
 */
export function insertBatcher<D, S, I = D>(
  insertMany: (docs: D[]) => Promise<S[]>,
  insertOne: (doc: D) => Promise<S>,
  options: InsertBatcherOptions<I, D> = {},
): Batcher<I, S> {
  const prepare = options.prepare ?? (async (items: I[]) => items as unknown as D[]);
  return createBatcher<I, S>(async (items) => {
    const docs = await prepare(items);
    if (docs.length === 1) return [await insertOne(docs[0]!)];
    try {
      return await insertMany(docs);
    } catch {
      return Promise.all(
        docs.map((doc) => insertOne(doc).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))),
      );
    }
  }, options.maxBatch);
}

/**
 * Ids from a sequence in blocks: `take(count)` answers the first of `count` consecutive ids,
 * reserving at least `reserve()` per write and using the rest of a block first. Callers must
 * not overlap (a batcher's flushes never do). Blocks are only for a store this process alone
 * writes (`reserve` 0 otherwise): ids stay in the order asked for, and a restart leaves a
 * gap of at most one block. With several hosts, blocks would number jobs out of acceptance
 * order, which the per-flow queue relies on.
 */
/** `take(count)` of idBlocks, with the rest of its block for a restart to carry on from. */
export type IdBlocks = ((count: number) => Promise<number>) & {
  /** The reserved ids not handed out yet: `next` up to (not including) `end`; null when none. */
  unused(): { next: number; end: number } | null;
  /** Hands out `next` up to `end` first (ids this process reserved earlier and never used). */
  resume(next: number, end: number): void;
};

export function idBlocks(nextId: (count: number) => Promise<number>, reserve: () => number = () => 0): IdBlocks {
  let next = 0;
  let end = 0;
  const take = async (count: number) => {
    if (end - next < count) {
      const size = Math.max(count, reserve());
      next = await nextId(size);
      end = next + size;
    }
    const first = next;
    next += count;
    return first;
  };
  return Object.assign(take, {
    unused: () => (end > next ? { next, end } : null),
    resume(from: number, to: number) {
      next = from;
      end = to;
    },
  });
}
