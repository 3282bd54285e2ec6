// Personas: what a persona is (zod schemas), how it composes and renders into a prompt, the
// profiler, the starter pack, and the JSON and Character Card formats. No Discord, no database:
// the store is src/db/persona-store.ts.
export { personaName } from './persona.ts';
export { readStarterPack } from './starter-pack.ts';
