import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, RulesSchema } from '../../../src/game/index.ts';
import { mafiaCommandData } from '../../../src/interactions/mafia/index.ts';
import { optionName, RULE_OPTIONS, rulesFrom, type OptionValues } from '../../../src/interactions/mafia/rule-options.ts';

/** Options as an interaction carries them: absent ones, or of another type, read as null. */
function given(values: Readonly<Record<string, string | number | boolean>>): OptionValues {
  return {
    getInteger: (name) => (typeof values[name] === 'number' ? values[name] : null),
    getBoolean: (name) => (typeof values[name] === 'boolean' ? values[name] : null),
    getString: (name) => (typeof values[name] === 'string' ? values[name] : null),
  };
}

describe('the /mafia create rule options', () => {
  it('GIVEN no options WHEN read THEN no rule is set and the engine keeps its defaults', () => {
    expect(rulesFrom(given({}))).toEqual({});
  });

  it('GIVEN every option WHEN read THEN each sets its rule', () => {
    const rules = rulesFrom(
      given({
        'night-seconds': 60,
        'day-seconds': 200,
        'vote-seconds': 45,
        'vote-mode': 'majority',
        'doctor-self-protect': false,
        'doctor-repeat-protect': true,
        'reveal-roles': false,
        'no-lynch': false,
        'last-wills': false,
        'night-one-kill': false,
        'vigilante-shots': 3,
      }),
    );
    expect(rules).toEqual({
      nightSeconds: 60,
      daySeconds: 200,
      voteSeconds: 45,
      voteMode: 'majority',
      doctorSelfProtect: false,
      doctorRepeatProtect: true,
      revealRoleOnDeath: false,
      allowNoLynch: false,
      lastWills: false,
      nightOneKill: false,
      vigilanteShots: 3,
    });
    expect(RulesSchema.safeParse(rules).success).toBe(true);
  });

  it('GIVEN a vote mode the engine does not know WHEN read THEN it is left to the default', () => {
    expect(rulesFrom(given({ 'vote-mode': 'unanimous' }))).toEqual({});
  });

  it('GIVEN the registered /mafia create WHEN its options are read THEN each rule option carries the schema’s bounds and default', () => {
    const create = mafiaCommandData.options?.find((o) => o.name === 'create');
    const options = create && 'options' in create ? (create.options ?? []) : [];
    for (const row of RULE_OPTIONS) {
      const option = options.find((o) => o.name === row.name);
      expect(option, row.name).toBeDefined();
      const fallback = DEFAULT_SETTINGS.rules[row.rule];
      expect(option?.description).toContain(`(default ${typeof fallback === 'boolean' ? (fallback ? 'on' : 'off') : String(fallback)})`);
      if (row.kind === 'number') {
        const schema = RulesSchema.shape[row.rule].unwrap();
        expect(option).toMatchObject({ min_value: schema.minValue, max_value: schema.maxValue });
      }
    }
    expect(optionName('lastWills')).toBe('last-wills');
  });
});
