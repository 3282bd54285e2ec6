/**
 * Plays the LLM bench's games in a thread of its own (`benchGames`): one game per message, its
 * figures back. What the SDKs warn (a deprecated model, once per request) is told once per text.
 */
import { parentPort } from 'node:worker_threads';
import { benchProviderGame, type GameJob } from './bench-llm.ts';

const warnings = new Set<string>();
console.warn = (...parts: unknown[]) => warnings.add(parts.map(String).join(' '));

parentPort?.on('message', (job: GameJob | 'close') => {
  if (job === 'close') {
    parentPort?.close();
    return;
  }
  benchProviderGame(job).then(
    (figures) => parentPort?.postMessage({ figures, warnings: [...warnings] }),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
