import { z } from 'zod';
import { err, ok, type Result } from '../result.ts';
import { parseUploadedJson } from './bounded-json.ts';
import { describeIssues, personaError, type PersonaError } from './errors.ts';
import { FILE_LIMITS, kib } from './limits.ts';
import { personaContentSchema, type PersonaContent } from './persona.ts';

export const PERSONA_FORMAT = 'dramatis.persona';
export const PERSONA_FORMAT_VERSION = 1;

/** The JSON export: a persona with its parts, traits and arc. Ids, owner and scope stay behind. */
const personaExportSchema = z.strictObject({
  format: z.literal(PERSONA_FORMAT),
  version: z.literal(PERSONA_FORMAT_VERSION),
  persona: personaContentSchema,
});

/**
 * A persona's whole size, measured as its export: each field has its own limit, but together they
 * could reach a megabyte, which every read loads and every edit rewrites. At this bound every
 * stored persona exports to a file `/persona import` takes back.
 */
export const STORED_PERSONA_BYTES = FILE_LIMITS.personaJsonBytes;

/** Why a valid persona is too large to store, or null when it fits. */
export function personaSizeError(persona: PersonaContent): PersonaError | null {
  const bytes = Buffer.byteLength(exportPersonaJson(persona));
  if (bytes <= STORED_PERSONA_BYTES) return null;
  return personaError(
    'too_large',
    `The persona is ${kib(bytes)} in all (its profile, parts, traits, arc and card together); the limit is ${kib(STORED_PERSONA_BYTES)}. ` +
      'Shorten its longest fields (a card’s greetings or example messages, its parts) and try again.',
  );
}

/** Canonical JSON: parsing puts the keys in schema order, so export → import → export is byte-identical. */
export function exportPersonaJson(persona: PersonaContent): string {
  const content = personaContentSchema.parse(pick(persona));
  return `${JSON.stringify({ format: PERSONA_FORMAT, version: PERSONA_FORMAT_VERSION, persona: content }, null, 2)}\n`;
}

export function importPersonaJson(file: string | Uint8Array): Result<PersonaContent, PersonaError> {
  const size = typeof file === 'string' ? Buffer.byteLength(file) : file.byteLength;
  if (size > FILE_LIMITS.personaJsonBytes) {
    return err(personaError('too_large', `The persona file is ${kib(size)}; the limit is ${kib(FILE_LIMITS.personaJsonBytes)}.`));
  }
  const parsed = parseUploadedJson(typeof file === 'string' ? file : Buffer.from(file).toString('utf8'), 'The persona file');
  if (!parsed.ok) return parsed;
  const raw = parsed.value;
  if (typeof raw !== 'object' || raw === null || (raw as { format?: unknown }).format !== PERSONA_FORMAT) {
    return err(personaError('unsupported', `The file is not a Dramatis persona export (expected "format": "${PERSONA_FORMAT}").`));
  }
  const version = (raw as { version?: unknown }).version;
  if (version !== PERSONA_FORMAT_VERSION) {
    return err(
      personaError(
        'unsupported',
        `The persona export has version ${JSON.stringify(version)}; this Dramatis reads version ${PERSONA_FORMAT_VERSION}.`,
      ),
    );
  }
  const persona = personaExportSchema.safeParse(raw);
  if (!persona.success) return err(personaError('invalid', `The persona file is invalid: ${describeIssues(persona.error)}.`));
  return ok(persona.data.persona);
}

/** Only the content fields: a stored persona also carries ids and timestamps. */
function pick(persona: PersonaContent): PersonaContent {
  const { profile, avatarUrl, model, tags, notes, parts, traits, arc, card } = persona;
  return { profile, avatarUrl, ...(model && { model }), tags, notes, parts, traits, arc, card };
}
