import type { z } from 'zod';

export type PersonaErrorCode =
  | 'invalid' // a field breaks a limit or the shape is wrong
  | 'malformed' // a file that cannot be parsed at all
  | 'unsupported' // a file of a spec or version we do not read
  | 'too_large'
  | 'too_many' // past a cap on how many may be stored
  | 'not_found'
  | 'forbidden'
  | 'read_only' // the starter pack
  | 'stale' // optimistic versioning: someone saved first
  | 'name_taken'
  | 'in_game'
  | 'no_llm'
  | 'llm_failed';

/** An expected failure with a sentence a person can act on. */
export interface PersonaError {
  readonly code: PersonaErrorCode;
  /** What the person is told. */
  readonly message: string;
  /** For the log only: a provider's own words (status lines, bodies) that people are not shown. */
  readonly detail?: string;
}

export function personaError(code: PersonaErrorCode, message: string, detail?: string): PersonaError {
  return detail === undefined ? { code, message } : { code, message, detail };
}

/** zod issues as "path: message; path: message", paths in the dotted form people type. */
export function describeIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map((p) => (typeof p === 'number' ? `[${p + 1}]` : String(p)))]
        .filter((p) => p !== '')
        .join('.')
        .replace(/\.\[/g, '[');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}
