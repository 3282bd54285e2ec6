import { readdir, readFile } from 'node:fs/promises';
import { err, ok, type Result } from '../result.ts';
import { personaError, type PersonaError } from './errors.ts';
import { importPersonaJson } from './persona-json.ts';
import type { PersonaContent } from './persona.ts';

const STARTERS_DIR = new URL('./starters/', import.meta.url);

/** What loading the starter pack needs from a store (the PersonaStore has it). */
export interface BuiltInSink {
  upsertBuiltIn(content: unknown): Promise<Result<'created' | 'updated' | 'unchanged', PersonaError>>;
}

export interface StarterPackReport {
  readonly created: readonly string[];
  readonly updated: readonly string[];
  readonly unchanged: readonly string[];
}

/** The shipped personas (src/persona/starters/*.json, in the persona export format), sorted by file name. */
export async function readStarterPack(): Promise<Result<PersonaContent[], PersonaError>> {
  const files = (await readdir(STARTERS_DIR)).filter((f) => f.endsWith('.json')).sort();
  const personas: PersonaContent[] = [];
  for (const file of files) {
    const parsed = importPersonaJson(await readFile(new URL(file, STARTERS_DIR), 'utf8'));
    if (!parsed.ok) return err(personaError(parsed.error.code, `starters/${file}: ${parsed.error.message}`));
    personas.push(parsed.value);
  }
  return ok(personas);
}

/**
 * Called at boot: creates missing starter personas, refreshes changed ones, leaves the rest.
 * Running it again changes nothing.
 */
export async function loadStarterPack(store: BuiltInSink): Promise<Result<StarterPackReport, PersonaError>> {
  const pack = await readStarterPack();
  if (!pack.ok) return pack;
  const report = { created: [] as string[], updated: [] as string[], unchanged: [] as string[] };
  for (const persona of pack.value) {
    const outcome = await store.upsertBuiltIn(persona);
    if (!outcome.ok) return err(personaError(outcome.error.code, `${persona.profile.identity.name}: ${outcome.error.message}`));
    report[outcome.value].push(persona.profile.identity.name);
  }
  return ok(report);
}
