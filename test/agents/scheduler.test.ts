import { describe, expect, it } from 'vitest';
import { nextSpeaker, type SpeakerCandidate } from '../../src/agents/scheduler.ts';

const seat = (n: number, spoken = 0, urgency: number | null = null): SpeakerCandidate => ({
  id: `s${n}`,
  name: ['Ada', 'Basil', 'Cleo', 'Dante'][n - 1]!,
  seat: n,
  spoken,
  urgency,
});

describe('the speaking scheduler', () => {
  it('GIVEN nobody has spoken WHEN day 1 starts THEN seats speak in seat order; on day 2 the opener moves one seat on', () => {
    const all = [seat(1), seat(2), seat(3), seat(4)];
    expect(nextSpeaker({ candidates: all, lastSpeech: null, day: 1, maxPerSeat: 2 })?.id).toBe('s1');
    expect(nextSpeaker({ candidates: all, lastSpeech: null, day: 2, maxPerSeat: 2 })?.id).toBe('s2');
  });

  it('GIVEN the last speech names a player WHEN choosing the next speaker THEN the named player answers first', () => {
    const all = [seat(1, 1, 1), seat(2), seat(3), seat(4)];
    const next = nextSpeaker({ candidates: all, lastSpeech: { speakerId: 's1', text: 'I think Dante is lying.' }, day: 1, maxPerSeat: 2 });
    expect(next?.id).toBe('s4');
  });

  it('GIVEN everyone spoke WHEN someone returned high urgency THEN they speak again; with low urgency all round the day ends', () => {
    const spokeOnce = [seat(1, 1, 1), seat(2, 1, 4), seat(3, 1, 3), seat(4, 1, 0)];
    expect(nextSpeaker({ candidates: spokeOnce, lastSpeech: null, day: 1, maxPerSeat: 2 })?.id).toBe('s2');
    const calm = [seat(1, 1, 1), seat(2, 1, 2), seat(3, 1, 0), seat(4, 1, 1)];
    expect(nextSpeaker({ candidates: calm, lastSpeech: null, day: 1, maxPerSeat: 2 })).toBeNull();
  });

  it('GIVEN a seat at its cap WHEN it is named or urgent THEN it does not speak again', () => {
    const capped = [seat(1, 2, 4), seat(2, 2, 4)];
    expect(nextSpeaker({ candidates: capped, lastSpeech: { speakerId: 's2', text: 'Ada?' }, day: 1, maxPerSeat: 2 })).toBeNull();
  });

  it('GIVEN a name inside another word WHEN checking who was addressed THEN it does not count', () => {
    const all = [seat(1, 1, 0), seat(2, 1, 0)];
    expect(
      nextSpeaker({ candidates: all, lastSpeech: { speakerId: 's1', text: 'Basilisks are scary.' }, day: 1, maxPerSeat: 2 }),
    ).toBeNull();
  });

  it('GIVEN a name written in other case or with letters that fold to it WHEN checking who was addressed THEN it counts, as the Unicode pattern reads it', () => {
    // Basil has spoken: only being named puts him before the silent Cleo.
    const all = [seat(1, 1, 1), seat(2, 1, 0), seat(3), seat(4)];
    const addressed = (text: string) => nextSpeaker({ candidates: all, lastSpeech: { speakerId: 's1', text }, day: 1, maxPerSeat: 2 })?.id;
    expect(addressed('what do you say, BASIL?')).toBe('s2');
    expect(addressed('what do you say, Basilisk?')).toBe('s3');
    // U+017F (long s) folds to "s" without lower-casing to it.
    expect(addressed('Ba\u017fil, answer me')).toBe('s2');
  });
});
