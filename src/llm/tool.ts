import { z } from 'zod';
import type { JsonSchema, ToolSpec } from './types.ts';

/**
 * A tool defined once: the zod schema is the single source of truth for both
 * providers' JSON Schema and for validating what the model sends.
 */
export interface Tool<Input = unknown, Context = void> {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType<Input>;
  /**
   * Returns the text the model sees; a thrown error becomes an error result the model sees.
   * A method (not a function property) so a `Tool<{ target: string }>` still fits in a
   * `Tool<unknown>[]` next to tools of other inputs.
   */
  run(input: Input, context: Context, signal?: AbortSignal): Promise<string> | string;
}

export function defineTool<Input, Context = void>(tool: Tool<Input, Context>): Tool<Input, Context> {
  return tool;
}

/** The JSON Schema of a zod schema, without the `$schema` dialect tag that providers do not need. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema) as JsonSchema;
  return rest;
}

export function toolSpec<Context>(tool: Tool<unknown, Context>): ToolSpec {
  return { name: tool.name, description: tool.description, inputSchema: jsonSchemaOf(tool.input) };
}
