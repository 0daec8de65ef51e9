/**
 * Group commit: the checks that arrive while the previous group is being written share the
 * next transaction (and one debit per business), and each caller is answered only after that
 * commit. At most `maxInFlight` groups of one queue are written at once.
 */
export interface GroupCommitOptions<Item> {
  maxInFlight: number;
  maxGroup: number;
  /** Items with the same non-null key never share a group (one user's checks stay in order). */
  distinctKey: (item: Item) => string | null;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (err: unknown) => void;
}

interface Queue<Item, Result> {
  waiting: Array<Waiting<Item, Result>>;
  inFlight: number;
  scheduled: boolean;
}

export class GroupCommit<Item, Result> {
  private readonly queues = new Map<string, Queue<Item, Result>>();

  constructor(
    /** Writes one group; answers each item in order with its result or its error. */
    private readonly write: (group: string, items: Item[]) => Promise<Array<Result | Error>>,
    private readonly options: GroupCommitOptions<Item>,
  ) {}

  submit(group: string, item: Item): Promise<Result> {
    let queue = this.queues.get(group);
    if (!queue) this.queues.set(group, (queue = { waiting: [], inFlight: 0, scheduled: false }));
    const q = queue;
    return new Promise<Result>((resolve, reject) => {
      q.waiting.push({ item, resolve, reject });
      this.schedule(group, q);
    });
  }

  /** After the current turn of the event loop, so what arrived together is written together. */
  private schedule(group: string, queue: Queue<Item, Result>): void {
    if (queue.scheduled || queue.inFlight >= this.options.maxInFlight) return;
    queue.scheduled = true;
    setImmediate(() => {
      queue.scheduled = false;
      this.drain(group, queue);
    });
  }

  private drain(group: string, queue: Queue<Item, Result>): void {
    while (queue.inFlight < this.options.maxInFlight && queue.waiting.length > 0) {
      const taken = this.take(queue);
      queue.inFlight++;
      void this.write(group, taken.map((w) => w.item)).then(
        (results) => taken.forEach((w, i) => (results[i] instanceof Error ? w.reject(results[i]) : w.resolve(results[i] as Result))),
        (err: unknown) => taken.forEach((w) => w.reject(err)),
      ).finally(() => {
        queue.inFlight--;
        if (queue.waiting.length > 0) this.drain(group, queue);
        else if (queue.inFlight === 0) this.queues.delete(group);
      });
    }
  }

  private take(queue: Queue<Item, Result>): Array<Waiting<Item, Result>> {
    const taken: Array<Waiting<Item, Result>> = [];
    const keys = new Set<string>();
    const left: Array<Waiting<Item, Result>> = [];
    for (const w of queue.waiting) {
      const key = this.options.distinctKey(w.item);
      if (taken.length >= this.options.maxGroup || (key !== null && keys.has(key))) {
        left.push(w);
        continue;
      }
      if (key !== null) keys.add(key);
      taken.push(w);
    }
    queue.waiting = left;
    return taken;
  }
}
