import { err, ok, type Result } from '../result.ts';
import { personaError, type PersonaError } from './errors.ts';
import { FILE_LIMITS } from './limits.ts';
import { PROFILE_LIMITS } from './profile.ts';

/** A name and a biography a persona can be built from, cleaned: the name's spaces collapsed, the text's line ends made \n. */
export interface Biography {
  readonly name: string;
  readonly text: string;
}

/** The one check of what a persona is built from, by the profiler and offline alike; refused with what to change. */
export function checkBiography(name: string, rawText: string): Result<Biography, PersonaError> {
  const cleanName = name.trim().replace(/\s+/g, ' ');
  if (cleanName === '' || cleanName.length > PROFILE_LIMITS.name.max) {
    return err(personaError('invalid', `The name must be 1–${PROFILE_LIMITS.name.max} characters.`));
  }
  const text = rawText.replace(/\r\n?/g, '\n').trim();
  if (text === '') return err(personaError('invalid', 'The biography is empty; paste some text about the person.'));
  if (text.length > FILE_LIMITS.rawTextChars) {
    return err(
      personaError(
        'too_large',
        `The biography has ${text.length.toLocaleString('en')} characters; the limit is ${FILE_LIMITS.rawTextChars.toLocaleString('en')}.`,
      ),
    );
  }
  return ok({ name: cleanName, text });
}
