import type { EditorStore } from '../../../db/editor-store.ts';
import type { PersonaStore } from '../../../db/persona-store.ts';
import type { Actor } from '../../../persona/permissions.ts';
import { personaName, type Persona, type PersonaContent } from '../../../persona/persona.ts';
import { renderPersona } from '../../../persona/render.ts';
import type { Result } from '../../../result.ts';
import type { PersonaTester } from '../persona-tester.ts';

/**
 * What every editor tool runs with. The persona is fixed here, by the session: no tool takes a
 * persona id, so the model cannot reach another persona whatever it is told.
 */
export interface EditorToolContext {
  readonly personaId: string;
  /** The session's server (null in a DM): its budget pays for test calls. */
  readonly guildId: string | null;
  /** The session's owner, as Discord describes them now; the store checks their permissions on every write. */
  readonly actor: Actor;
  readonly personas: PersonaStore;
  readonly editor: EditorStore;
  readonly tester: PersonaTester;
}

/**
 * A refusal the model reads as an error result and can act on. Tools throw it because that is
 * the Tool contract (`runToolCalls` turns it into `isError`); nothing is written before it.
 */
class ToolRefusal extends Error {}

export function refuse(message: string): never {
  throw new ToolRefusal(message);
}

export function must<T>(result: Result<T, { message: string }>): T {
  if (!result.ok) refuse(result.error.message);
  return result.value;
}

export async function currentPersona(ctx: EditorToolContext): Promise<Persona> {
  return must(await ctx.personas.get(ctx.actor, ctx.personaId));
}

/** Everything the store saves about a persona, from a loaded one. */
export function contentOf(persona: PersonaContent): PersonaContent {
  const { profile, avatarUrl, tags, notes, parts, traits, arc, card } = persona;
  return { profile, avatarUrl, tags, notes, parts, traits, arc, card };
}

/**
 * Reads the persona fresh, applies the change, and saves it against the version it read, so an
 * edit made meanwhile elsewhere is never overwritten. Answers what changed and how it renders now.
 */
export async function editPersona(
  ctx: EditorToolContext,
  what: string,
  change: (content: PersonaContent) => PersonaContent,
): Promise<string> {
  const persona = await currentPersona(ctx);
  const saved = must(await ctx.personas.update(ctx.actor, ctx.personaId, persona.version, change(contentOf(persona))));
  return `${what} Saved ${personaName(saved)} as version ${saved.version}. ${renderNote(saved)}`;
}

function renderNote(persona: PersonaContent): string {
  const rendered = renderPersona(persona);
  if (!rendered.ok) return rendered.error.message;
  return [`It renders to ${rendered.value.words} words.`, ...rendered.value.warnings].join(' ');
}
