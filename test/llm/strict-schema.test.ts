import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictJsonSchema } from '../../src/llm/strict-schema.ts';
import { jsonSchemaOf } from '../../src/llm/tool.ts';
import { stringMatching } from '../support/matchers.ts';

describe('strictJsonSchema (OpenAI strict structured outputs)', () => {
  it('GIVEN a zod object with nested objects, arrays and a nullable field WHEN made strict THEN every object is closed and lists every property as required', () => {
    const schema = jsonSchemaOf(
      z.object({
        decision: z.enum(['Grace', 'Alan']),
        beliefs: z.array(z.object({ player: z.string(), suspicion: z.number() })),
        note: z.string().nullable(),
      }),
    );

    const strict = strictJsonSchema(schema);

    expect(strict).toEqual({
      ok: true,
      value: {
        type: 'object',
        properties: {
          decision: { type: 'string', enum: ['Grace', 'Alan'] },
          beliefs: {
            type: 'array',
            items: {
              type: 'object',
              properties: { player: { type: 'string' }, suspicion: { type: 'number' } },
              required: ['player', 'suspicion'],
              additionalProperties: false,
            },
          },
          note: { type: ['string', 'null'] },
        },
        required: ['decision', 'beliefs', 'note'],
        additionalProperties: false,
      },
    });
  });

  it('GIVEN a hand-written schema with an open object and a nullable field not listed as required WHEN made strict THEN it is closed and completed', () => {
    const strict = strictJsonSchema({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: ['number', 'null'] } },
      required: ['a'],
    });

    expect(strict).toEqual({
      ok: true,
      value: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: ['number', 'null'] } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    });
  });

  it('GIVEN a field that is .optional() but not .nullable() WHEN made strict THEN it is refused with the field named, since the model could not leave it out', () => {
    const strict = strictJsonSchema(jsonSchemaOf(z.object({ target: z.string(), reason: z.string().optional() })));

    expect(strict).toEqual({ ok: false, error: stringMatching(/properties\/reason.*optional\(\).*nullable\(\)/) });
  });

  it('GIVEN a schema whose root is not an object WHEN made strict THEN it is refused', () => {
    expect(strictJsonSchema(jsonSchemaOf(z.array(z.string())))).toMatchObject({ ok: false });
  });

  it('GIVEN a schema WHEN made strict THEN the input is left untouched', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };

    strictJsonSchema(schema);

    expect(schema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });
});
