import { err, ok, type Result } from '../result.ts';
import { PART_TYPES, type ArcProgress, type Part, type PartType } from './composition.ts';
import { personaError, type PersonaError } from './errors.ts';

/** Parts given at load time, by the type they replace. Never written to the database. */
export type PartOverrides = Partial<Record<PartType, Part>>;

type PartSource = 'override' | 'arc' | 'persona';

export interface ResolvedPart extends Part {
  readonly source: PartSource;
}

/** The arc stage's parts in force, or none. */
function activeStageParts(arc: ArcProgress | null): readonly Part[] {
  return arc?.arc.stages[arc.stage]?.parts ?? [];
}

/**
 * The parts a persona renders with. Per type, the highest level that has that type wins and
 * replaces all of the persona's parts of it: runtime overrides, then the active arc stage, then
 * the persona's own parts. A replaced type keeps the position of its first own part; types the
 * persona lacks follow its parts (stage parts in stage order, then overrides in PART_TYPES order).
 */
export function resolveParts(
  own: readonly Part[],
  arc: ArcProgress | null,
  overrides: PartOverrides = {},
): Result<ResolvedPart[], PersonaError> {
  // A key may be present with the value undefined, which Object.entries' inferred type leaves out.
  for (const [type, part] of Object.entries<Part | undefined>(overrides)) {
    if (part !== undefined && part.type !== type) {
      return err(personaError('invalid', `The override for ${type} names "${part.name}", which is a ${part.type} part.`));
    }
  }
  const stage = activeStageParts(arc);
  const winner = (type: PartType): ResolvedPart[] | null => {
    const override = overrides[type];
    if (override !== undefined) return [{ ...override, source: 'override' }];
    const staged = stage.filter((p) => p.type === type);
    return staged.length > 0 ? staged.map((p) => ({ ...p, source: 'arc' })) : null;
  };
  const out: ResolvedPart[] = [];
  const placed = new Set<PartType>();
  for (const part of own) {
    if (placed.has(part.type)) continue;
    const replacement = winner(part.type);
    if (replacement === null) {
      out.push({ ...part, source: 'persona' });
      continue;
    }
    placed.add(part.type);
    out.push(...replacement);
  }
  const ownTypes = new Set(own.map((p) => p.type));
  for (const part of stage) {
    if (ownTypes.has(part.type) || overrides[part.type] !== undefined) continue;
    out.push({ ...part, source: 'arc' });
  }
  for (const type of PART_TYPES) {
    const override = overrides[type];
    if (override !== undefined && !ownTypes.has(type)) out.push({ ...override, source: 'override' });
  }
  return ok(out);
}

/** The next stage; refused at the last one. */
export function advanceArc(arc: ArcProgress): Result<ArcProgress, PersonaError> {
  if (arc.stage + 1 >= arc.arc.stages.length) {
    return err(personaError('invalid', `"${arc.arc.name}" is already at its last stage (${arc.arc.stages[arc.stage]?.name}).`));
  }
  return ok({ ...arc, stage: arc.stage + 1 });
}

export function resetArc(arc: ArcProgress): ArcProgress {
  return { ...arc, stage: 0 };
}
