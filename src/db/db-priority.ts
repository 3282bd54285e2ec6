import { AsyncLocalStorage } from 'node:async_hooks';

const urgent = new AsyncLocalStorage<true>();

/**
 * Runs database work that a person is waiting on (the store of their vote or night pick, whose
 * confirmation waits for it): on embedded PGlite, its queries go before the queued background work
 * (AI minds, other games' phase changes). The mark follows the work through Prisma to the query.
 */
export function urgently<T>(work: () => PromiseLike<T>): Promise<T> {
  // Awaited inside the run: Prisma's queries start only once awaited, and must start marked.
  return urgent.run(true, async () => await work());
}

/** Whether the work running now was started by `urgently`. */
export function isUrgent(): boolean {
  return urgent.getStore() === true;
}
