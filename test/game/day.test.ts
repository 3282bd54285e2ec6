import { describe, expect, it } from 'vitest';
import { countVotes, depart, legalVoteTargets, narrate, unvote, writeWill } from '../../src/game/index.ts';
import { TestGame } from '../support/test-game.ts';

const SEVEN = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;

/** A seven-player game brought to the day-1 vote with nobody dead. */
function atVote(rules = {}) {
  const t = TestGame.started([...SEVEN], { lastWordsSeconds: 0, ...rules });
  t.advanceTo('vote');
  return t;
}

describe('voting', () => {
  it('GIVEN the vote WHEN a player votes twice THEN the second vote replaces the first', () => {
    const t = atVote();
    const voter = t.by('townsperson');
    t.must(t.vote(voter, t.by('mafia')));
    t.must(t.vote(voter, t.by('doctor')));
    expect(t.state.votes[voter.id]).toBe(t.by('doctor').id);
    expect(countVotes(t.state).tally).toEqual([{ targetId: t.by('doctor').id, voters: [voter.id] }]);
  });

  it('GIVEN a cast vote WHEN the voter votes for the same player again (a double click) THEN nothing is recorded and the vote stands', () => {
    const t = atVote();
    const voter = t.by('townsperson');
    t.must(t.vote(voter, t.by('mafia')));
    const before = t.state;
    expect(t.must(t.vote(voter, t.by('mafia')))).toEqual([]);
    expect(t.state).toBe(before);
    expect(t.events('vote_cast')).toHaveLength(1);
  });

  it('GIVEN a cast vote WHEN the voter withdraws it THEN it no longer counts', () => {
    const t = atVote();
    const voter = t.by('townsperson');
    t.must(t.vote(voter, t.by('mafia')));
    t.must(unvote(t.state, { voterId: voter.id, at: t.at }));
    expect(t.state.votes).toEqual({});
  });

  it('GIVEN plurality voting WHEN everyone has voted THEN the vote resolves at once and the top player is lynched', () => {
    const t = atVote();
    const target = t.by('mafia', 0);
    for (const p of t.state.players) if (p.id !== target.id) t.must(t.vote(p, target));
    expect(t.state.phase).toBe('vote');
    t.must(t.vote(target, t.by('doctor')));
    const resolved = t.events('vote_resolved')[0]!.payload;
    expect(resolved).toMatchObject({ lynchedId: target.id, reason: 'plurality' });
    expect(t.player(target.id).death).toEqual({ cause: 'lynch', day: 1 });
    expect(t.state.phase).toBe('night');
  });

  it('GIVEN plurality voting WHEN the top two tie THEN nobody is lynched', () => {
    const t = atVote();
    t.must(t.vote(t.by('townsperson', 0), t.by('mafia', 0)));
    t.must(t.vote(t.by('townsperson', 1), t.by('mafia', 1)));
    t.advance();
    expect(t.events('vote_resolved')[0]!.payload).toMatchObject({ lynchedId: null, reason: 'tie' });
  });

  it('GIVEN majority voting WHEN the top player has under half the living THEN nobody is lynched; with more than half they are', () => {
    const t = atVote({ voteMode: 'majority' });
    const target = t.by('mafia', 0);
    const others = t.state.players.filter((p) => p.id !== target.id);
    others.slice(0, 3).forEach((p) => t.must(t.vote(p, target)));
    t.advance();
    expect(t.events('vote_resolved')[0]!.payload.reason).toBe('no_majority');

    const u = atVote({ voteMode: 'majority' });
    const v = u.by('mafia', 0);
    u.state.players
      .filter((p) => p.id !== v.id)
      .slice(0, 4)
      .forEach((p) => u.must(u.vote(p, v)));
    u.advance();
    expect(u.events('vote_resolved')[0]!.payload).toMatchObject({ lynchedId: v.id, reason: 'majority' });
  });

  it('GIVEN "no lynch" is allowed WHEN it gets the most votes THEN nobody is lynched; when the switch is off it is refused', () => {
    const t = atVote();
    t.must(t.vote(t.by('townsperson', 0), 'no_lynch'));
    t.must(t.vote(t.by('townsperson', 1), 'no_lynch'));
    t.must(t.vote(t.by('doctor'), t.by('mafia')));
    t.advance();
    expect(t.events('vote_resolved')[0]!.payload).toMatchObject({ lynchedId: null, reason: 'no_lynch' });

    const off = atVote({ allowNoLynch: false });
    expect(off.refuse(off.vote(off.by('doctor'), 'no_lynch')).code).toBe('rule_disabled');
  });

  it('GIVEN nobody votes WHEN the vote deadline passes THEN missing votes count as abstentions and the night begins', () => {
    const t = atVote();
    t.advance();
    expect(t.events('vote_resolved')[0]!.payload).toMatchObject({ lynchedId: null, reason: 'no_votes', tally: [] });
    expect(t.state.phase).toBe('night');
    expect(t.state.day).toBe(2);
  });

  it('GIVEN the Jester WHEN the town lynches them THEN the Jester win is recorded and the game goes on', () => {
    const t = TestGame.started(['mafia', 'mafia', 'jester', 'doctor', 'townsperson', 'townsperson', 'townsperson', 'detective']);
    t.advanceTo('vote');
    const jester = t.by('jester');
    for (const p of t.state.players) if (p.id !== jester.id) t.must(t.vote(p, jester));
    t.advance();
    expect(t.events('jester_won').map((e) => e.payload.playerId)).toEqual([jester.id]);
    expect(t.state.jesterWinners).toEqual([jester.id]);
    expect(t.state.phase).not.toBe('ended');
  });

  describe('vote errors leave the game unchanged', () => {
    it('GIVEN it is day discussion WHEN someone votes THEN it is refused as outside the vote', () => {
      const t = TestGame.started([...SEVEN]);
      t.advanceTo('day');
      const before = t.state;
      expect(t.refuse(t.vote(t.by('doctor'), t.by('mafia'))).code).toBe('wrong_phase');
      expect(t.state).toBe(before);
    });

    it('GIVEN the vote WHEN a voter picks themself, a dead or an unknown player, or is not in the game THEN each is refused', () => {
      const t = TestGame.started([...SEVEN], { lastWordsSeconds: 0 });
      const victim = t.by('townsperson', 2);
      t.must(t.act(t.by('mafia', 0), victim));
      t.must(t.act(t.by('mafia', 1), victim));
      t.advanceTo('vote');
      const before = t.state;
      expect(t.refuse(t.vote(t.by('doctor'), t.by('doctor'))).code).toBe('self_target');
      expect(t.refuse(t.vote(t.by('doctor'), victim)).code).toBe('dead_target');
      expect(t.refuse(t.vote(victim, t.by('mafia'))).code).toBe('dead');
      expect(t.refuse(t.vote(t.by('doctor'), { ...victim, id: 'ghost' })).code).toBe('unknown_target');
      expect(t.refuse(t.vote({ ...victim, id: 'stranger' }, t.by('mafia'))).code).toBe('not_in_game');
      expect(t.state).toBe(before);
      expect(legalVoteTargets(t.state, t.by('doctor').id).map((p) => p.id)).not.toContain(victim.id);
    });
  });
});

