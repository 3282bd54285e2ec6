import { z } from 'zod';
import { personaContentSchema } from '../../../persona/persona.ts';
import { identitySchema, playStyleSchema, profileSchema, TACTICS_ROLES, tacticsSchema } from '../../../persona/profile.ts';
import { defineTool, type Tool } from '../../../llm/tool.ts';
import { currentPersona, editPersona, must, type EditorToolContext } from './context.ts';
import { previewOf } from './preview.ts';

const noInput = z.strictObject({});

/** At least one field: an empty patch is a mistake worth telling the model about. */
const patch = <T extends z.ZodRawShape>(shape: z.ZodObject<T>) =>
  shape.partial().refine((value) => Object.values(value).some((v) => v !== undefined), { error: 'give at least one field to change' });

const getPersona = defineTool<z.infer<typeof noInput>, EditorToolContext>({
  name: 'get_persona',
  description: 'The persona being edited: its profile (identity, play style, role tactics, prose), parts, traits, arc, avatar and version.',
  input: noInput,
  async run(_input, ctx) {
    const persona = await currentPersona(ctx);
    const { profile, avatarUrl, tags, parts, traits, arc } = persona;
    return JSON.stringify({
      id: persona.id,
      version: persona.version,
      readOnly: persona.builtIn,
      profile,
      avatarUrl,
      tags,
      parts: parts.map((p) => ({ name: p.name, type: p.type, summary: p.summary })),
      traits: traits.map((t) => ({ name: t.name, type: t.type, instruction: t.instruction })),
      arc: arc === null ? null : { name: arc.arc.name, stage: arc.stage + 1, stages: arc.arc.stages.map((s) => s.name) },
    });
  },
});

const identityPatch = patch(identitySchema.omit({ name: true }));
const updateIdentity = defineTool<z.infer<typeof identityPatch>, EditorToolContext>({
  name: 'update_identity',
  description:
    'Change the background (1–2 sentences that inform motivation) and/or the 3–5 role-neutral core traits. To change the name, use rename.',
  input: identityPatch,
  run: (input, ctx) =>
    editPersona(ctx, 'Identity updated.', (c) => ({
      ...c,
      profile: { ...c.profile, identity: { ...c.profile.identity, ...defined(input) } },
    })),
});

const playStylePatch = patch(playStyleSchema);
const updatePlayStyle = defineTool<z.infer<typeof playStylePatch>, EditorToolContext>({
  name: 'update_play_style',
  description:
    'Change the voice (25–40 words: vocabulary, rhythm, tone), the approach (40–60 words: decision style, risk, how they accuse and defend), the signature phrases (0–3) and/or signature moves (0–2). Only the fields given change.',
  input: playStylePatch,
  run: (input, ctx) =>
    editPersona(ctx, 'Play style updated.', (c) => ({
      ...c,
      profile: { ...c.profile, playStyle: { ...c.profile.playStyle, ...defined(input) } },
    })),
});

const tacticsInput = z.strictObject({
  role: z.enum(TACTICS_ROLES).describe('The role these tactics are for'),
  tactics: tacticsSchema.shape.town.describe('2–5 short, actionable moves that change what the persona decides in this role'),
});
const updateRoleTactics = defineTool<z.infer<typeof tacticsInput>, EditorToolContext>({
  name: 'update_role_tactics',
  description:
    "Replace the persona's own tactics for one role (town, mafia, detective or doctor). Good tactics change decisions, not just flavour.",
  input: tacticsInput,
  run: ({ role, tactics }, ctx) =>
    editPersona(ctx, `Tactics as ${role} updated.`, (c) => ({
      ...c,
      profile: { ...c.profile, tactics: { ...c.profile.tactics, [role]: tactics } },
    })),
});

const prosePatch = patch(profileSchema.pick({ personality: true, speechStyle: true, decisionStyle: true }));
const updateStyleNotes = defineTool<z.infer<typeof prosePatch>, EditorToolContext>({
  name: 'update_style_notes',
  description: "Change the optional prose notes: personality (temperament, values, quirks), speech style, decision style. '' removes one.",
  input: prosePatch,
  run: (input, ctx) => editPersona(ctx, 'Style notes updated.', (c) => ({ ...c, profile: { ...c.profile, ...defined(input) } })),
});

const renameInput = z.strictObject({ name: identitySchema.shape.name });
const rename = defineTool<z.infer<typeof renameInput>, EditorToolContext>({
  name: 'rename',
  description: "Change the persona's display name (unique among the owner's personas).",
  input: renameInput,
  run: ({ name }, ctx) =>
    editPersona(ctx, `Renamed to ${name}.`, (c) => ({ ...c, profile: { ...c.profile, identity: { ...c.profile.identity, name } } })),
});

const avatarInput = z.strictObject({
  url: personaContentSchema.shape.avatarUrl.describe('An http(s) image URL, or null to remove the avatar'),
});
const setAvatar = defineTool<z.infer<typeof avatarInput>, EditorToolContext>({
  name: 'set_avatar',
  description: "Set the persona's avatar image URL (shown when it speaks in games), or remove it with null.",
  input: avatarInput,
  run: ({ url }, ctx) => editPersona(ctx, url === null ? 'Avatar removed.' : 'Avatar set.', (c) => ({ ...c, avatarUrl: url })),
});

const previewInput = z.strictObject({ detail: z.boolean().optional().describe("Parts' full content instead of their summaries") });
const preview = defineTool<z.infer<typeof previewInput>, EditorToolContext>({
  name: 'preview',
  description:
    'The persona as the game prompt gets it, with its word count and warnings (length outside 200–300 words, tactics that do not differ by role …).',
  input: previewInput,
  async run({ detail }, ctx) {
    const rendered = must(await ctx.personas.render(ctx.actor, ctx.personaId, { detail: detail ?? false }));
    const shown = previewOf(rendered);
    return [`${rendered.name}: ${shown.words} words.`, ...shown.warnings.map((w) => `Warning: ${w}`), '', shown.text].join('\n');
  },
});

/** The fields of a patch that were given (zod leaves absent optional keys out, but be sure). */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const PERSONA_TOOLS: readonly Tool<unknown, EditorToolContext>[] = [
  getPersona,
  updateIdentity,
  updatePlayStyle,
  updateRoleTactics,
  updateStyleNotes,
  rename,
  setAvatar,
  preview,
];
