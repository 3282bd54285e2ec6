import { toStrictJsonSchema } from 'openai/lib/transform';
import { err, ok, type Result } from '../result.ts';
import type { JsonSchema } from './types.ts';

/**
 * The JSON Schema of an output made fit for OpenAI's strict structured outputs: every object closed
 * (`additionalProperties: false`), every property listed in `required`, no unsupported keyword.
 *
 * `z.toJSONSchema` already closes plain `z.object`s, but leaves `.optional()` fields out of
 * `required`, which strict mode refuses. The openai SDK's own converter (what its `zodResponseFormat`
 * uses) does the rest and rejects such a field rather than guess: an optional field must be written
 * `.nullable()` in the zod schema, so the model can send `null` and the schema still validates it.
 * Returns the converter's message when the schema cannot be made strict.
 */
export function strictJsonSchema(schema: JsonSchema): Result<JsonSchema, string> {
  try {
    return ok(toStrictJsonSchema(schema) as JsonSchema);
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error));
  }
}
