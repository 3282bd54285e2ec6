import { describe, expect, it } from 'vitest';
import {
  DELETED_SPEECH,
  deleteSpeeches,
  editSpeech,
  fold,
  narrate,
  speak,
  viewFor,
  type GameEvent,
  type PlayerState,
} from '../../src/game/index.ts';
import { TestGame } from '../support/test-game.ts';

const SEVEN = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;

function atDay(rules = {}): TestGame {
  const t = TestGame.started([...SEVEN], rules);
  t.advanceTo('day');
  return t;
}

/** `speaker` says `text` in message `ref`. */
function say(t: TestGame, speaker: PlayerState, text: string, ref: string, channel: 'town' | 'mafia' = 'town'): void {
  t.must(speak(t.state, { playerId: speaker.id, channel, text, ref, at: (t.at += 1000) }));
}

const speeches = (t: TestGame) => t.events('speech').map((e) => e.payload);
const townView = (t: TestGame) => viewFor(t.state, t.by('doctor').id)!;

describe('a message its author edits', () => {
  it('GIVEN a day speech WHEN its author edits it in the same phase THEN the log gains one edit event and the speech reads the new words, marked edited, for every viewer and when folded again', () => {
    const t = atDay();
    const talker = t.by('townsperson');
    say(t, talker, 'Ann is the Mafia', 'm1');
    const spoken = (e: GameEvent) => e.type === 'speech' && e.payload.text;
    expect(
      townView(t)
        .events.filter((e) => e.type === 'speech')
        .map(spoken),
    ).toEqual(['Ann is the Mafia']);
    const events = t.must(editSpeech(t.state, { ref: 'm1', text: 'Bob is the Mafia', at: (t.at += 1000) }));

    expect(events.map((e) => e.type)).toEqual(['speech_edited']);
    expect(speeches(t)).toEqual([{ playerId: talker.id, channel: 'town', text: 'Bob is the Mafia', ref: 'm1', edited: true }]);
    expect(
      townView(t)
        .events.filter((e) => e.type === 'speech')
        .map(spoken),
    ).toEqual(['Bob is the Mafia']);
    expect(JSON.stringify(fold(t.state.log.map((e) => ({ ...e }))).log)).toBe(JSON.stringify(t.state.log));
    expect(narrate(t.state, t.events('speech')[0]!)).toBe(`${talker.name}: Bob is the Mafia (edited)`);
  });

  it('GIVEN a speech of an earlier phase WHEN its author edits it THEN the edit is refused and the record keeps what was said when it counted', () => {
    const t = atDay();
    say(t, t.by('townsperson'), 'first words', 'm1');
    t.advanceTo('vote');
    const before = t.state;
    expect(t.refuse(editSpeech(t.state, { ref: 'm1', text: 'other words', at: t.at })).code).toBe('wrong_phase');
    expect(t.state).toBe(before);
    expect(speeches(t)[0]?.text).toBe('first words');
  });

  it('GIVEN an edit with the same words (Discord updates a message when it unfurls a link) or of a message the game never took THEN nothing changes', () => {
    const t = atDay();
    say(t, t.by('townsperson'), 'see https://example.com', 'm1');
    expect(t.must(editSpeech(t.state, { ref: 'm1', text: 'see https://example.com', at: t.at }))).toEqual([]);
    expect(t.refuse(editSpeech(t.state, { ref: 'other', text: 'x', at: t.at })).code).toBe('no_speech');
  });

  it('GIVEN a limit of 300 characters a phase WHEN an edit would cross it THEN it is refused; an edit within it counts its new length instead of the old', () => {
    const t = atDay({ chatCharacters: 300 });
    const talker = t.by('townsperson');
    say(t, talker, 'a'.repeat(200), 'm1');
    say(t, talker, 'b'.repeat(50), 'm2');
    expect(t.refuse(editSpeech(t.state, { ref: 'm2', text: 'c'.repeat(120), at: t.at })).code).toBe('chat_limit');
    t.must(editSpeech(t.state, { ref: 'm1', text: 'a'.repeat(100), at: t.at }));
    t.must(editSpeech(t.state, { ref: 'm2', text: 'c'.repeat(150), at: t.at }));
  });
});

describe('a message its author deletes', () => {
  it('GIVEN a speech edited once WHEN it is deleted, even after its phase THEN the speech and its edit keep no words, every viewer reads the placeholder, and folding the log again gives the same log', () => {
    const t = atDay();
    const talker = t.by('townsperson');
    say(t, talker, 'I am the Detective', 'm1');
    t.must(editSpeech(t.state, { ref: 'm1', text: 'I am the Doctor', at: t.at }));
    t.advanceTo('vote');
    const events = t.must(deleteSpeeches(t.state, { refs: ['m1'], at: t.at }));

    expect(events.map((e) => e.type)).toEqual(['speech_deleted']);
    expect(speeches(t)).toEqual([{ playerId: talker.id, channel: 'town', text: DELETED_SPEECH, ref: 'm1', deleted: true }]);
    expect(t.events('speech_edited').map((e) => e.payload.text)).toEqual([DELETED_SPEECH]);
    const log = JSON.stringify(t.state.log);
    expect(log).not.toContain('Detective');
    expect(log).not.toContain('Doctor');
    expect(JSON.stringify(townView(t).events)).not.toContain('Doctor');
    expect(JSON.stringify(fold(t.state.log.map((e) => ({ ...e }))).log)).toBe(log);
    expect(narrate(t.state, t.events('speech')[0]!)).toBe(`${talker.name}: ${DELETED_SPEECH}`);
    expect(t.refuse(editSpeech(t.state, { ref: 'm1', text: 'back again', at: t.at })).code).toBe('no_speech');
  });

  it('GIVEN town and Mafia speeches WHEN several are deleted in bulk, some twice and some never taken THEN each taken one is deleted once, under the visibility of its speech', () => {
    const t = atDay();
    say(t, t.by('townsperson'), 'one', 'm1');
    say(t, t.by('mafia'), 'psst', 'm2', 'mafia');
    say(t, t.by('doctor'), 'three', 'm3');
    const events: readonly GameEvent[] = t.must(deleteSpeeches(t.state, { refs: ['m1', 'm2', 'm1', 'nope'], at: t.at }));
    expect(events.map((e) => [e.type, e.visibility.kind])).toEqual([
      ['speech_deleted', 'public'],
      ['speech_deleted', 'team'],
    ]);
    expect(speeches(t).map((s) => s.text)).toEqual([DELETED_SPEECH, DELETED_SPEECH, 'three']);
    expect(t.must(deleteSpeeches(t.state, { refs: ['m1'], at: t.at }))).toEqual([]);
  });

  it('GIVEN a deleted message WHEN its author speaks again THEN the chat limit counts it as a message but not its characters', () => {
    const t = atDay({ chatMessages: 2, chatCharacters: 300 });
    const talker = t.by('townsperson');
    say(t, talker, 'a'.repeat(280), 'm1');
    t.must(deleteSpeeches(t.state, { refs: ['m1'], at: t.at }));
    say(t, talker, 'b'.repeat(280), 'm2');
    expect(t.refuse(speak(t.state, { playerId: talker.id, channel: 'town', text: 'c', ref: 'm3', at: t.at })).code).toBe('chat_limit');
  });

  it('GIVEN a message already taken WHEN Discord delivers it again THEN it is not taken twice', () => {
    const t = atDay();
    say(t, t.by('townsperson'), 'once', 'm1');
    expect(t.must(speak(t.state, { playerId: t.by('townsperson').id, channel: 'town', text: 'once', ref: 'm1', at: t.at }))).toEqual([]);
  });
});
