import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { GameState, PlayerState, RoleId, RulesInput } from '../../src/game/index.ts';
import type { Voice } from '../../src/agents/decision.ts';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { claimedRole } from '../../src/agents/heuristic/reading.ts';
import { contradiction } from '../../src/agents/player/contradiction.ts';
import { houseSeats } from '../../src/agents/seats.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import { TestGame } from '../support/test-game.ts';
import { decisionRequest } from '../support/decision-request.ts';
import { propertyRuns } from '../support/property-size.ts';

const GAMES = propertyRuns(600);

// ── What the checks read, written independently of the brain's own reading ──

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ROLE_WORDS = engine.ROLE_IDS.join('|');
/** Every role a text claims for its speaker, present or past tense ("I'm the Detective", "I was a Townsperson"). */
const CLAIMS = new RegExp(`\\bI(?:'m|’m| am| was)(?: the| a| an)? (${ROLE_WORDS})\\b`, 'gi');

function claimsIn(text: string): RoleId[] {
  return [...text.matchAll(CLAIMS)].map((m) => m[1]!.toLowerCase() as RoleId);
}

/** The player a speech last announces a vote or lynch on ("Vote X", "my vote is heading to X", "it would be X"). */
function announced(text: string, players: readonly PlayerState[], speakerId: string): PlayerState | null {
  let found: PlayerState | null = null;
  let at = -1;
  for (const p of players) {
    if (p.id === speakerId) continue;
    const lead = '(?:\\b(?:vote|voting|lynch(?:ing)?)(?:\\s+(?:is|goes))?(?:\\s+(?:heading|going))?(?:\\s+(?:to|on|for))?|\\bwould be)';
    for (const m of text.matchAll(new RegExp(`${lead}\\s+${escape(p.name)}(?![\\p{L}\\p{N}])`, 'giu'))) {
      if (m.index > at) [found, at] = [p, m.index];
    }
  }
  return found;
}

const nameOf = (state: GameState, id: string) => engine.findPlayer(state, id)?.name ?? id;

// ── The three properties, each over one finished game's log ──

/** (a) Last words after a reveal claim no role but the one the table saw; returns how many were checked. */
function checkLastWords(state: GameState): number {
  const revealed = new Map<string, RoleId | null>();
  let checked = 0;
  for (const e of state.log) {
    if (e.type === 'player_died') revealed.set(e.payload.playerId, e.payload.role);
    if (e.type !== 'speech' || e.payload.channel !== 'last_words') continue;
    const role = revealed.get(e.payload.playerId);
    if (!role) continue;
    const claims = claimsIn(e.payload.text);
    expect(
      claims.filter((c) => c !== role),
      `${nameOf(state, e.payload.playerId)} (${role}): “${e.payload.text}”`,
    ).toEqual([]);
    expect([null, role]).toContain(claimedRole(e.payload.text));
    checked++;
  }
  return checked;
}

/** (b) Every vote said aloud passes the LLM seats' contradiction check against the vote cast. */
function checkVoteLines(state: GameState): number {
  const line = new Map<string, string>();
  let phase = '';
  let checked = 0;
  for (const e of state.log) {
    if (e.type === 'phase_started') {
      phase = e.payload.phase;
      line.clear();
    } else if (e.type === 'speech' && e.payload.channel === 'town' && phase === 'vote') {
      line.set(e.payload.playerId, e.payload.text);
    } else if (e.type === 'vote_cast') {
      const said = line.get(e.payload.voterId);
      expect(said, `vote by ${nameOf(state, e.payload.voterId)} came with no line`).toBeDefined();
      const others = state.players.filter((p) => p.id !== e.payload.voterId).map((p) => p.name);
      const decided = e.payload.targetId === 'no_lynch' ? null : nameOf(state, e.payload.targetId);
      expect(contradiction(said!, 'vote', decided, others), `“${said}” with a vote for ${decided ?? 'no lynch'}`).toBeNull();
      line.delete(e.payload.voterId);
      checked++;
    }
  }
  return checked;
}

/**
 * (c) A vote announced by day is the vote cast when its player is still a legal target, unless the
 * seat said what changed ("I said Ann, but …"); a later announcement of another player says so too.
 * A change put down to the votes is checked against the votes already cast.
 */