describe('speech, wills and last words', () => {
  it('GIVEN the night WHEN a townsperson talks in town THEN it is refused; the Mafia may talk in their channel', () => {
    const t = TestGame.started([...SEVEN]);
    expect(t.refuse(t.say(t.by('townsperson'), 'hello')).code).toBe('wrong_phase');
    const events = t.must(t.say(t.by('mafia'), 'kill the doctor', 'mafia'));
    expect(events[0]!.visibility).toEqual({ kind: 'team', team: 'mafia' });
    expect(t.refuse(t.say(t.by('townsperson'), 'let me in', 'mafia')).code).toBe('not_in_game');
  });

  it('GIVEN the day WHEN a player speaks empty or oversize text THEN it is refused with the limit named', () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('day');
    expect(t.refuse(t.say(t.by('doctor'), '   ')).code).toBe('bad_text');
    expect(t.refuse(t.say(t.by('doctor'), 'x'.repeat(2001))).message).toMatch(/2001 characters; the limit is 2000/);
    t.must(t.say(t.by('doctor'), '  I trust nobody.  '));
    expect(t.events('speech')[0]!.payload.text).toBe('I trust nobody.');
  });

  it('GIVEN a dead player WHEN they speak THEN they are told the dead do not speak', () => {
    const t = TestGame.started([...SEVEN]);
    const victim = t.by('doctor');
    t.must(t.act(t.by('mafia', 0), victim));
    t.must(t.act(t.by('mafia', 1), victim));
    t.advanceTo('day');
    expect(t.refuse(t.say(victim, 'I was the doctor!')).code).toBe('dead');
  });

  it('GIVEN a will WHEN its writer dies THEN the will is read out with the death; with wills off it is refused', () => {
    const t = TestGame.started([...SEVEN]);
    const victim = t.by('detective');
    t.must(writeWill(t.state, { playerId: victim.id, text: 'Checked nobody yet.', at: t.at }));
    expect(t.events('will_written')[0]!.visibility).toEqual({ kind: 'player', playerId: victim.id });
    t.must(t.act(t.by('mafia', 0), victim));
    t.must(t.act(t.by('mafia', 1), victim));
    t.advance();
    expect(t.events('player_died')[0]!.payload.will).toBe('Checked nobody yet.');

    const off = TestGame.started([...SEVEN], { lastWills: false });
    expect(off.refuse(writeWill(off.state, { playerId: off.by('doctor').id, text: 'x', at: 0 })).code).toBe('rule_disabled');
  });

  it('GIVEN roles are not revealed on death WHEN a player dies THEN the death carries no role', () => {
    const t = TestGame.started([...SEVEN], { revealRoleOnDeath: false });
    const victim = t.by('doctor');
    t.must(t.act(t.by('mafia', 0), victim));
    t.must(t.act(t.by('mafia', 1), victim));
    t.advance();
    expect(t.events('player_died')[0]!.payload.role).toBeNull();
  });

  it('GIVEN a lynch WHEN last words begin THEN only the lynched may speak, and the night follows the deadline', () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('vote');
    const lynched = t.by('townsperson');
    for (const p of t.state.players) if (p.id !== lynched.id) t.must(t.vote(p, lynched));
    t.advance();
    expect(t.state.phase).toBe('last_words');
    t.must(t.say(lynched, 'I was innocent!', 'last_words'));
    expect(t.refuse(t.say(t.by('doctor'), 'Sure you were.', 'last_words')).code).toBe('wrong_phase');
    expect(t.refuse(t.say(t.by('doctor'), 'Sure you were.')).code).toBe('wrong_phase');
    t.advance();
    expect(t.state.phase).toBe('night');
  });
});

