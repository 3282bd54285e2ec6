import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { GameEvent, GameState } from '../../src/game/index.ts';
import { decisionLines } from '../../src/report/decision-lines.ts';
import { replayModel, type ReplayModel } from '../../src/report/replay-model.ts';
import { namesARole } from '../../src/report/replay-spoilers.ts';
import { TestGame } from '../support/test-game.ts';
import { finishedGame, silent, TOOL_CALLS, withTools } from './finished-game.ts';

type Entry = ReplayModel['entries'][number];
type Turn = Extract<Entry, { kind: 'turn' }>;

/** The log positions an entry shows, in the order the page shows them. */
const seqsOf = (entry: Entry): number[] =>
  entry.kind === 'phase' ? [entry.seq] : entry.kind === 'event' ? [entry.line.seq] : entry.lines.map((l) => l.seq);

const turns = (model: ReplayModel): Turn[] => model.entries.filter((e): e is Turn => e.kind === 'turn');

function mustModel(state: GameState): ReplayModel {
  const model = replayModel(state, 'Test table');
  if (!model) throw new Error('the game has not ended');
  return model;
}

const byseq = (state: GameState, seq: number): GameEvent => state.log.find((e) => e.seq === seq)!;

describe('the replay model of a finished 16-player all-AI game', async () => {
  const state = await finishedGame(16, 3);
  const model = mustModel(state);
  const name = (id: string) => engine.findPlayer(state, id)?.name ?? id;

  it('GIVEN the log WHEN the model is built THEN every told event appears exactly once, in log order, and every public one is told', () => {
    const shown = model.entries.flatMap(seqsOf);
    const untold = new Set(['game_created', 'player_joined', 'role_assigned', 'mafia_team', 'reasoning']);
    const told = state.log.filter((e) => !untold.has(e.type) && (e.type === 'phase_started' || engine.narrate(state, e) !== null));
    expect(shown).toEqual(told.map((e) => e.seq));
    const publicLines = state.log.filter((e) => e.visibility.kind === 'public' && !untold.has(e.type) && engine.narrate(state, e) !== null);
    expect(publicLines.length).toBeGreaterThan(100);
    for (const e of publicLines) expect(shown).toContain(e.seq);
  });

  it('GIVEN AI seats WHEN their lines are shown THEN each speech and vote has beside it the reasoning of the same seat for that decision', () => {
    const aiLines = turns(model).filter((t) => t.lines.some((l) => l.tone === 'speech' || l.tone === 'vote'));
    expect(aiLines.length).toBeGreaterThan(100);
    for (const turn of aiLines) {
      const reasoning = byseq(state, turn.mind!.seq);
      expect(reasoning).toMatchObject({ type: 'reasoning', payload: { playerId: turn.playerId } });
      for (const line of turn.lines) {
        expect(engine.narrate(state, byseq(state, line.seq))).toContain(name(turn.playerId));
        expect(line.seq).toBeLessThan(turn.mind!.seq);
      }
      const vote = turn.lines.map((l) => byseq(state, l.seq)).find((e) => e.type === 'vote_cast');
      if (vote?.type === 'vote_cast') {
        const target = vote.payload.targetId === 'no_lynch' ? 'no lynch' : name(vote.payload.targetId);
        expect(turn.mind).toMatchObject({ decision: `vote → ${target}`, phase: 'vote' });
      } else expect(turn.mind!.decision).toMatch(/^(speech|speech, nominates → .+|defense|last words)$/);
    }
  });

  it('GIVEN the vote that closes each day WHEN shown THEN its reasoning, logged after the tally, the death and the next phase, is the one beside it', () => {
    const closing = state.log.filter((e) => e.type === 'vote_resolved');
    expect(closing.length).toBeGreaterThan(1);
    for (const resolved of closing) {
      const lastVote = state.log.findLast((e) => e.type === 'vote_cast' && e.seq < resolved.seq)!;
      const turn = turns(model).find((t) => t.lines.some((l) => l.seq === lastVote.seq))!;
      expect(turn.mind!.seq).toBeGreaterThan(resolved.seq);
      expect(turn.lines.map((l) => l.seq)).toContain(lastVote.seq);
      // The tally still reads after the vote that made it.
      const order = model.entries.flatMap(seqsOf);
      expect(order.indexOf(resolved.seq)).toBeGreaterThan(order.indexOf(lastVote.seq));
    }
  });

  it('GIVEN the roster WHEN built THEN each player has their role and faction in the data, and the night moves are marked secret', () => {
    expect(model.players).toHaveLength(16);
    for (const p of state.players) {
      const role = engine.getRole(p.role!);
      expect(model.players.find((m) => m.id === p.id)).toMatchObject({ name: p.name, role: { name: role.name, faction: role.faction } });
    }
    const secret = model.entries.filter((e) => e.kind !== 'phase' && e.secret);
    expect(secret.length).toBeGreaterThan(0);
    for (const entry of model.entries) {
      if (entry.kind === 'phase') continue;
      const events = seqsOf(entry).map((s) => byseq(state, s));
      const hidden =
        events.some((e) => e.visibility.kind !== 'public') ||
        (events.length === 0 && entry.kind === 'turn' && entry.mind?.phase === 'night');
      expect(entry.secret, `entry ${JSON.stringify(entry).slice(0, 120)}`).toBe(hidden);
    }
  });

  it('GIVEN a seat’s beliefs WHEN shown THEN its reads come most suspected first, as the seat recorded them', () => {
    const minds = turns(model).flatMap((t) => (t.mind ? [t.mind] : []));
    const withReads = minds.filter((m) => m.suspicion.length > 0);
    expect(withReads.length).toBeGreaterThan(100);
    for (const mind of withReads) {
      const recorded = byseq(state, mind.seq);
      if (recorded.type !== 'reasoning') throw new Error('not a reasoning event');
      expect(Object.fromEntries(mind.suspicion)).toEqual(recorded.payload.suspicion);
      const values = mind.suspicion.map(([, value]) => value);
      expect(values).toEqual([...values].sort((a, b) => b - a));
    }
  });
});