function checkWordKept(state: GameState): number {
  let s = engine.fold([]);
  const pledged = new Map<string, PlayerState>();
  const voteLine = new Map<string, string>();
  let kept = 0;
  for (const e of state.log) {
    if (e.type === 'phase_started' && e.payload.phase === 'day') pledged.clear();
    if (e.type === 'speech' && e.payload.channel === 'town' && s.phase === 'day') {
      const speaker = e.payload.playerId;
      const now = announced(e.payload.text, s.players, speaker);
      const before = pledged.get(speaker);
      if (now && before && now.id !== before.id && engine.findPlayer(s, before.id)?.alive) {
        expect(e.payload.text, `${nameOf(s, speaker)} moved from ${before.name} to ${now.name} unexplained`).toContain(
          `I said ${before.name}`,
        );
      }
      if (now) pledged.set(speaker, now);
    }
    if (e.type === 'speech' && e.payload.channel === 'town' && s.phase === 'vote') voteLine.set(e.payload.playerId, e.payload.text);
    if (e.type === 'vote_cast') {
      const promise = pledged.get(e.payload.voterId);
      const line = voteLine.get(e.payload.voterId) ?? '';
      if (promise && engine.voteError(s, e.payload.voterId, promise.id) === null) {
        if (e.payload.targetId === promise.id) kept++;
        else {
          expect(line, `${nameOf(s, e.payload.voterId)} said ${promise.name} by day and voted otherwise`).toContain(
            `I said ${promise.name}`,
          );
          checkChangeIsTrue(s, line, promise.id, e.payload.targetId);
        }
      }
    }
    s = engine.applyEvent(s, e);
  }
  return kept;
}

/** "the votes on Bob change that" must be true when said: Bob has more votes than the pledged player. */
function checkChangeIsTrue(state: GameState, line: string, promisedId: string, votedId: string): void {
  if (!/the votes on /.test(line)) return;
  const count = (id: string) => Object.values(state.votes).filter((t) => t === id).length;
  expect(count(votedId), line).toBeGreaterThan(count(promisedId));
}

const rulesArb: fc.Arbitrary<RulesInput> = fc.record({
  revealRoleOnDeath: fc.boolean(),
  voteMode: fc.constantFrom('plurality', 'majority'),
  allowNoLynch: fc.boolean(),
  nightOneKill: fc.boolean(),
});

/** Persona phrases that would break the rules if the brain said them as they are. */
const LOUD_VOICES: readonly Voice[] = [
  { name: 'Loud', phrases: ['Lynch Ada!', 'I vote Basil, always.', "I'm the Doctor, trust me."] },
  { name: 'Plain', phrases: ['Steady on.'] },
];

async function play(seed: number, players: number, rules: RulesInput, loud: boolean) {
  const seats = houseSeats(players, loud ? (voice) => heuristicBrain(LOUD_VOICES[voice.name.length % 2]) : heuristicBrain);
  const result = await playHeadless({ gameId: `word-${seed}`, seed, seats, settings: { rules } });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('property: the offline brain says what it does and what is public', () => {
  it(`GIVEN ${GAMES} seeded all-AI games (5–16 seats, roles revealed or not, loud persona phrases or not) WHEN played out THEN last words after a reveal claim no other role, every vote line passes the contradiction check, and a vote announced by day is cast unless the seat says what changed`, async () => {
    let lastWords = 0;
    let votes = 0;
    let kept = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 5, max: 16 }),
        rulesArb,
        fc.boolean(),
        async (seed, players, rules, loud) => {
          const state = await play(seed, players, rules, loud);
          lastWords += checkLastWords(state);
          votes += checkVoteLines(state);
          kept += checkWordKept(state);
        },
      ),
      { numRuns: GAMES },
    );
    // The properties were exercised, not vacuously true.
    expect(lastWords).toBeGreaterThan(GAMES / 6);
    expect(votes).toBeGreaterThan(GAMES * 5);
    expect(kept).toBeGreaterThan(GAMES / 6);
  }, 120_000);
});

// ── Single situations ──

const brain = heuristicBrain({ name: 'Test', phrases: ['Elementary.'] });
const NINE = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson', 'townsperson', 'townsperson'] as const;

const request = decisionRequest;

