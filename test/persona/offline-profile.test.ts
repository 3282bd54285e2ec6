import { describe, expect, it } from 'vitest';
import { offlinePersona, OFFLINE_PROFILE_NOTE } from '../../src/persona/offline-profile.ts';
import { renderPersona } from '../../src/persona/render.ts';
import { stringMatching } from '../support/matchers.ts';

describe('a persona from a biography without a model', () => {
  it('GIVEN a one-word biography WHEN built THEN it is still a valid persona, padded with generic play', () => {
    const built = offlinePersona('Ada', 'Mathematician.');
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value.profile.identity).toEqual({
      name: 'Ada',
      background: 'Mathematician.',
      coreTraits: ['observant', 'sociable', 'in character'],
    });
    expect(built.value.notes).toBe(OFFLINE_PROFILE_NOTE);
  });

  it('GIVEN a very long biography WHEN built THEN the backstory is cut so the persona renders within the word cap', () => {
    const long = 'Napoleon was ambitious, bold and calculating. He crowned himself emperor in Notre-Dame. '.repeat(1000);
    const built = offlinePersona('Napoleon Bonaparte', long);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value.profile.identity.coreTraits).toEqual(['ambitious', 'bold', 'calculating']);
    expect(renderPersona(built.value, { detail: true }).ok).toBe(true);
  });

  it('GIVEN an empty biography, an empty name or text over the limit WHEN built THEN each is refused with its reason', () => {
    expect(offlinePersona('Ada', '  \n ')).toMatchObject({
      ok: false,
      error: { code: 'invalid', message: stringMatching(/biography is empty/) },
    });
    expect(offlinePersona(' ', 'A mathematician.')).toMatchObject({ ok: false, error: { message: 'The name must be 1–60 characters.' } });
    expect(offlinePersona('Ada', 'x'.repeat(100_001))).toMatchObject({ ok: false, error: { code: 'too_large' } });
  });
});