describe('thoughts that give a role away', async () => {
  const state = await finishedGame(16, 3);
  const model = mustModel(state);
  const names = state.players.map((p) => p.name);
  const minds = turns(model).flatMap((t) => (t.mind ? [{ seat: engine.findPlayer(state, t.playerId)!, mind: t.mind }] : []));
  /** Words naming a role or a side, with the players' names taken out first. */
  const ROLE_WORDS = /\b(mafia|town|team|detective|doctor|godfather|jester|vigilante)/i;
  const unnamed = (text: string) => names.reduce((rest, name) => rest.split(name).join(' '), text);

  it('GIVEN reads like "Hercule Poirot 1.00 (known Mafia)" WHEN the model is built THEN every mind that names a role or a side is a spoiler, and every other names none', () => {
    const known = minds.filter(({ mind }) => /\d\.\d{2} \(known \w+\)/.test(mind.text));
    expect(known.length).toBeGreaterThan(10);
    for (const { mind } of known) expect(mind.spoiler, mind.text).toBe(true);
    const shown = minds.filter(({ mind }) => !mind.spoiler);
    // Thoughts that name no role stay (the first day's, before anyone has claimed or died).
    expect(shown.filter(({ mind }) => mind.phase !== 'night').length).toBeGreaterThan(0);
    for (const { mind } of shown)
      for (const text of [mind.text, mind.decision, ...mind.tools.flatMap((t) => [t.input, t.output])])
        expect(unnamed(text), text).not.toMatch(ROLE_WORDS);
  });

  it('GIVEN a Mafia seat whose teammate lives WHEN its mind reads the teammate THEN it is a spoiler, whatever its words', () => {
    const team = new Set(state.players.filter((p) => engine.isMafia(p.role)).map((p) => p.id));
    const alive = (id: string, seq: number) => !state.log.some((e) => e.type === 'player_died' && e.payload.playerId === id && e.seq < seq);
    const readingTeammates = minds.filter(
      ({ seat, mind }) => team.has(seat.id) && mind.suspicion.some(([id]) => id !== seat.id && team.has(id) && alive(id, mind.seq)),
    );
    expect(readingTeammates.length).toBeGreaterThan(10);
    for (const { mind } of readingTeammates) expect(mind.spoiler).toBe(true);
  });

  it('GIVEN texts with role words and names that hold one WHEN checked THEN only the words of the text count, not a name', () => {
    expect(namesARole('Vote. Reads: Hercule Poirot 1.00 (known Mafia); Ada 0.40.', ['Hercule Poirot', 'Ada'])).toBe(true);
    expect(namesARole('pile onto a town player, never a teammate', [])).toBe(true);
    expect(namesARole('Speak. Reads: Doctor Watson 0.45 (no information yet). → gut read on Doctor Watson.', ['Doctor Watson'])).toBe(
      false,
    );
    expect(namesARole('deflect onto Greta.', ['Greta'])).toBe(false);
  });
});