describe('what a person may say in a phase', () => {
  it('GIVEN a limit of 2 messages a phase WHEN a person says a third THEN it is refused as over the limit and not stored; the next phase starts afresh', () => {
    const t = TestGame.started([...SEVEN], { chatMessages: 2 });
    t.advanceTo('day');
    const talker = t.by('townsperson');
    t.must(t.say(talker, 'one'));
    t.must(t.say(talker, 'two'));
    const before = t.state;
    expect(t.refuse(t.say(talker, 'three')).code).toBe('chat_limit');
    expect(t.state).toBe(before);
    t.must(t.say(t.by('doctor'), 'others still speak'));
    t.advanceTo('vote');
    t.must(t.say(talker, 'a new phase'));
  });

  it('GIVEN a limit of 300 characters a phase WHEN a person goes past it THEN the message that would cross it is refused', () => {
    const t = TestGame.started([...SEVEN], { chatCharacters: 300 });
    t.advanceTo('day');
    const talker = t.by('townsperson');
    t.must(t.say(talker, 'a'.repeat(250)));
    expect(t.refuse(t.say(talker, 'b'.repeat(60))).code).toBe('chat_limit');
    t.must(t.say(talker, 'c'.repeat(50)));
  });
});

describe('a person who left the server', () => {
  it('GIVEN a running game WHEN a person departs THEN they die as "left" with their role shown even when roles stay hidden; departing twice or in the lobby is refused', () => {
    const t = TestGame.started([...SEVEN], { revealRoleOnDeath: false });
    const doctor = t.by('doctor');
    t.must(depart(t.state, { playerId: doctor.id, at: t.at }));
    expect(t.events('player_died').at(-1)?.payload).toMatchObject({ playerId: doctor.id, cause: 'left', role: 'doctor' });
    expect(t.refuse(depart(t.state, { playerId: doctor.id, at: t.at })).code).toBe('dead');
    const lobby = TestGame.lobby(3);
    expect(lobby.refuse(depart(lobby.state, { playerId: 'p1', at: lobby.at })).code).toBe('wrong_phase');
  });

  it('GIVEN the host chose that an AI plays on WHEN a person departs THEN the seat stays alive with its role and vote, now an AI, and nothing about it is revealed', () => {
    const t = TestGame.started([...SEVEN], { leaverSeat: 'ai' });
    t.advanceTo('vote');
    const doctor = t.by('doctor');
    const target = t.by('mafia');
    t.must(t.vote(doctor, target));
    t.must(depart(t.state, { playerId: doctor.id, at: t.at }));
    const seat = t.state.players.find((p) => p.id === doctor.id)!;
    expect(seat).toMatchObject({ kind: 'ai', userId: null, alive: true, role: 'doctor', name: doctor.name });
    expect(t.state.votes[doctor.id]).toBe(target.id);
    expect(t.events('player_died')).toHaveLength(0);
    const told = t.events('seat_taken_over').at(-1)!;
    expect(told.visibility).toEqual({ kind: 'public' });
    expect(narrate(t.state, told)).toBe(`🤖 ${doctor.name} left the server; an AI plays on in their seat.`);
    expect(t.refuse(depart(t.state, { playerId: doctor.id, at: t.at })).code).toBe('not_in_game');
  });
});
