/**
 * One task per key at a time, in arrival order: a message that arrives while its session is
 * running waits its turn instead of being dropped or run alongside.
 */
export class SessionQueue {
  readonly #lines = new Map<string, { tail: Promise<void>; size: number }>();

  /** How many tasks of the key are running or waiting. */
  size(key: string): number {
    return this.#lines.get(key)?.size ?? 0;
  }

  /** Runs `task` after the key's earlier tasks; `onQueued` hears how many are ahead when any are. */
  run<T>(key: string, task: () => Promise<T>, onQueued?: (ahead: number) => void): Promise<T> {
    const line = this.#lines.get(key) ?? { tail: Promise.resolve(), size: 0 };
    this.#lines.set(key, line);
    if (line.size > 0) onQueued?.(line.size);
    line.size += 1;
    const result = line.tail.then(task);
    line.tail = result.then(
      () => this.#finish(key, line),
      () => this.#finish(key, line),
    );
    return result;
  }

  #finish(key: string, line: { size: number }): void {
    line.size -= 1;
    if (line.size === 0 && this.#lines.get(key) === line) this.#lines.delete(key);
  }
}
