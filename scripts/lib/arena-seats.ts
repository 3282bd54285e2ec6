import { HOUSE_PLAYERS } from '../../src/agents/seats.ts';
import type { LlmConfig } from '../../src/config.ts';
import { isConfigured } from '../../src/llm/providers.ts';
import { MAX_PRESET_PLAYERS, MIN_PRESET_PLAYERS } from '../../src/game/index.ts';
import type { ProviderName } from '../../src/llm/types.ts';
import { err, ok, type Result } from '../../src/result.ts';
import { housePersona, type DemoPersona } from './demo-personas.ts';

/** Who plays a seat: the offline brain, or a model of a provider. */
type ArenaModel = { readonly provider: 'offline' } | { readonly provider: ProviderName; readonly model: string };

/** One entry of `--seats`: a persona on a model; it moves round the table from game to game. */
export interface ArenaEntry {
  /** The persona's name at the table (unique in the game). */
  readonly name: string;
  /** The row it counts under "by persona": a starter persona's name, or "<name> (house)". */
  readonly persona: string;
  /** The row it counts under "by model": `offline`, or `provider:model`. */
  readonly model: string;
  readonly plays: ArenaModel;
  readonly seat: DemoPersona;
}

export const SEATS_HELP =
  'Comma-separated seats, 5–16: each a persona, a model, or persona@model. Models: offline, openai[:model], anthropic[:model] (without a model, the OPENAI_MODEL / ANTHROPIC_MODEL default); personas: a starter persona by name or slug (sherlock-holmes); a bare model plays a house persona, a bare persona plays offline. E.g. offline,offline,sherlock-holmes@openai:gpt-6-luna,anthropic:claude-haiku-5-5';

/** "Niccolò Machiavelli" → "niccolo-machiavelli". */
function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function readModel(text: string, env: LlmConfig): Result<ArenaModel, string> | null {
  const m = /^(offline|openai|anthropic)(?::(.*))?$/.exec(text);
  if (!m) return null;
  const [, provider, model] = m;
  if (provider === 'offline') return model === undefined ? ok({ provider: 'offline' }) : err(`"${text}": offline takes no model name`);
  if (provider !== 'openai' && provider !== 'anthropic') return null;
  if (model === '') return err(`"${text}": a model name must follow the colon`);
  return ok({ provider, model: model ?? env[provider].model });
}

const modelLabel = (m: ArenaModel) => (m.provider === 'offline' ? 'offline' : `${m.provider}:${m.model}`);

/**
 * The entries of a `--seats` list, or what is wrong with it. `starters` are the personas a name may
 * pick; `env` gives the default model of a provider named alone.
 */
export function parseSeats(spec: string, starters: readonly DemoPersona[], env: LlmConfig): Result<ArenaEntry[], string> {
  const parts = spec.split(',').map((s) => s.trim());
  if (parts.length < MIN_PRESET_PLAYERS || parts.length > MAX_PRESET_PLAYERS) {
    return err(`--seats needs ${MIN_PRESET_PLAYERS}–${MAX_PRESET_PLAYERS} seats (got ${parts.length}).`);
  }
  const house = [...HOUSE_PLAYERS];
  const entries: ArenaEntry[] = [];
  const names = new Map<string, number>();
  for (const part of parts) {
    if (part === '') return err('--seats has an empty seat (two commas in a row, or one at an end).');
    const at = part.lastIndexOf('@');
    const personaText = at >= 0 ? part.slice(0, at) : part;
    const modelText = at >= 0 ? part.slice(at + 1) : null;
    const asModel = modelText === null ? readModel(part, env) : readModel(modelText, env);
    if (asModel && !asModel.ok) return asModel;
    if (modelText !== null && !asModel)
      return err(`"${part}": "${modelText}" is not a model (offline, openai[:model], anthropic[:model]).`);
    const plays: ArenaModel = asModel?.value ?? { provider: 'offline' };
    const bareModel = modelText === null && asModel !== null;
    let seat: DemoPersona | undefined;
    let persona: string;
    if (bareModel) {
      const voice = house.shift();
      if (!voice) return err('--seats: more bare models than house players to seat them.');
      seat = housePersona(voice);
      persona = `${voice.name} (house)`;
    } else {
      seat = starters.find((p) => slug(p.name) === slug(personaText));
      if (!seat) {
        return err(
          `"${part}": no starter persona "${personaText}" (there are ${starters.map((p) => slug(p.name)).join(', ')}), and it is not a model.`,
        );
      }
      persona = seat.name;
    }
    // The same persona twice takes a number, so names at the table stay apart.
    const n = (names.get(seat.name) ?? 0) + 1;
    names.set(seat.name, n);
    entries.push({ name: n === 1 ? seat.name : `${seat.name} ${n}`, persona, model: modelLabel(plays), plays, seat });
  }
  return ok(entries);
}

/** The providers some entry plays on that this environment has no key (or base URL) for. */
export function unconfigured(entries: readonly ArenaEntry[], env: LlmConfig): ProviderName[] {
  const missing = new Set<ProviderName>();
  for (const e of entries) if (e.plays.provider !== 'offline' && !isConfigured(e.plays.provider, env)) missing.add(e.plays.provider);
  return [...missing];
}