/** Everyone else votes `target` out; the game moves to its last words. */
function lynch(t: TestGame, target: PlayerState): void {
  t.advanceTo('vote');
  for (const p of t.state.players) if (p.alive && p.id !== target.id) t.must(t.vote(p, target));
  t.must(t.vote(target, 'no_lynch'));
  expect(t.state.phase).toBe('last_words');
}

describe('the offline brain keeps to public facts', () => {
  it('GIVEN roles are revealed on death WHEN a lynched Mafia member gives last words THEN it speaks as Mafia and names no teammate', () => {
    for (let seed = 0; seed < 20; seed++) {
      const t = TestGame.started([...NINE], {}, seed);
      const [mafia, partner] = [t.by('mafia', 0), t.by('mafia', 1)];
      lynch(t, mafia);
      const words = brain(request(t, mafia.id, 'last_words'), engine.createRng(seed)).speech!;
      expect(claimsIn(words)).toEqual([]);
      expect(words).toContain('Mafia');
      expect(words).not.toContain(partner.name);
    }
  });

  it('GIVEN roles stay hidden on death WHEN a lynched Mafia member gives last words THEN it may keep its cover story', () => {
    const t = TestGame.started([...NINE], { revealRoleOnDeath: false });
    const mafia = t.by('mafia', 0);
    lynch(t, mafia);
    expect(claimedRole(brain(request(t, mafia.id, 'last_words'), engine.createRng(1)).speech!)).toBe('townsperson');
  });

  it('GIVEN a seat said "Vote X" today and nothing changed WHEN it votes THEN it votes X and says so', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    const [me, x] = [t.by('townsperson', 0), t.by('townsperson', 3)];
    t.must(t.say(me, `Something is off about ${x.name}. Vote ${x.name}.`));
    t.advanceTo('vote');
    for (let seed = 0; seed < 10; seed++) {
      const vote = brain(request(t, me.id, 'vote'), engine.createRng(seed));
      expect(vote.targetId).toBe(x.id);
      expect(vote.speech).toContain(x.name);
      expect(
        contradiction(
          vote.speech!,
          'vote',
          x.name,
          t.state.players.filter((p) => p.id !== me.id).map((p) => p.name),
        ),
      ).toBeNull();
    }
  });

  it('GIVEN a seat said "Vote X" and then a Detective claimed Y is Mafia WHEN it votes Y THEN its line says the claim changed its vote', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    const [me, x, detective, y] = [t.by('townsperson', 0), t.by('townsperson', 3), t.by('detective'), t.by('mafia', 1)];
    t.must(t.say(me, `My vote is heading to ${x.name}.`));
    t.must(t.say(detective, `I'm the Detective. Night 1: ${y.name} is Mafia.`));
    t.advanceTo('vote');
    const vote = brain(request(t, me.id, 'vote'), engine.createRng(4));
    expect(vote.targetId).toBe(y.id);
    expect(vote.speech).toContain(`I said ${x.name}, but ${detective.name}'s claim changes that`);
    expect(vote.speech).toContain(y.name);
  });

  it('GIVEN a seat said "Vote X" today WHEN it speaks again with nothing new THEN it does not announce anyone else', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    const [me, x] = [t.by('townsperson', 0), t.by('townsperson', 3)];
    t.must(t.say(me, `If I had to vote right now it would be ${x.name}.`));
    for (let seed = 0; seed < 20; seed++) {
      const speech = brain(request(t, me.id, 'speak'), engine.createRng(seed)).speech!;
      expect([null, x.id]).toContain(announced(speech, t.state.players, me.id)?.id ?? null);
    }
  });

  it('GIVEN a persona phrase that announces a vote or claims a role WHEN the brain speaks and votes THEN the phrase is never said', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    const [me, other] = [t.by('townsperson', 2), t.by('townsperson', 4)];
    const loud = heuristicBrain({ name: 'Loud', phrases: [`Lynch ${other.name}!`, "I'm the Doctor."] });
    const said = new RegExp(`Lynch ${other.name}|Doctor`);
    for (let seed = 0; seed < 30; seed++) expect(loud(request(t, me.id, 'speak'), engine.createRng(seed)).speech).not.toMatch(said);
    t.advanceTo('vote');
    for (let seed = 0; seed < 30; seed++) expect(loud(request(t, me.id, 'vote'), engine.createRng(seed)).speech).not.toMatch(said);
  });
});
