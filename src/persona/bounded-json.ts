import { err, ok, type Result } from '../result.ts';
import { personaError, type PersonaError } from './errors.ts';
import { FILE_LIMITS } from './limits.ts';

/**
 * Whether a JSON text nests arrays and objects deeper than `limit`, found by a scan of the raw text
 * that stops as soon as it is. Exact for valid JSON; what is not valid JSON the parser refuses anyway.
 */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, quotes included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * An uploaded JSON text parsed, or why not. The depth is checked first: a parsed value nested
 * thousands deep overflows the stack later, wherever it is copied, validated or stored.
 */
export function parseUploadedJson(text: string, what: string): Result<unknown, PersonaError> {
  const limit = FILE_LIMITS.jsonDepth;
  if (nestsDeeperThan(text, limit)) {
    return err(personaError('too_large', `${what} nests lists and objects more than ${limit} levels deep; the limit is ${limit}.`));
  }
  try {
    return ok(JSON.parse(text));
  } catch (error) {
    return err(personaError('malformed', `${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`));
  }
}
