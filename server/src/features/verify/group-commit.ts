/**
 * Group commit: the checks that arrive while the previous group is being written share the
 * next transaction (and one debit per business), and each caller is answered only after that
 * commit. At most `maxInFlight` groups of one queue are written at once.
 */
export interface GroupCommitOptions<Item> {
  maxInFlight: number;
  maxGroup: number;
  /**
   * The fewest items a group needs to start while another of its queue is in flight (default 1).
   * Fewer wait for the group in flight to finish, or for more to join them: where a group has a
   * fixed cost (round trips, a commit) worth several items, a group of one or two beside another
   * costs more than overlapping them saves. A group starts whatever its size when none is in flight.
   */
  minToOverlap?: number;
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
    if (queue.scheduled || !this.mayStart(queue)) return;
    queue.scheduled = true;
    setImmediate(() => {
      queue.scheduled = false;
      this.drain(group, queue);
    });
  }

  private drain(group: string, queue: Queue<Item, Result>): void {
    while (this.mayStart(queue)) {
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

  /** Whether a group may start now: a free slot, and enough waiting to share it with a group in flight. */
  private mayStart(queue: Queue<Item, Result>): boolean {
    if (queue.inFlight >= this.options.maxInFlight || queue.waiting.length === 0) return false;
    return queue.inFlight === 0 || queue.waiting.length >= (this.options.minToOverlap ?? 1);
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
