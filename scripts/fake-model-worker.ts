/**
 * Runs the wire-protocol fake in its own thread, so the bench's timings of the table are not
 * slowed by the fake's own work on the same event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startFakeOpenAi } from './fakes/llm/fake-openai.ts';
import { playingModel } from './fakes/llm/playing-model.ts';

const { latencyMs } = workerData as { latencyMs: number };
const fake = await startFakeOpenAi(playingModel({ delayMs: latencyMs }));
parentPort?.postMessage({ baseURL: fake.baseURL });
parentPort?.on('message', (message: unknown) => {
  if (message === 'count') parentPort?.postMessage({ requests: fake.requests.length });
  // What the fake's prompt cache made of the calls: prompt tokens, cache reads and writes, output.
  if (message === 'usage') parentPort?.postMessage({ usage: fake.usageTotals });
  if (message === 'close') void close();
});

async function close(): Promise<void> {
  await fake.close();
  process.exit(0);
}
