// Personas: what a persona is (zod schemas), how it composes and renders into a prompt, the
// profiler, the starter pack, and the JSON and Character Card formats. No Discord, no database:
// the store is src/db/persona-store.ts.
export { profileSchema, PROFILE_LIMITS, TACTICS_ROLES, type Profile, type Tactics, type TacticsRole } from './profile.ts';
export {
  arcSchema,
  partSchema,
  traitSchema,
  PART_TYPES,
  TRAIT_TYPES,
  COMPOSITION_LIMITS,
  type Arc,
  type ArcProgress,
  type ArcStage,
  type Part,
  type PartType,
  type Trait,
  type TraitType,
} from './composition.ts';
export {
  personaContentSchema,
  scopeSchema,
  personaName,
  PERSONA_LIMITS,
  type Persona,
  type PersonaContent,
  type Scope,
} from './persona.ts';
export type { CardExtras } from './card-extras.ts';
export { personaError, type PersonaError, type PersonaErrorCode } from './errors.ts';
export { canSee, mayCreateIn, mayEdit, scopeKey, STARTER_OWNER, type Actor } from './permissions.ts';
export { advanceArc, resetArc, resolveParts, type PartOverrides, type ResolvedPart } from './compose.ts';
export { renderPersona, RENDER_LIMITS, type RenderedPersona, type RenderOptions } from './render.ts';
export { loadStarterPack, readStarterPack, type StarterPackReport } from './starter-pack.ts';
export { exportPersonaJson, importPersonaJson, PERSONA_FORMAT, PERSONA_FORMAT_VERSION } from './persona-json.ts';
export { importCard, readCard, type CardProfiler, type ImportCardOptions, type ImportedCard } from './card-import.ts';
export { exportCardV2, exportCardV2Json, exportCardV2Png } from './card-export.ts';
export { FILE_LIMITS } from './limits.ts';