describe('what a Detective learned at night', () => {
  it('GIVEN a Detective who investigated a player WHEN its day thoughts read that player THEN they are a spoiler, a Townsperson’s same read is not, and once the role is public neither is', () => {
    const g = TestGame.started(['mafia', 'detective', 'townsperson', 'townsperson', 'doctor']);
    const [M, Det, T1, T2, Doc] = ['mafia', 'detective', 'townsperson', 'townsperson', 'doctor'].map((r, i) =>
      g.by(r as engine.RoleId, r === 'townsperson' && i === 3 ? 1 : 0),
    ) as [engine.PlayerState, engine.PlayerState, engine.PlayerState, engine.PlayerState, engine.PlayerState];
    const think = (seat: engine.PlayerState, suspicion: Record<string, number>) =>
      g.must(
        engine.recordReasoning(g.state, {
          playerId: seat.id,
          decision: 'vote',
          text: 'gut read.',
          at: g.at,
          phase: 'vote',
          day: g.state.day,
          suspicion,
        }),
      )[0]!.seq;
    g.must(g.act(Det, T1));
    g.advanceTo('vote');
    const detective = think(Det, { [T1.id]: 0, [M.id]: 0.5 });
    const townsperson = think(T2, { [T1.id]: 0, [M.id]: 0.5 });
    for (const voter of [M, Det, T2, Doc]) g.must(g.vote(voter, T1));
    g.must(g.vote(T1, M));
    g.advanceTo('vote');
    const afterReveal = think(Det, { [T1.id]: 0, [M.id]: 0.9 });
    for (const voter of [Det, T2, Doc]) g.must(g.vote(voter, M));
    g.must(g.vote(M, Det));
    expect(g.state.outcome).toEqual({ kind: 'win', faction: 'town' });
    expect(g.state.log.some((e) => e.type === 'player_died' && e.payload.playerId === T1.id && e.payload.role === 'townsperson')).toBe(
      true,
    );

    const spoiler = (seq: number) => turns(mustModel(g.state)).find((t) => t.mind?.seq === seq)!.mind!.spoiler;
    expect([spoiler(detective), spoiler(townsperson), spoiler(afterReveal)]).toEqual([true, false, false]);
  });
});

describe('a seat that calls tools and a seat that keeps quiet', async () => {
  const state = await finishedGame(8, 5, { 0: { brain: withTools }, 1: { brain: silent } });
  const model = mustModel(state);
  const [thinker, quiet] = state.players;

  it('GIVEN a seat whose model called tools WHEN its decisions are shown THEN each one lists the calls with their input and output', () => {
    const asked = turns(model).filter((t) => t.playerId === thinker!.id && t.mind && t.mind.tools.length > 0);
    expect(asked.length).toBeGreaterThan(2);
    for (const turn of asked) expect(turn.mind!.tools).toEqual(TOOL_CALLS);
  });

  it('GIVEN a seat that says nothing WHEN its speaking turns are shown THEN each is a thought on its own, never glued to a line before it', () => {
    const mine = turns(model).filter((t) => t.playerId === quiet!.id && t.mind);
    const thoughts = mine.filter((t) => t.lines.length === 0);
    expect(thoughts.length).toBeGreaterThan(0);
    for (const t of thoughts) expect(t.mind!.decision).toMatch(/^(speech|last words)$/);
    for (const t of mine) for (const line of t.lines) expect(line.tone).not.toBe('speech');
    const votes = mine.filter((t) => t.lines.some((l) => l.tone === 'vote'));
    for (const t of votes) expect(t.lines).toHaveLength(1);
  });
});

