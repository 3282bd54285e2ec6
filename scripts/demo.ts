/**
 * Plays one all-AI game and prints it, then the director's cut. The seats are the starter
 * personas, played by the same session and AI driver as in the bot, on a manual clock. Offline
 * (the heuristic brain) unless `--ai openai|anthropic` and that provider is configured.
 */
import 'dotenv/config';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { budgetLimits, memoryLedger, TokenBudget } from '../src/agents/budget.ts';
import { createProvider, isConfigured } from '../src/llm/providers.ts';
import { budgetSink, Seating } from '../src/agents/seating.ts';
import type { AiSeat } from '../src/agents/ai-seats.ts';
import type { Summarizer } from '../src/agents/summary.ts';
import { loadConfig } from '../src/config.ts';
import { gameReport } from '../src/report/files.ts';
import { exitRefused } from './cli.ts';
import { demoFlags } from './lib/demo-flags.ts';
import { demoTranscript, offlineSeats, playDemo } from './lib/demo-game.ts';
import { demoPersonas } from './lib/demo-personas.ts';
import { probeModel } from './lib/probe.ts';

const flags = demoFlags(process.argv.slice(2));
if (!flags.ok) exitRefused(flags.error);
const { ai, players, seed, out } = flags.value;

const personas = await demoPersonas(players);
let seats: AiSeat[] = offlineSeats(personas);
let summarizer: Summarizer | undefined;
let report = (): Promise<string | null> => Promise.resolve(null);

if (ai !== 'offline') {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    console.error(loaded.error);
    process.exit(2);
  }
  const env = { ...loaded.value.llm, provider: ai };
  if (!isConfigured(ai, env)) {
    console.error(
      `${ai} is not configured: set ${ai === 'openai' ? 'OPENAI_API_KEY or OPENAI_BASE_URL' : 'ANTHROPIC_API_KEY'} in .env, or play with --ai offline.`,
    );
    process.exit(2);
  }
  const provider = createProvider(ai, env);
  if (!provider.ok) {
    console.error(provider.error);
    process.exit(2);
  }
  // One small call first: an unreachable server is said at once, not discovered as 30 offline decisions.
  const probe = await probeModel(provider.value, env[ai].model);
  if (!probe.ok) {
    const where =
      ai === 'openai' ? (env.openai.baseURL ?? 'https://api.openai.com/v1') : (env.anthropic.baseURL ?? 'https://api.anthropic.com');
    console.error(
      `The ${ai} model ${env[ai].model} at ${where} did not answer (${probe.error.kind}${probe.error.status ? ` ${probe.error.status}` : ''}): ${probe.error.message}\nCheck the key, the base URL and the model name, or play with --ai offline.`,
    );
    process.exit(1);
  }
  const ledger = memoryLedger();
  const budget = new TokenBudget(ledger, budgetLimits(env));
  const costs = budgetSink(budget);
  const seating = new Seating(env, { guildId: 'demo', gameId: `demo-${seed}` }, { budget, cost: costs.sink });
  seats = personas.map((p, i) => seating.seat({ id: `seat${i + 1}`, name: p.name }, p.prompt));
  summarizer = seating.summarizer();
  report = async () => {
    await costs.flush();
    const input = ledger.calls.reduce((n, c) => n + c.inputTokens, 0);
    const cached = ledger.calls.reduce((n, c) => n + c.cachedInputTokens, 0);
    const output = ledger.calls.reduce((n, c) => n + c.outputTokens, 0);
    return `${ledger.calls.length} model calls, ${input} input tokens (${cached} from the provider's cache) and ${output} output tokens.`;
  };
}

const result = await playDemo({
  seed,
  seats,
  ...(summarizer && { summarizer }),
  onFallback: (player, kind, fallback) =>
    console.error(`(${player.name}'s ${kind}: offline fallback, ${fallback.category}: ${fallback.detail})`),
});
if (!result.ok) {
  console.error(`The demo could not run: ${result.error}`);
  process.exit(1);
}
const state = result.value;
const lines = demoTranscript(state, players, seed);
const cost = await report();
if (cost) lines.push('', `Cost: ${cost}`);
process.stdout.write(lines.join('\n') + '\n');
if (out !== undefined) {
  const files = (await gameReport(state, `Dramatis demo, seed ${seed}`)) ?? [];
  await mkdir(out, { recursive: true });
  for (const file of files) await writeFile(join(out, file.name), file.data);
  console.error(`Wrote ${files.map((f) => f.name).join(', ')} to ${out}`);
}
