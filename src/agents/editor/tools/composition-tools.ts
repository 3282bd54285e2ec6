import { z } from 'zod';
import { COMPOSITION_LIMITS, entityNameSchema, partSchema, traitSchema, type Part } from '../../../persona/composition.ts';
import { nameKey } from '../../../persona/text.ts';
import { defineTool, type Tool } from '../../../llm/tool.ts';
import { currentPersona, editPersona, refuse, type EditorToolContext } from './context.ts';

const same = (a: string, b: string): boolean => nameKey(a) === nameKey(b);

const listInput = z.strictObject({});
const listParts = defineTool<z.infer<typeof listInput>, EditorToolContext>({
  name: 'list_parts',
  description:
    "The persona's parts in render order (typed building blocks: soul, voice, flaw, goal …) and the parts of its current arc stage.",
  input: listInput,
  async run(_input, ctx) {
    const { parts, arc } = await currentPersona(ctx);
    const stage = arc === null ? undefined : arc.arc.stages[arc.stage];
    const brief = (p: Part) => ({ name: p.name, type: p.type, summary: p.summary });
    return JSON.stringify({
      parts: parts.map((p, i) => ({ position: i + 1, ...p })),
      arcStage: arc === null || stage === undefined ? null : { arc: arc.arc.name, stage: stage.name, parts: stage.parts.map(brief) },
    });
  },
});

const addPartInput = z.strictObject({
  part: partSchema,
  position: z.number().int().min(1).optional().describe('1 is first; default last'),
});
const addPart = defineTool<z.infer<typeof addPartInput>, EditorToolContext>({
  name: 'add_part',
  description: `Add a part (at most ${COMPOSITION_LIMITS.partsPerPersona}). Its summary renders in games, its content in the detailed rendering. A part of a type the persona already has renders too; the arc stage's part of a type replaces the persona's.`,
  input: addPartInput,
  run: ({ part, position }, ctx) =>
    editPersona(ctx, `Part "${part.name}" added.`, (c) => {
      if (c.parts.some((p) => same(p.name, part.name)))
        refuse(`The persona already has a part named "${part.name}"; remove it first to replace it.`);
      const at = Math.min((position ?? c.parts.length + 1) - 1, c.parts.length);
      return { ...c, parts: [...c.parts.slice(0, at), part, ...c.parts.slice(at)] };
    }),
});

const nameInput = z.strictObject({ name: entityNameSchema });
const removePart = defineTool<z.infer<typeof nameInput>, EditorToolContext>({
  name: 'remove_part',
  description: "Remove one of the persona's parts by name (the shared part itself stays for other personas).",
  input: nameInput,
  run: ({ name }, ctx) =>
    editPersona(ctx, `Part "${name}" removed.`, (c) => {
      if (!c.parts.some((p) => same(p.name, name)))
        refuse(`The persona has no part named "${name}"; its parts are: ${c.parts.map((p) => p.name).join(', ') || 'none'}.`);
      return { ...c, parts: c.parts.filter((p) => !same(p.name, name)) };
    }),
});

const reorderInput = z.strictObject({ names: z.array(entityNameSchema).describe('Every part name, in the new order') });
const reorderParts = defineTool<z.infer<typeof reorderInput>, EditorToolContext>({
  name: 'reorder_parts',
  description: "Put the persona's parts in a new render order; name every part exactly once.",
  input: reorderInput,
  run: ({ names }, ctx) =>
    editPersona(ctx, 'Parts reordered.', (c) => {
      const current = c.parts.map((p) => p.name);
      const ordered = names.map((n) => c.parts.find((p) => same(p.name, n)));
      if (names.length !== current.length || ordered.some((p) => p === undefined) || new Set(names.map(nameKey)).size !== names.length) {
        refuse(`Name every part exactly once; the parts are: ${current.join(', ') || 'none'}.`);
      }
      return { ...c, parts: ordered.filter((p) => p !== undefined) };
    }),
});

const addTraitInput = z.strictObject({ trait: traitSchema });
const addTrait = defineTool<z.infer<typeof addTraitInput>, EditorToolContext>({
  name: 'add_trait',
  description: `Add a trait (at most ${COMPOSITION_LIMITS.traitsPerPersona}): a type, a description, and the instruction the prompt gets on how to apply it in play.`,
  input: addTraitInput,
  run: ({ trait }, ctx) =>
    editPersona(ctx, `Trait "${trait.name}" added.`, (c) => {
      if (c.traits.some((t) => same(t.name, trait.name))) refuse(`The persona already has a trait named "${trait.name}".`);
      return { ...c, traits: [...c.traits, trait] };
    }),
});

const removeTrait = defineTool<z.infer<typeof nameInput>, EditorToolContext>({
  name: 'remove_trait',
  description: "Remove one of the persona's traits by name.",
  input: nameInput,
  run: ({ name }, ctx) =>
    editPersona(ctx, `Trait "${name}" removed.`, (c) => {
      if (!c.traits.some((t) => same(t.name, name)))
        refuse(`The persona has no trait named "${name}"; its traits are: ${c.traits.map((t) => t.name).join(', ') || 'none'}.`);
      return { ...c, traits: c.traits.filter((t) => !same(t.name, name)) };
    }),
});

const stageInput = z.strictObject({ stage: z.number().int().min(1).describe('1 is the first stage') });
const setArcStage = defineTool<z.infer<typeof stageInput>, EditorToolContext>({
  name: 'set_arc_stage',
  description: "Move the persona's character arc to a stage; that stage's parts then replace the persona's parts of the same types.",
  input: stageInput,
  run: ({ stage }, ctx) =>
    editPersona(ctx, `Arc moved to stage ${stage}.`, (c) => {
      if (c.arc === null) refuse('The persona has no character arc.');
      const stages = c.arc.arc.stages;
      if (stage > stages.length)
        refuse(`"${c.arc.arc.name}" has ${stages.length} stages: ${stages.map((s, i) => `${i + 1}. ${s.name}`).join(', ')}.`);
      return { ...c, arc: { ...c.arc, stage: stage - 1 } };
    }),
});

export const COMPOSITION_TOOLS: readonly Tool<unknown, EditorToolContext>[] = [
  listParts,
  addPart,
  removePart,
  reorderParts,
  addTrait,
  removeTrait,
  setArcStage,
];
