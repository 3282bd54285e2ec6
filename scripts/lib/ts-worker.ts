import { Worker } from 'node:worker_threads';

/** A worker thread running a TypeScript entry: a worker does not inherit tsx's loader, so it registers it first. */
export function tsWorker(entry: URL, workerData?: unknown): Worker {
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}
