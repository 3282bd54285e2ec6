import { z } from 'zod';
import { RoleIdSchema } from './roles/ids.ts';

/**
 * With `dayStyle: auto`, preset games of at least this many players play trial days: at a big
 * table an open vote on anyone scatters, and nominations give the day a shape. Smaller tables keep
 * the quicker open day.
 */
export const TRIAL_DAY_PLAYERS = 9;

/** Every rule switch has a default, so `{}` is a playable game. Durations are seconds. */
export const RulesSchema = z.object({
  doctorSelfProtect: z.boolean().default(true).describe('The Doctor may protect themself'),
  doctorRepeatProtect: z.boolean().default(false).describe('The Doctor may protect the same player two nights in a row'),
  revealRoleOnDeath: z.boolean().default(true).describe("A dead player's role is announced"),
  voteMode: z
    .enum(['plurality', 'majority'])
    .default('plurality')
    .describe('plurality: most votes lynches (ties lynch nobody); majority: more than half of the living'),
  allowNoLynch: z.boolean().default(true).describe('Players may vote to lynch nobody'),
  lastWills: z.boolean().default(true).describe('Players may write a will, read out when they die'),
  nightOneKill: z.boolean().default(true).describe('Mafia and Vigilante may kill on the first night'),
  vigilanteShots: z.number().int().min(1).max(5).default(1).describe('Shots a Vigilante has per game'),
  nightSeconds: z.number().int().min(10).max(3600).default(90),
  dawnSeconds: z.number().int().min(0).max(300).default(10),
  daySeconds: z.number().int().min(10).max(7200).default(300),
  voteSeconds: z.number().int().min(10).max(3600).default(90),
  lastWordsSeconds: z.number().int().min(0).max(600).default(30).describe('Time the lynched player has for last words; 0 skips the phase'),
  chatMessages: z.number().int().min(1).max(200).default(15).describe('Messages a person may post per phase that the AI players read'),
  chatCharacters: z
    .number()
    .int()
    .min(200)
    .max(20000)
    .default(3000)
    .describe('Characters a person may post per phase that the AI players read'),
  leaverSeat: z
    .enum(['out', 'ai'])
    .default('out')
    .describe('Someone who leaves the server mid-game: out of the game, role shown (out), or an AI plays on in their seat (ai)'),
  dayStyle: z
    .enum(['auto', 'open', 'trial'])
    .default('auto')
    .describe(
      'open: discussion, then a vote on anyone alive; trial: players nominate, the nominees defend themselves, the vote is among them; auto: trial days for the preset roles from TRIAL_DAY_PLAYERS players, open otherwise (decided at the start)',
    ),
  nominationSeconds: z.boolean().default(true).describe('In a trial day, a nomination stands only once another player seconds it'),
  maxNominees: z.number().int().min(1).max(6).default(3).describe('In a trial day, the most players who can stand accused in one day'),
  defenseSeconds: z.number().int().min(10).max(600).default(45).describe("In a trial day, each nominee's time to speak in their defense"),
  maxQuietCycles: z
    .number()
    .int()
    .min(1)
    .max(20)
    .default(3)
    .describe('Day–night cycles in a row without a death before the game ends in a draw'),
  spectators: z.boolean().default(false).describe('People not seated may watch the game from its graveyard thread, with the dead'),
});
export type Rules = z.infer<typeof RulesSchema>;
export type RulesInput = z.input<typeof RulesSchema>;

const SetupSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('preset') }),
  z.object({ kind: z.literal('custom'), roles: z.array(RoleIdSchema).min(3).max(24) }),
]);
export type Setup = z.infer<typeof SetupSchema>;

export const SettingsSchema = z.object({
  setup: SetupSchema.default({ kind: 'preset' }),
  rules: RulesSchema.default(RulesSchema.parse({})),
});
export type Settings = z.infer<typeof SettingsSchema>;
export type SettingsInput = z.input<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});
