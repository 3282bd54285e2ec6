import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { GameState, PlayerState, RoleId, RulesInput } from '../../src/game/index.ts';
import type { DecisionKind, DecisionRequest, Voice } from '../../src/agents/decision.ts';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { claimedRole } from '../../src/agents/heuristic/reading.ts';
import { houseSeats } from '../../src/agents/seats.ts';
import { playGame } from '../../src/agents/table.ts';
import { Table } from '../support/game-table.ts';

// ── What the checks read, written independently of the brain's own reading ──

const ROLE_WORDS = engine.ROLE_IDS.join('|');
/** Every role a text claims for its speaker, present or past tense ("I'm the Detective", "I was a Townsperson"). */
const CLAIMS = new RegExp(`\\bI(?:'m|’m| am| was)(?: the| a| an)? (${ROLE_WORDS})\\b`, 'gi');

function claimsIn(text: string): RoleId[] {
  return [...text.matchAll(CLAIMS)].map((m) => m[1]!.toLowerCase() as RoleId);
}

const nameOf = (state: GameState, id: string) => engine.findPlayer(state, id)?.name ?? id;

// ── The property, over one finished game's log ──

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
    expect(claims.filter((c) => c !== role), `${nameOf(state, e.payload.playerId)} (${role}): “${e.payload.text}”`).toEqual([]);
    expect([null, role]).toContain(claimedRole(e.payload.text));
    checked++;
  }
  return checked;
}

const rulesArb: fc.Arbitrary<RulesInput> = fc.record({
  revealRoleOnDeath: fc.boolean(),
  voteMode: fc.constantFrom('plurality', 'majority'),
  allowNoLynch: fc.boolean(),
  nightOneKill: fc.boolean(),
});

/** Persona phrases that would break the rules if the brain said them as they are. */
const LOUD_VOICES: readonly Voice[] = [
  { name: 'Loud', phrases: ["I'm the Doctor, trust me."] },
  { name: 'Plain', phrases: ['Steady on.'] },
];

async function play(seed: number, players: number, rules: RulesInput, voting: 'parallel' | 'sequential', loud: boolean) {
  const seats = houseSeats(players, loud ? (voice) => heuristicBrain(LOUD_VOICES[voice.name.length % 2]) : heuristicBrain);
  const result = await playGame({ gameId: `word-${seed}`, seed, seats, settings: { rules }, voting });
  if (!result.ok) throw new Error(result.error);
  return result.state;
}

describe('property: the offline brain says what is public', () => {
  it('GIVEN 600 seeded all-AI games (5–16 seats, roles revealed or not, loud persona phrases or not) WHEN played out THEN last words after a reveal claim no other role', async () => {
    let lastWords = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 5, max: 16 }),
        rulesArb,
        fc.constantFrom<'parallel' | 'sequential'>('parallel', 'sequential'),
        fc.boolean(),
        async (seed, players, rules, voting, loud) => {
          const state = await play(seed, players, rules, voting, loud);
          lastWords += checkLastWords(state);
        },
      ),
      { numRuns: 600 },
    );
    // The property was exercised, not vacuously true.
    expect(lastWords).toBeGreaterThan(100);
  }, 120_000);
});

// ── Single situations ──

const brain = heuristicBrain({ name: 'Test', phrases: ['Elementary.'] });
const NINE = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson', 'townsperson', 'townsperson'] as const;

function request(t: Table, playerId: string, kind: DecisionKind): DecisionRequest {
  const targets = kind === 'vote' ? engine.legalVoteTargets(t.state, playerId) : [];
  return {
    kind,
    view: engine.viewFor(t.state, playerId)!,
    targets: targets.map((p) => ({ id: p.id, name: p.name })),
    allowSkip: kind === 'vote' ? t.state.settings.rules.allowNoLynch : true,
    beliefs: {},
  };
}

/** Everyone else votes `target` out; the game moves to its last words. */
function lynch(t: Table, target: PlayerState): void {
  t.advanceTo('vote');
  for (const p of t.state.players) if (p.alive && p.id !== target.id) t.must(t.vote(p, target));
  t.must(t.vote(target, 'no_lynch'));
  expect(t.state.phase).toBe('last_words');
}

describe('the offline brain keeps to public facts', () => {
  it('GIVEN roles are revealed on death WHEN a lynched Mafia member gives last words THEN it speaks as Mafia and names no teammate', () => {
    for (let seed = 0; seed < 20; seed++) {
      const t = Table.started([...NINE], {}, seed);
      const [mafia, partner] = [t.by('mafia', 0), t.by('mafia', 1)];
      lynch(t, mafia);
      const words = brain(request(t, mafia.id, 'last_words'), engine.createRng(seed)).speech!;
      expect(claimsIn(words)).toEqual([]);
      expect(words).toContain('Mafia');
      expect(words).not.toContain(partner.name);
    }
  });

  it('GIVEN roles stay hidden on death WHEN a lynched Mafia member gives last words THEN it may keep its cover story', () => {
    const t = Table.started([...NINE], { revealRoleOnDeath: false });
    const mafia = t.by('mafia', 0);
    lynch(t, mafia);
    expect(claimedRole(brain(request(t, mafia.id, 'last_words'), engine.createRng(1)).speech!)).toBe('townsperson');
  });

  it('GIVEN a persona phrase that claims a role WHEN the brain speaks THEN the phrase is never said', () => {
    const t = Table.started([...NINE]);
    t.advanceTo('day');
    const loud = heuristicBrain({ name: 'Loud', phrases: ["I'm the Doctor."] });
    const me = t.by('townsperson', 2);
    for (let seed = 0; seed < 30; seed++) expect(loud(request(t, me.id, 'speak'), engine.createRng(seed)).speech).not.toMatch(/Doctor/);
  });
});
