import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../../src/agents/decision.ts';
import { turnContext, turnParts } from '../../../src/agents/player/prompt.ts';
import * as engine from '../../../src/game/index.ts';
import type { PlayerState } from '../../../src/game/index.ts';
import { TestGame } from '../../support/test-game.ts';

function speakRequest(t: TestGame, me: PlayerState, sinceSeq: number): DecisionRequest {
  return { kind: 'speak', view: engine.viewFor(t.state, me.id)!, targets: [], allowSkip: false, beliefs: {}, sinceSeq };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the turn tells each thing once', () => {
  it('GIVEN a night kill WHEN a seat that last acted before it speaks the next day THEN the death is in today’s transcript and not told again as news', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    const me = t.by('townsperson');
    const victim = t.by('townsperson', 1);
    const since = t.state.log.length;
    t.must(t.act(t.by('mafia'), victim));
    t.advanceTo('day');
    const prompt = turnContext(speakRequest(t, me, since));
    expect(prompt).toContain(`[death] ${victim.name} was killed by the Mafia`);
    expect(count(prompt.slice(prompt.indexOf('# Day 1, from its night on'), prompt.indexOf('# Players')), victim.name)).toBe(1);
    expect(prompt).not.toContain('# Since your last turn');
  });

  it('GIVEN a lynch yesterday WHEN a seat that last acted before it is asked at night THEN the day just ended is its transcript, lynch included, and the death is not told again as news', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    const me = t.by('doctor');
    t.advanceTo('day');
    const since = t.state.log.length;
    const lynched = t.by('townsperson');
    t.advanceTo('vote');
    for (const p of t.state.players.filter((p) => p.alive && p.id !== lynched.id)) t.must(t.vote(p, lynched));
    t.advanceTo('night');
    const prompt = turnContext({ ...speakRequest(t, me, since), kind: 'night' });
    expect(prompt).toContain('# Day 1, from its night on');
    expect(prompt).toContain(`[death] ${lynched.name} was lynched`);
    expect(prompt).toContain('[night] Night 2 falls.');
    expect(prompt).not.toContain('# Since your last turn');
  });

  it('GIVEN a seat with a will WHEN it is prompted THEN the will is not repeated: it is written from the facts and beliefs the prompt shows', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    t.advanceTo('day');
    const me = t.by('detective');
    t.must(engine.writeWill(t.state, { playerId: me.id, text: 'Detective. No results yet.', at: t.state.deadline! }));
    expect(turnContext(speakRequest(t, me, 0))).not.toContain('No results yet');
  });
});

