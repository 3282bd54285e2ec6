/**
 * The bench's LLM section: what a game costs per model and output level, at each model's list
 * price from the model table, through the real SDKs against the wire fakes on the game's clock.
 */
import { DEFAULT_MODELS, type ModelInfo, type ModelProvider } from '../src/models.ts';
import { must } from '../src/result.ts';
import { benchLatency, type ProviderGameFigures } from './bench-llm.ts';
import { benchGames } from './bench-llm-pool.ts';
import { ILLEGAL_ANSWER_RATE } from './fakes/llm/playing-model.ts';
import { OUTPUT_LEVELS, type OutputLevel } from './fakes/llm/playing-answer.ts';
import { benchModels } from './lib/bench-models.ts';
import { ratio } from './lib/bench-ratio.ts';
import { mean, sampleMean, type SampleMean } from './lib/sample-mean.ts';
import { dollarsAt } from './lib/wire-bill.ts';

/**
 * Games per model and level (seeds 1 to N). A game's cost depends mostly on how long it runs, so
 * across games it varies by about a quarter of its mean (Sonnet: $0.05 on $0.19 typical, $0.07 on
 * $0.26 verbose); 200 games put every mean within ±$0.01 (95 %). On the game's clock a game costs
 * about twice the CPU it did when models took no game time: 1,800 games, 7 minutes on 2 cores.
 */
export const LLM_GAMES = 200;

const MINUTE = 60_000;
const PROVIDER_NAME: Record<ModelProvider, string> = { anthropic: 'Anthropic', openai: 'OpenAI' };

/**
 * Models whose games are the same, one provider, one cache minimum and one tokenizer (the fakes
 * draw nothing else from the model id): `played` is played, every member priced on its games.
 */
interface Group {
  readonly played: ModelInfo;
  readonly models: ModelInfo[];
}

function groupsOf(models: readonly ModelInfo[]): Group[] {
  const groups = new Map<string, Group>();
  for (const model of models) {
    const key = `${model.provider} ${model.cacheMinTokens} ${model.tokenRatio ?? 1}`;
    const group = groups.get(key);
    if (group) group.models.push(model);
    else groups.set(key, { played: model, models: [model] });
  }
  return [...groups.values()];
}

type Runs = Map<string, Record<OutputLevel, ProviderGameFigures[]>>;

const told = (s: SampleMean): string => `$${s.mean.toFixed(3)} ± ${s.ci95.toFixed(3)}`;
const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;
const cacheReadShare = (games: readonly ProviderGameFigures[]): number =>
  games.reduce((n, f) => n + f.cachedInputTokens, 0) / games.reduce((n, f) => n + f.inputTokens, 0);
const perCall = (games: readonly ProviderGameFigures[], f: (g: ProviderGameFigures) => number): number =>
  games.reduce((n, g) => n + f(g), 0) / games.reduce((n, g) => n + g.calls, 0);

