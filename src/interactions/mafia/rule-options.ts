import type { SlashCommandSubcommandBuilder } from 'discord.js';
import { DEFAULT_SETTINGS, RulesSchema, type Rules, type RulesInput } from '../../game/index.ts';
import { must } from '../../result.ts';

/** The rules whose value is of type V. */
type RuleOf<V> = { [K in keyof Rules]-?: Rules[K] extends V ? K : never }[keyof Rules];

type Labels = { readonly name: string; readonly description: string };

/** A rule /mafia create sets: its option's name and description; its type, bounds and default come from the schema. */
type RuleOption =
  | (Labels & { readonly kind: 'switch'; readonly rule: RuleOf<boolean> })
  | (Labels & { readonly kind: 'number'; readonly rule: RuleOf<number> })
  | {
      [K in RuleOf<string>]: Labels & { readonly kind: 'choice'; readonly rule: K; readonly choices: Readonly<Record<Rules[K], string>> };
    }[RuleOf<string>];

/**
 * The /mafia create options that set a rule, in the order Discord lists them. A new rule in the
 * engine's schema is offered by adding its row here: the command's options, the parser and the
 * option names /mafia rules shows all follow this table.
 */
export const RULE_OPTIONS = [
  { kind: 'number', rule: 'nightSeconds', name: 'night-seconds', description: 'Length of a night' },
  { kind: 'number', rule: 'daySeconds', name: 'day-seconds', description: 'Length of a day' },
  { kind: 'number', rule: 'voteSeconds', name: 'vote-seconds', description: 'Length of a vote' },
  {
    kind: 'choice',
    rule: 'voteMode',
    name: 'vote-mode',
    description: 'How a lynch is decided',
    choices: { plurality: 'plurality: most votes lynches', majority: 'majority: more than half of the living' },
  },
  {
    kind: 'choice',
    rule: 'dayStyle',
    name: 'day-style',
    description: 'How the day runs',
    choices: {
      auto: 'auto: trial days for preset games of 9 or more',
      open: 'open: talk, then a vote on anyone',
      trial: 'trial: nominate, the accused defend, vote among them',
    },
  },
  { kind: 'switch', rule: 'nominationSeconds', name: 'nomination-seconds', description: 'Trial days: a nomination needs a second' },
  { kind: 'number', rule: 'maxNominees', name: 'max-nominees', description: 'Trial days: most players accused in a day' },
  { kind: 'number', rule: 'defenseSeconds', name: 'defense-seconds', description: "Trial days: each accused player's defense" },
  { kind: 'switch', rule: 'doctorSelfProtect', name: 'doctor-self-protect', description: 'The Doctor may protect themself' },
  {
    kind: 'switch',
    rule: 'doctorRepeatProtect',
    name: 'doctor-repeat-protect',
    description: 'The Doctor may protect the same player twice in a row',
  },
  { kind: 'switch', rule: 'revealRoleOnDeath', name: 'reveal-roles', description: "A dead player's role is announced" },
  { kind: 'switch', rule: 'allowNoLynch', name: 'no-lynch', description: 'Players may vote to lynch nobody' },
  { kind: 'switch', rule: 'lastWills', name: 'last-wills', description: 'Players may write a will' },
  { kind: 'switch', rule: 'nightOneKill', name: 'night-one-kill', description: 'Kills allowed on the first night' },
  { kind: 'number', rule: 'vigilanteShots', name: 'vigilante-shots', description: 'Shots a Vigilante has' },
  {
    kind: 'choice',
    rule: 'leaverSeat',
    name: 'if-someone-leaves',
    description: 'Someone who leaves the server mid-game',
    choices: { out: 'out: they are out, their role shown', ai: 'ai: an AI plays on in their seat' },
  },
  { kind: 'number', rule: 'chatMessages', name: 'chat-messages', description: 'Messages a person may post per phase for the AI to read' },
  {
    kind: 'number',
    rule: 'chatCharacters',
    name: 'chat-characters',
    description: 'Characters a person may post per phase for the AI to read',
  },
  { kind: 'switch', rule: 'spectators', name: 'spectators', description: 'People not seated may watch from the graveyard thread' },
] as const satisfies readonly RuleOption[];

type OfferedRule = (typeof RULE_OPTIONS)[number]['rule'];

/** The /mafia create option that sets `rule`, as /mafia rules names it. */
export function optionName(rule: OfferedRule): string {
  return must(
    RULE_OPTIONS.find((o) => o.rule === rule),
    `the /mafia create option of ${rule}`,
  ).name;
}

/** The description Discord shows, with the engine's default: "Length of a night (default 90)". */
function described(option: RuleOption): string {
  const fallback = DEFAULT_SETTINGS.rules[option.rule];
  return `${option.description} (default ${typeof fallback === 'boolean' ? (fallback ? 'on' : 'off') : String(fallback)})`;
}

/** Every rule option on the /mafia create subcommand; number bounds are the schema's, so Discord refuses what the engine would. */
export function addRuleOptions(s: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  for (const option of RULE_OPTIONS as readonly RuleOption[]) {
    if (option.kind === 'switch') s.addBooleanOption((o) => o.setName(option.name).setDescription(described(option)));
    else if (option.kind === 'number') {
      const schema = RulesSchema.shape[option.rule].unwrap();
      s.addIntegerOption((o) => {
        o.setName(option.name).setDescription(described(option));
        if (schema.minValue !== null) o.setMinValue(schema.minValue);
        if (schema.maxValue !== null) o.setMaxValue(schema.maxValue);
        return o;
      });
    } else {
      // Each choice's label is looked up by its schema value; a value the table lacks is a bug.
      const labels: Readonly<Record<string, string>> = option.choices;
      const values: readonly string[] = RulesSchema.shape[option.rule].unwrap().options;
      s.addStringOption((o) =>
        o
          .setName(option.name)
          .setDescription(described(option))
          .addChoices(values.map((value) => ({ name: must(labels[value], `the label of ${option.rule} ${value}`), value }))),
      );
    }
  }
  return s;
}

/** What the parser reads of an interaction's options (a plain object in tests). */
export interface OptionValues {
  getInteger(name: string): number | null;
  getBoolean(name: string): boolean | null;
  getString(name: string): string | null;
}

function set<K extends keyof RulesInput>(rules: RulesInput, key: K, value: RulesInput[K] | null): void {
  if (value !== null) rules[key] = value;
}

/** The rules that were given, by the same table; the engine fills the defaults and checks the bounds. */
export function rulesFrom(values: OptionValues): RulesInput {
  const rules: RulesInput = {};
  for (const option of RULE_OPTIONS as readonly RuleOption[]) {
    if (option.kind === 'switch') set(rules, option.rule, values.getBoolean(option.name));
    else if (option.kind === 'number') set(rules, option.rule, values.getInteger(option.name));
    else {
      const picked = RulesSchema.shape[option.rule].unwrap().safeParse(values.getString(option.name));
      if (picked.success) set(rules, option.rule, picked.data);
    }
  }
  return rules;
}
