import { z } from 'zod';
import { renderPersona } from '../../../persona/render.ts';
import { defineTool, type Tool } from '../../../llm/tool.ts';
import { testInputPatchSchema, testInputSchema } from '../../../db/editor-turns.ts';
import { contentOf, currentPersona, must, refuse, type EditorToolContext } from './context.ts';

const idSchema = z.string().min(1).describe('The id list_test_inputs gives');

const listInput = z.strictObject({});
const listTestInputs = defineTool<z.infer<typeof listInput>, EditorToolContext>({
  name: 'list_test_inputs',
  description: "The persona's saved test inputs (situations to try it on with run_test), with their ids and roles.",
  input: listInput,
  async run(_input, ctx) {
    return JSON.stringify({ testInputs: await ctx.editor.testInputs(ctx.personaId) });
  },
});

const createTestInput = defineTool<z.input<typeof testInputSchema>, EditorToolContext>({
  name: 'create_test_input',
  description: 'Save a new test input for this persona.',
  input: testInputSchema,
  async run(input, ctx) {
    return JSON.stringify(must(await ctx.editor.createTestInput(ctx.personaId, input)));
  },
});

const updateInput = z.strictObject({ id: idSchema, change: testInputPatchSchema });
const updateTestInput = defineTool<z.infer<typeof updateInput>, EditorToolContext>({
  name: 'update_test_input',
  description: "Change the content and/or role of one of this persona's test inputs.",
  input: updateInput,
  async run({ id, change }, ctx) {
    return JSON.stringify(must(await ctx.editor.updateTestInput(ctx.personaId, id, change)));
  },
});

const deleteInput = z.strictObject({ id: idSchema });
const deleteTestInput = defineTool<z.infer<typeof deleteInput>, EditorToolContext>({
  name: 'delete_test_input',
  description: "Delete one of this persona's test inputs.",
  input: deleteInput,
  async run({ id }, ctx) {
    must(await ctx.editor.deleteTestInput(ctx.personaId, id));
    return `Test input ${id} deleted.`;
  },
});

const runInput = z.strictObject({
  id: idSchema.optional(),
  situation: testInputSchema.optional().describe('A one-off situation instead of a saved test input'),
});
const runTest = defineTool<z.infer<typeof runInput>, EditorToolContext>({
  name: 'run_test',
  description:
    'The persona answers a test input in character, through the same persona prompt a game uses. Give the id of a saved test input, or a one-off situation.',
  input: runInput,
  async run({ id, situation }, ctx, signal) {
    if ((id === undefined) === (situation === undefined)) refuse('Give either the id of a saved test input or a situation, not both.');
    const input = situation ?? (await ctx.editor.testInputs(ctx.personaId)).find((t) => t.id === id);
    if (input === undefined) refuse(`This persona has no test input with id "${id}"; list_test_inputs gives the ids.`);
    const rendered = must(renderPersona(contentOf(await currentPersona(ctx))));
    const answer = await ctx.tester.answer(
      rendered,
      input,
      { guildId: ctx.guildId, userId: ctx.actor.userId, personaId: ctx.personaId },
      signal,
    );
    if (!answer.ok) refuse(answer.error);
    return `As ${input.role}, to “${input.content}”, ${rendered.name} answers:\n${answer.value}`;
  },
});

export const TEST_INPUT_TOOLS: readonly Tool<unknown, EditorToolContext>[] = [
  listTestInputs,
  createTestInput,
  updateTestInput,
  deleteTestInput,
  runTest,
];