describe('linking a decision to its lines', () => {
  const reasoning = (liveGame: TestGame, playerId: string, outcome: engine.ReasoningOutcome = 'counted') =>
    liveGame.must(engine.recordReasoning(liveGame.state, { playerId, decision: 'd', text: 't', at: liveGame.at, outcome }))[0]!.seq;

  it('GIVEN a seat’s own speech right before a decision that did not count WHEN linked THEN the late or refused decision claims no line', () => {
    const liveGame = TestGame.started(['mafia', 'doctor', 'townsperson', 'townsperson', 'townsperson']);
    liveGame.advanceTo('day');
    const speaker = liveGame.state.players[2]!;
    const speech = liveGame.must(liveGame.say(speaker, 'Hello.'))[0]!.seq;
    const counted = reasoning(liveGame, speaker.id);
    liveGame.must(liveGame.say(speaker, 'Again.'));
    const refused = reasoning(liveGame, speaker.id, 'refused');
    const links = decisionLines(liveGame.state.log);
    expect(links.get(counted)).toEqual([speech]);
    expect(links.get(refused)).toEqual([]);
  });

  it('GIVEN another seat’s line right before a decision WHEN linked THEN it stays that seat’s line', () => {
    const liveGame = TestGame.started(['mafia', 'doctor', 'townsperson', 'townsperson', 'townsperson']);
    liveGame.advanceTo('day');
    const [a, b] = [liveGame.state.players[2]!, liveGame.state.players[3]!];
    liveGame.must(liveGame.say(a, 'Hello.'));
    const thought = reasoning(liveGame, b.id);
    expect(decisionLines(liveGame.state.log).get(thought)).toEqual([]);
  });

  it('GIVEN a vote that closes the day WHEN linked THEN words and vote are the decision’s lines, past the tally and the death it set off', () => {
    const liveGame = TestGame.started(['mafia', 'doctor', 'townsperson', 'townsperson', 'townsperson'], { lastWordsSeconds: 0 });
    liveGame.advanceTo('vote');
    const [first, ...rest] = liveGame.state.players;
    const target = first!;
    // The day ends when the last living player votes.
    for (const voter of rest.slice(0, -1)) liveGame.must(liveGame.vote(voter, target));
    const last = rest.at(-1)!;
    liveGame.must(liveGame.vote(first!, last));
    const words = liveGame.must(liveGame.say(last, 'Enough.'))[0]!.seq;
    const events = liveGame.must(liveGame.vote(last, target));
    expect(events.map((e) => e.type)).toContain('vote_resolved');
    const decision = reasoning(liveGame, last.id);
    expect(decisionLines(liveGame.state.log).get(decision)).toEqual([words, events[0]!.seq]);
  });
});

describe('the replay of what is said at dawn', () => {
  it('GIVEN dawn 1 (the channel announces day 1 with it) WHEN Bob speaks then and the game ends THEN his words stand under the heading "Day 1"', () => {
    const t = TestGame.seated(
      ['Ann', 'Bob', 'Cat', 'Dan'].map((name) => ({ name, kind: 'human' as const })),
      ['mafia', 'townsperson', 'townsperson', 'townsperson'],
    );
    t.must(t.act(t.by('mafia'), t.by('townsperson', 0)));
    expect(t.state.phase).toBe('dawn');
    const bob = t.state.players.find((p) => p.name === 'Bob')!;
    const said = t.must(t.say(bob, 'Good morning.'))[0]!;
    t.advanceTo('vote');
    t.advanceTo('night');
    t.must(t.act(t.by('mafia'), t.by('townsperson', 1)));
    expect(t.state.phase).toBe('ended');

    const entries = mustModel(t.state).entries;
    const at = entries.findIndex((e) => seqsOf(e).includes(said.seq));
    const heading = entries.slice(0, at).findLast((e) => e.kind === 'phase');
    expect(heading).toMatchObject({ phase: 'dawn', title: 'Day 1' });
  });
});
