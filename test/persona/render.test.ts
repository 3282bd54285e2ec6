import { describe, expect, it } from 'vitest';
import { personaFromProfile } from '../../src/agents/player/persona-from-profile.ts';
import { quoteBlock } from '../../src/agents/player/quote.ts';
import { stablePrefix } from '../../src/agents/player/prompt.ts';
import { profileSchema } from '../../src/persona/profile.ts';
import { renderPersona } from '../../src/persona/render.ts';
import { readStarterPack } from '../../src/persona/starter-pack.ts';
import { describeIssues } from '../../src/persona/errors.ts';
import { content, part, profile, trait } from './fixtures.ts';
import { stringMatching } from '../support/matchers.ts';

const rendered = (c = content(), options = {}) => {
  const r = renderPersona(c, options);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('the profile', () => {
  it('GIVEN a profile within every limit WHEN it is validated THEN it passes unchanged', () => {
    expect(profileSchema.parse(profile())).toEqual(profile());
  });

  it('GIVEN fields outside their limits WHEN validated THEN each error names the field and the bound', () => {
    const bad = profile();
    bad.identity.coreTraits = ['one', 'two'];
    bad.identity.background = 'One. Two. Three.';
    bad.playStyle.voice = 'Too short.';
    bad.playStyle.signaturePhrases = ['a', 'b', 'c', 'd'];
    bad.tactics.doctor = ['only one'];
    bad.identity.name = 'x'.repeat(61);
    const result = profileSchema.safeParse(bad);
    expect(result.success).toBe(false);
    const message = result.success ? '' : describeIssues(result.error);
    expect(message).toContain('identity.coreTraits: needs at least 3 core traits');
    expect(message).toContain('identity.background: must be 1–2 sentences (it has 3)');
    expect(message).toContain('playStyle.voice: must be 25–40 words (it has 2)');
    expect(message).toContain('playStyle.signaturePhrases: allows at most 3 signature phrases');
    expect(message).toContain('tactics.doctor: needs at least 2 tactics');
    expect(message).toContain('identity.name: must be at most 60 characters');
  });

  it('GIVEN "Dr." inside a background WHEN sentences are counted THEN the abbreviation does not end one', () => {
    const p = profile();
    p.identity.background = 'Partner of Dr. Watson and a terror to St. Giles. He plays to win.';
    expect(profileSchema.safeParse(p).success).toBe(true);
  });
});

describe('rendering', () => {
  it('GIVEN the same persona WHEN rendered twice THEN the text is identical and holds identity, voice, approach and every role’s tactics', () => {
    const a = rendered();
    expect(rendered()).toEqual(a);
    expect(a.block.startsWith('You are Ada Lovelace. A Victorian mathematician')).toBe(true);
    expect(a.block).toContain('Voice: Bright, quick and precise');
    expect(a.block).toContain('Signature phrases: “The engine does not lie.”; “Let us compute.”');
    expect(a.block).not.toContain('As Mafia:');
    expect(a.text).toContain('As Mafia:\n- Quote numbers that frame a loud townsperson');
    expect(a.text).toContain('As Doctor:');
  });

  it('GIVEN a persona under 180 words WHEN rendered THEN it warns that it is thin', () => {
    const thin = profile();
    thin.playStyle.signaturePhrases = [];
    thin.playStyle.signatureMoves = [];
    thin.personality = '';
    thin.decisionStyle = '';
    thin.tactics = {
      town: ['Vote late', 'Ask why'],
      mafia: ['Blend in', 'Vote late'],
      detective: ['Check loud players', 'Claim late'],
      doctor: ['Guard claims', 'Vary'],
    };
    const r = rendered(content({ profile: thin }));
    expect(r.words).toBeLessThan(180);
    expect(r.warnings).toEqual([expect.stringMatching(/renders to \d+ words; under 180 it tends to feel thin/)]);
  });

  it('GIVEN parts that push it past 400 words WHEN rendered in detail THEN it warns of drift, and past 800 it is refused', () => {
    const long = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const big = content({ parts: [{ name: 'history', type: 'backstory', summary: 'Short.', content: long(250) }] });
    expect(rendered(big).warnings).toEqual([]);
    expect(rendered(big, { detail: true }).warnings).toEqual([expect.stringMatching(/over 400 models drift/)]);
    const huge = content({
      parts: [0, 1, 2].map((i) => ({ name: `history ${i}`, type: 'backstory' as const, summary: 'Short.', content: long(250) })),
    });
    const refused = renderPersona(huge, { detail: true });
    expect(refused).toEqual({
      ok: false,
      error: { code: 'invalid', message: stringMatching(/renders to \d+ words; the limit is 800/) },
    });
  });

  it('GIVEN traits and parts WHEN rendered THEN traits give their instruction and parts their summary, or content in detail', () => {
    const c = content({ traits: [trait('methodical')], parts: [part('inner fire', 'motivation', 'Prove the machine')] });
    const summary = rendered(c).block;
    expect(summary).toContain('- methodical (cognitive): Be methodical when you weigh claims.');
    expect(summary).toContain('Motivation (inner fire): Prove the machine in short.');
    expect(rendered(c, { detail: true }).block).toContain('Motivation (inner fire): Prove the machine in full, with every detail.');
  });

  it('GIVEN every starter persona WHEN rendered THEN each validates, has tactics for all four roles and lands in 200–300 words without warnings', async () => {
    const pack = await readStarterPack();
    expect(pack.ok).toBe(true);
    if (!pack.ok) return;
    expect(pack.value.length).toBeGreaterThanOrEqual(8);
    for (const persona of pack.value) {
      const r = rendered(persona);
      expect(r.words, persona.profile.identity.name).toBeGreaterThanOrEqual(200);
      expect(r.words, persona.profile.identity.name).toBeLessThanOrEqual(300);
      expect(r.warnings).toEqual([]);
    }
  });
});

describe('the bridge to the seat prompt', () => {
  it('GIVEN a rendered persona WHEN turned into a PersonaPrompt THEN the block, the role’s tactics and the voice reach the stable prefix', () => {
    const prompt = personaFromProfile(rendered());
    expect(prompt).toMatchObject({
      name: 'Ada Lovelace',
      voice: { name: 'Ada Lovelace', phrases: ['The engine does not lie.', 'Let us compute.'] },
    });
    expect(prompt.tactics?.mafia).toEqual(profile().tactics.mafia);
    const view = {
      me: { name: 'Ada Lovelace', seat: 1, role: 'detective' },
      rolesInPlay: ['detective', 'mafia', 'townsperson'],
      rules: {
        voteMode: 'plurality',
        allowNoLynch: true,
        revealRoleOnDeath: true,
        lastWills: true,
        doctorSelfProtect: true,
        doctorRepeatProtect: false,
        nightOneKill: true,
        maxQuietCycles: 3,
      },
      teammates: [],
    } as unknown as Parameters<typeof stablePrefix>[0];
    const prefix = stablePrefix(view, prompt);
    // Inside the <persona> tag, each line quoted: persona text is material, never instructions.
    expect(prefix).toContain(quoteBlock('persona', prompt.block));
    expect(prefix).toContain(prompt.block.split('\n')[0]);
    expect(prefix).toContain('- Investigate the player whose votes and words disagree');
    expect(prefix).not.toContain('Quote numbers that frame');
  });
});
