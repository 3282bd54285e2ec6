/** Autocomplete over personas: answered from the in-memory index, timed at a large bot's scale. */
import { PersonaIndex } from '../src/db/persona-search.ts';
import { personaName, readStarterPack } from '../src/persona/index.ts';

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'sen', 'tor', 'vi', 'zu', 'bel', 'dan'];

/** The n-th of the ten syllables, cycling. */
function syllable(n: number): string {
  const s = SYLLABLES[n % SYLLABLES.length];
  if (s === undefined) throw new RangeError(`no syllable ${n}`);
  return s;
}

/** The value at `share` of the sorted times (0.5: the median). */
function quantile(sorted: readonly number[], share: number): number {
  const value = sorted[Math.floor(sorted.length * share)];
  if (value === undefined) throw new RangeError('no times to rank');
  return value;
}

export async function benchPersonaSearch(personas = 10_000, queries = 2_000): Promise<{ p50: number; p99: number; personas: number }> {
  const starters = await readStarterPack();
  if (!starters.ok) throw new Error(starters.error.message);
  const index = new PersonaIndex();
  for (let i = 0; i < personas; i++) {
    const name = `${syllable(i)}${syllable(Math.floor(i / 10))}${syllable(Math.floor(i / 100))} ${i}`;
    const guild = `guild-${i % 200}`;
    const scope =
      i % 3 === 0
        ? { kind: 'everyone' as const }
        : i % 3 === 1
          ? { kind: 'server' as const, guildId: guild }
          : { kind: 'private' as const };
    index.put({ id: `p${i}`, name, scope, ownerId: `user-${i % 500}`, builtIn: false, tags: [] });
  }
  for (const [i, starter] of starters.value.entries()) {
    index.put({ id: `starter-${i}`, name: personaName(starter), scope: { kind: 'everyone' }, ownerId: 'starter', builtIn: true, tags: [] });
  }
  const times: number[] = [];
  for (let q = 0; q < queries; q++) {
    const actor = { userId: `user-${q % 500}`, guildId: `guild-${q % 200}`, canManageServer: false };
    const query = syllable(q).slice(0, 1 + (q % 2));
    const start = performance.now();
    index.search(actor, query);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    personas: personas + starters.value.length,
  };
}