export async function llmSection(out: (line: string) => void): Promise<Record<string, unknown>> {
  const chosen = benchModels();
  const groups = groupsOf(chosen.map((c) => c.model));
  out(
    `${LLM_GAMES} all-AI 7-player games of the starter personas per model and output level (seeds 1–${LLM_GAMES}), through the real SDKs against the wire fakes on the game's clock (each answer begins after 0.8–3 s and comes at 40–90 tokens a second; a cache entry is readable once the answer that wrote it has begun and lives 5 minutes, or 1 hour where asked, of game time after its last use; each model's own cache minimum; ${ILLEGAL_ANSWER_RATE * 100} % of decisions name a target the task does not offer and are asked again), each model at its list price from src/models.ts. terse: 70 % of each stated length, two reads a turn; typical: every stated length in full; verbose: in full, a read on every living player, a sentence before each tool call (Anthropic) and a read_transcript round at night:`,
  );
  const started = performance.now();
  const jobs = groups.flatMap((group) =>
    OUTPUT_LEVELS.flatMap((level) =>
      Array.from({ length: LLM_GAMES }, (_, i) => ({ provider: group.played.provider, model: group.played.id, level, seed: i + 1 })),
    ),
  );
  const played = await benchGames(jobs);
  const runs: Runs = new Map();
  jobs.forEach((job, i) => {
    const run = runs.get(job.model) ?? { terse: [], typical: [], verbose: [] };
    run[job.level].push(must(played.figures[i], `the figures of ${JSON.stringify(job)}`));
    runs.set(job.model, run);
  });
  const groupOf = (model: ModelInfo): Group =>
    must(
      groups.find((g) => g.models.includes(model)),
      `the group of ${model.id}`,
    );
  const runOf = (model: ModelInfo): Record<OutputLevel, ProviderGameFigures[]> =>
    must(runs.get(groupOf(model).played.id), `the games of ${model.id}`);

  const models: Record<string, unknown> = {};
  for (const { model, isDefault } of chosen) {
    const run = runOf(model);
    const cost = Object.fromEntries(
      OUTPUT_LEVELS.map((level) => [level, sampleMean(run[level].map((f) => dollarsAt(f.billed, model.price)))]),
    ) as Record<OutputLevel, SampleMean>;
    const stand = groupOf(model).played;
    const note = [
      isDefault ? `${PROVIDER_NAME[model.provider]} default` : undefined,
      `caches from ${model.cacheMinTokens.toLocaleString('en')} tokens`,
      stand.id !== model.id ? `the games of ${stand.id}, priced apart` : undefined,
    ].filter((part): part is string => part !== undefined);
    out(
      `  ${model.id} (${note.join('; ')}): ${OUTPUT_LEVELS.map((level) => `${level} ${told(cost[level])}`).join(', ')} a game (95 %); cache-read share ${percent(cacheReadShare(run.typical))} (typical)`,
    );
    models[model.id] = {
      provider: model.provider,
      dollarsPerGame: Object.fromEntries(OUTPUT_LEVELS.map((level) => [level, cost[level].mean])),
      dollarsPerGameCi95: Object.fromEntries(OUTPUT_LEVELS.map((level) => [level, cost[level].ci95])),
      cacheReadShare: cacheReadShare(run.typical),
    };
  }

  const anthropic = modelOf(chosen, 'anthropic');
  const openai = modelOf(chosen, 'openai');
  const main = runOf(anthropic);
  const byLevel = (f: (games: ProviderGameFigures[]) => number): Record<OutputLevel, number> =>
    Object.fromEntries(OUTPUT_LEVELS.map((level) => [level, f(main[level])])) as Record<OutputLevel, number>;
  const listed = (values: Record<OutputLevel, number>, digits: number): string =>
    OUTPUT_LEVELS.map((level) => values[level].toFixed(digits)).join(' / ');
  const callsPerGame = byLevel((games) => mean(games.map((f) => f.calls)));
  const outputPerCall = byLevel((games) => perCall(games, (g) => g.outputTokens));
  const inputPerGame = byLevel((games) => mean(games.map((f) => f.inputTokens)));
  const reasks = byLevel((games) => mean(games.map((f) => f.reasks)));
  const toolRounds = byLevel((games) => mean(games.map((f) => f.toolRounds)));
  const fallbacks = byLevel((games) => games.reduce((n, f) => n + f.fallbacks, 0) / games.reduce((n, f) => n + f.decisions, 0));
  const calls = sampleMean(main.typical.map((f) => f.calls));
  out(`  ${anthropic.id}, terse / typical / verbose:`);
  out(
    `    model calls per game ${listed(callsPerGame, 1)} (one game ${calls.min}–${calls.max} at typical)  [target ≤ 40 at typical: ${ratio(callsPerGame.typical, 40, false)}]`,
  );
  out(`    output tokens per call ${listed(outputPerCall, 0)}; input tokens per game ${listed(inputPerGame, 0)}`);
  out(`    re-asks after an illegal answer per game ${listed(reasks, 2)}; tool rounds per game ${listed(toolRounds, 2)}`);
  out(
    `    decisions the offline brain made instead (a deadline passed, or a second illegal answer): ${OUTPUT_LEVELS.map((level) => percent(fallbacks[level])).join(' / ')}`,
  );
  const byLength = new Map<number, ProviderGameFigures[]>();
  for (const f of main.typical) byLength.set(f.days, [...(byLength.get(f.days) ?? []), f]);
  const lengths = [...byLength].sort((x, y) => x[0] - y[0]);
  for (const [days, games] of lengths) {
    const dollars = mean(games.map((f) => dollarsAt(f.billed, anthropic.price)));
    out(`    ended on day ${days}: ${games.length} games (${percent(games.length / LLM_GAMES)}), $${dollars.toFixed(3)} a game (typical)`);
  }
  const gaps = main.typical.flatMap((f) => f.seatGapsMs);
  const gapShare = (overMs: number): number => gaps.filter((gap) => gap > overMs).length / gaps.length;
  const longestGap = Math.max(...gaps);
  out(
    `    a seat's calls, game time between one and its next (typical): ${percent(gapShare(4 * MINUTE))} over 4 minutes, ${percent(gapShare(5 * MINUTE))} over 5, the longest ${(longestGap / MINUTE).toFixed(2)} minutes`,
  );
  const shares = { anthropic: cacheReadShare(main.typical), openai: cacheReadShare(runOf(openai).typical) };
  out(
    `  cache-read share of input tokens (typical): ${anthropic.id} ${percent(shares.anthropic)}  [target ≥ 60 %: ${ratio(shares.anthropic, 0.6)}], ${openai.id} ${percent(shares.openai)}  [target ≥ 60 %: ${ratio(shares.openai, 0.6)}]`,
  );
  const headline = sampleMean(main.typical.map((f) => dollarsAt(f.billed, anthropic.price)));
  const verbose = sampleMean(main.verbose.map((f) => dollarsAt(f.billed, anthropic.price)));
  out(
    `  dollars per game, ${anthropic.id} at typical: ${told(headline)} (one game $${headline.min.toFixed(2)}–$${headline.max.toFixed(2)})  [target ≤ $0.20: ${ratio(headline.mean, 0.2, false)}; anchors: Kaggle werewolf arena ~$0.64, AI Werewolf ~$0.54]; verbose ${told(verbose)}`,
  );
  const audited = [...runs.values()].flatMap((run) => OUTPUT_LEVELS.flatMap((level) => run[level]));
  const entitledFactsMissing = audited.reduce((n, f) => n + f.entitledFactsMissing, 0);
  const promptsAudited = audited.reduce((n, f) => n + f.promptsAudited, 0);
  out(
    `  facts a seat was entitled to and its prompt did not tell, over ${promptsAudited} decision prompts of every game above: ${entitledFactsMissing}  [target 0: ${entitledFactsMissing === 0 ? '✓' : '✗'}]`,
  );
  out(`  ${jobs.length} games in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const warning of played.warnings) out(`  an SDK warned: ${warning.replaceAll('\n', ' ')}`);
  const latency = await benchLatency();
  out(
    `  8-seat game against a fake of fixed latency L = ${latency.latencyMs} ms: phase wall time / (sequential model depth × L): ${[...latency.phaseRatios].map(([p, r]) => `${p} ${r.toFixed(3)}`).join(', ')}  [target ≤ 1.1: ${ratio(1.1, Math.max(...latency.phaseRatios.values()))}]`,
  );
  return {
    games: LLM_GAMES,
    defaultModels: DEFAULT_MODELS,
    models,
    dollarsPerGame: headline.mean,
    dollarsPerGameCi95: headline.ci95,
    dollarsPerGameVerbose: verbose.mean,
    callsPerGame: callsPerGame.typical,
    callsPerGameByLevel: callsPerGame,
    inputTokensPerGame: inputPerGame.typical,
    outputTokensPerCall: outputPerCall.typical,
    outputTokensPerCallByLevel: outputPerCall,
    reasksPerGame: reasks,
    toolRoundsPerGame: toolRounds,
    fallbackShare: fallbacks,
    cacheReadShare: shares,
    gamesByLength: Object.fromEntries(lengths.map(([days, games]) => [`day${days}`, games.length])),
    seatCallGaps: { over4MinShare: gapShare(4 * MINUTE), over5MinShare: gapShare(5 * MINUTE), longestMin: longestGap / MINUTE },
    phaseWallRatio: Object.fromEntries(latency.phaseRatios),
    entitledFactsMissing,
    promptsAudited,
  };
}

function modelOf(chosen: ReturnType<typeof benchModels>, provider: ModelProvider): ModelInfo {
  const found = chosen.find((c) => c.isDefault && c.model.provider === provider);
  if (!found) throw new Error(`no default ${provider} model to bench`);
  return found.model;
}
