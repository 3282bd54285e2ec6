import { availableParallelism } from 'node:os';
import type { GameJob, ProviderGameFigures } from './bench-llm.ts';
import { tsWorker } from './lib/ts-worker.ts';

type Reply = { figures: ProviderGameFigures; warnings: string[] } | { error: string };

/**
 * Plays the bench's games on every core, one worker thread each: a game's figures depend only on
 * its job (the fakes draw from each request, and its clock is its own), so they come back in job
 * order whatever thread played them. `warnings`: what the SDKs warned, each text once.
 */
export async function benchGames(jobs: readonly GameJob[]): Promise<{ figures: ProviderGameFigures[]; warnings: string[] }> {
  const figures: ProviderGameFigures[] = [];
  const warnings = new Set<string>();
  let next = 0;
  const threads = Math.max(1, Math.min(availableParallelism(), jobs.length));
  const entry = new URL('./bench-llm-worker.ts', import.meta.url);
  await Promise.all(
    Array.from({ length: threads }, async () => {
      const worker = tsWorker(entry);
      try {
        while (next < jobs.length) {
          const index = next++;
          const reply = await new Promise<Reply>((resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.postMessage(jobs[index]);
          });
          worker.removeAllListeners('error');
          if ('error' in reply) throw new Error(`bench game ${JSON.stringify(jobs[index])}: ${reply.error}`);
          figures[index] = reply.figures;
          for (const warning of reply.warnings) warnings.add(warning);
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return { figures, warnings: [...warnings] };
}
