/** At most `limit` tasks at once; the others wait in arrival order. */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`limit must be a positive integer, got ${limit}`);
  }

  /** Tasks running now and tasks waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
