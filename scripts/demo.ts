/**
 * Plays one all-AI game and prints it, then the director's cut. Offline (the heuristic
 * brain) unless `--ai openai|anthropic` and that provider is configured in the environment.
 */
import 'dotenv/config';
import { parseArgs } from 'node:util';
import { memoryLedger, TokenBudget } from '../src/agents/budget.ts';
import { directorsCut } from '../src/agents/directors-cut.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { isConfigured } from '../src/agents/llm/providers.ts';
import { plainPersona } from '../src/agents/player/persona-prompt.ts';
import { budgetSink, Seating } from '../src/agents/seating.ts';
import { HOUSE_PLAYERS } from '../src/agents/seats.ts';
import { playGame, type TableSeat } from '../src/agents/table.ts';
import type { Summarizer } from '../src/agents/summary.ts';
import { loadConfig } from '../src/config.ts';
import { MAX_PRESET_PLAYERS, MIN_PRESET_PLAYERS, narrate } from '../src/game/index.ts';
import { intFlags } from './args.ts';

const { values } = parseArgs({ options: { ai: { type: 'string', default: 'offline' }, players: { type: 'string' }, seed: { type: 'string' } } });
const AI = ['offline', 'openai', 'anthropic'] as const;
const ai = AI.find((name) => name === values.ai);
if (!ai) {
  console.error(`--ai must be offline, openai or anthropic (got ${values.ai}).`);
  process.exit(2);
}
const { players, seed } = intFlags(
  { players: 7, seed: 42 },
  { players: [MIN_PRESET_PLAYERS, MAX_PRESET_PLAYERS], seed: [0, 2 ** 31 - 1] },
  ['ai'],
);

const lines = [`# Dramatis demo — ${players} players, seed ${seed}`, ''];
const voices = HOUSE_PLAYERS.slice(0, players);
let seats: TableSeat[] = voices.map((voice, i) => ({ id: `seat${i + 1}`, name: voice.name, brain: heuristicBrain(voice) }));
let summarizer: Summarizer | undefined;
let report = async (): Promise<string | null> => null;

if (ai !== 'offline') {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    console.error(loaded.error);
    process.exit(2);
  }
  const env = { ...loaded.config.llm, provider: ai };
  if (!isConfigured(ai, env)) {
    lines.push(`(${ai} is not configured: set ${ai === 'openai' ? 'OPENAI_API_KEY or OPENAI_BASE_URL' : 'ANTHROPIC_API_KEY'} in .env. Playing offline.)`, '');
  } else {
    const ledger = memoryLedger();
    const budget = new TokenBudget(ledger, env.dailyTokenBudget);
    const { sink, flush } = budgetSink(budget);
    const seating = new Seating(env, { guildId: 'demo', gameId: `demo-${seed}` }, budget, sink);
    seats = voices.map((voice, i) => ({ id: `seat${i + 1}`, name: voice.name, brain: seating.brainFor(`seat${i + 1}`, plainPersona(voice)) }));
    summarizer = seating.summarizer();
    report = async () => {
      await flush();
      const input = ledger.calls.reduce((n, c) => n + c.inputTokens, 0);
      const output = ledger.calls.reduce((n, c) => n + c.outputTokens, 0);
      return `${ledger.calls.length} model calls, ${input} input and ${output} output tokens.`;
    };
  }
}

const result = await playGame({
  gameId: `demo-${seed}`,
  seed,
  seats,
  startAt: Date.UTC(2026, 0, 1),
  voting: ai === 'offline' ? 'sequential' : 'parallel',
  ...(summarizer && { summarizer }),
});
if (!result.ok) {
  console.error(`The demo could not run: ${result.error}`);
  process.exit(1);
}
const { state } = result;
for (const event of state.log) {
  if (event.visibility.kind !== 'public' || event.type === 'player_joined') continue;
  const line = narrate(state, event);
  if (line) lines.push(line);
}
lines.push('', "# Director's cut", ...directorsCut(state));
const cost = await report();
if (cost) lines.push('', `Cost: ${cost}`);
process.stdout.write(lines.join('\n') + '\n');