describe('where a turn asks the provider to cache', () => {
  /** A day that opens with its dawn line, then `speeches` speeches. */
  function dayWith(t: TestGame, speeches: number): void {
    t.advanceTo('day');
    const speakers = t.state.players.filter((p) => p.alive);
    for (let i = 0; i < speeches; i++) t.must(t.say(speakers[i % speakers.length]!, `Point number ${i}.`));
  }

  /** The transcript lines before the breakpoint: the text up to it, from the transcript's heading on. */
  const linesBefore = (text: string, at: number) => text.slice(text.indexOf('# Day 1, from its night on'), at).split('\n').length - 2;

  it('GIVEN a seat that spoke after 5 lines of the day WHEN it votes after 5 more THEN its breakpoint stays after the 4 lines its speech cached, while a speech now would cache all 8 full ones', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    const me = t.by('townsperson');
    dayWith(t, 4);
    t.must(t.say(me, 'I listen.'));
    const spokeAt = t.state.log.at(-1)!.seq;
    for (const p of t.state.players.filter((p) => p.alive && p.id !== me.id).slice(0, 3)) t.must(t.say(p, 'More talk.'));
    t.advanceTo('vote');
    t.must(t.vote(t.by('mafia'), me));
    t.must(t.vote(t.by('doctor'), me));
    const view = engine.viewFor(t.state, me.id)!;
    const asked = { view, beliefs: {}, sinceSeq: spokeAt } as const;

    const vote = turnParts({ ...asked, kind: 'vote', targets: [], allowSkip: true });
    const speech = turnParts({ ...asked, kind: 'speak', targets: [], allowSkip: false });

    expect(linesBefore(vote.text, vote.cacheAt)).toBe(4);
    expect(linesBefore(speech.text, speech.cacheAt)).toBe(8);
    expect(vote.breaks).toContain(vote.cacheAt);
  });

  it('GIVEN a Doctor that spoke and voted WHEN it is asked its night move THEN that prompt begins with everything up to its speech’s breakpoint, byte for byte, so the night reads the day from the cache', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    const me = t.by('doctor');
    dayWith(t, 5);
    const view = engine.viewFor(t.state, me.id)!;
    const speech = turnParts({ view, beliefs: {}, kind: 'speak', targets: [], allowSkip: false });
    t.must(t.say(me, 'I listen.'));
    const spokeAt = t.state.log.at(-1)!.seq;
    t.advanceTo('vote');
    const lynched = t.by('townsperson');
    for (const p of t.state.players.filter((p) => p.alive && p.id !== lynched.id)) t.must(t.vote(p, lynched));
    t.advanceTo('night');

    const night = turnParts({
      view: engine.viewFor(t.state, me.id)!,
      beliefs: {},
      sinceSeq: spokeAt,
      kind: 'night',
      targets: [],
      allowSkip: true,
    });

    expect(night.text.slice(0, speech.cacheAt)).toBe(speech.text.slice(0, speech.cacheAt));
    expect(night.cacheAt).toBeGreaterThanOrEqual(speech.cacheAt);
    expect(night.breaks).toContain(night.cacheAt);
  });

  it('GIVEN a seat that last acted before today WHEN it gives last words THEN its breakpoint is after the earlier days only: nothing of today is written for a seat that has no later call', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    const me = t.by('townsperson');
    const since = t.state.log.at(-1)!.seq;
    dayWith(t, 6);
    const view = engine.viewFor(t.state, me.id)!;

    const last = turnParts({ view, beliefs: {}, sinceSeq: since, kind: 'last_words', targets: [], allowSkip: false });

    expect(last.cacheAt).toBe(last.breaks[0]);
    expect(last.text.slice(0, last.cacheAt)).toMatch(/# Day 1, from its night on\n$/);
  });
});

describe('words their authors withdrew', () => {
  /** A day on which a townsperson says `first` (message m1), then the seat `me` speaks. */
  function readThenSpoke() {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    t.advanceTo('day');
    const author = t.by('townsperson');
    const me = t.by('doctor');
    t.must(engine.speak(t.state, { playerId: author.id, channel: 'town', text: 'I am the Detective', ref: 'm1', at: t.at }));
    t.must(t.say(me, 'Noted.'));
    return { t, author, me, since: t.state.log.length };
  }

  it('GIVEN a seat that read a message WHEN its author edits it THEN the seat’s next turn shows only the new words, marked (edited) outside the quote, and says what changed since it read it', () => {
    const { t, author, me, since } = readThenSpoke();
    t.must(engine.editSpeech(t.state, { ref: 'm1', text: 'I am the Doctor', at: t.at }));
    const prompt = turnContext(speakRequest(t, me, since));
    expect(prompt).toContain(`<speech player="${author.name}">I am the Doctor</speech> (edited)`);
    expect(prompt).not.toContain('Detective</speech>');
    expect(prompt).toContain(`- ${author.name} edited a message you had read: it now reads as marked (edited).`);
  });

  it('GIVEN a seat that read a message WHEN its author deletes it THEN the seat’s next turn keeps none of its words, shows the placeholder where it was and tells the seat not to rely on it', () => {
    const { t, author, me, since } = readThenSpoke();
    t.must(engine.deleteSpeeches(t.state, { refs: ['m1'], at: t.at }));
    const prompt = turnContext(speakRequest(t, me, since));
    expect(prompt).not.toContain('I am the Detective');
    expect(prompt).toContain(`[deleted] ${author.name}: (a message was deleted)`);
    expect(prompt).toContain(`- ${author.name} deleted a message you had read: its words are withdrawn; do not quote or rely on them.`);
  });

  it('GIVEN a message edited before a seat first read it WHEN the seat is asked THEN it sees the mark but no news: it never read the old words', () => {
    const { t, author, me } = readThenSpoke();
    t.must(engine.editSpeech(t.state, { ref: 'm1', text: 'I am the Doctor', at: t.at }));
    const prompt = turnContext(speakRequest(t, me, t.state.log.length));
    expect(prompt).toContain(`<speech player="${author.name}">I am the Doctor</speech> (edited)`);
    expect(prompt).not.toContain('# Since your last turn');
  });
});
