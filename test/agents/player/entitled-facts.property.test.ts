import { describe, expect, it } from 'vitest';
import { heuristicBrain } from '../../../src/agents/heuristic/brain.ts';
import { llmBrain } from '../../../src/agents/player/llm-brain.ts';
import { plainPersona } from '../../../src/agents/player/persona-prompt.ts';
import { HOUSE_PLAYERS } from '../../../src/agents/seats.ts';
import { ManualTimers } from '../../../src/clock.ts';
import { isSpeechRewrite, ROLE_IDS, type RoleId, type SettingsInput } from '../../../src/game/index.ts';
import { createHeadless } from '../../../src/session/headless-game.ts';
import { missingFacts } from '../../../scripts/lib/entitled-facts.ts';
import { seededRandom } from '../../../scripts/lib/simulated-model.ts';
import { simulatedPeople, withdrawnTag } from '../../../scripts/lib/simulated-people.ts';
import { recordingThink, type RecordedPrompt } from '../../support/recording-model.ts';
import { propertyRuns } from '../../support/property-size.ts';

const GAMES = propertyRuns(300);
/** Every role at one table, for games whose preset would leave some out. */
const EVERY_ROLE: RoleId[] = [
  'godfather',
  'mafia',
  'detective',
  'doctor',
  'vigilante',
  'jester',
  'townsperson',
  'townsperson',
  'townsperson',
];

interface Table {
  readonly seed: number;
  readonly aiSeats: number;
  readonly people: number;
  readonly settings: SettingsInput;
}

/** Game `seed`'s table: its size, how many people sit at it, its roles and whether roles are revealed. */
function liveGameOf(seed: number): Table {
  const random = seededRandom(seed);
  const everyRole = seed % 3 === 0;
  const players = everyRole ? EVERY_ROLE.length : 5 + Math.floor(random() * 8);
  const people = seed % 2 === 0 ? 1 + Math.floor(random() * 2) : 0;
  return {
    seed,
    aiSeats: players - people,
    people,
    settings: {
      ...(everyRole && { setup: { kind: 'custom', roles: EVERY_ROLE } }),
      // Trial days on every other pair of seeds, across revealed and hidden roles.
      rules: { revealRoleOnDeath: seed % 4 < 2, maxQuietCycles: 2, dayStyle: Math.floor(seed / 4) % 2 === 0 ? 'trial' : 'open' },
    },
  };
}

/** Plays one game of recording AI seats (and simulated people) and returns every decision prompt with its view. */
async function play(liveGame: Table): Promise<{ prompts: RecordedPrompt[]; roles: RoleId[] }> {
  const recorded: RecordedPrompt[] = [];
  const voices = HOUSE_PLAYERS.slice(0, liveGame.aiSeats + liveGame.people);
  const seats = voices.slice(0, liveGame.aiSeats).map((voice, i) => {
    const id = `ai${i + 1}`;
    return {
      id,
      name: voice.name,
      brain: llmBrain({
        persona: plainPersona(voice),
        model: 'recording',
        think: recordingThink(id, recorded),
        fallback: heuristicBrain(),
      }),
    };
  });
  const humans = voices.slice(liveGame.aiSeats).map((voice, i) => ({ id: `person${i + 1}`, name: voice.name }));
  const people = simulatedPeople(
    humans.map((h) => h.id),
    seededRandom(liveGame.seed + 1),
    { actShare: 0.9, speakShare: 0.8, withdrawShare: 0.3 },
  );
  const game = createHeadless({
    gameId: `entitled-${liveGame.seed}`,
    seed: liveGame.seed,
    seats,
    humans,
    clock: new ManualTimers(Date.UTC(2026, 0, 1)),
    settings: liveGame.settings,
    // A recap that names no fact: whatever the seats are told of a day must not depend on it.
    summarizer: ({ day }) => `Day ${day} was long and loud.`,
    onEvents: (events, state) => people.onEvents(events, state),
  });
  if (!game.ok) throw new Error(game.error);
  people.attach(game.value);
  const ended = await game.value.run();
  if (!ended.ok) throw new Error(ended.error);
  return { prompts: recorded, roles: ended.value.players.flatMap((p) => (p.role ? [p.role] : [])) };
}

describe('what every AI decision is told', () => {
  it(`GIVEN ${GAMES} seeded games of every role, roles revealed or not, people and AI seats, people editing and deleting some of what they said, open and trial days WHEN every decision prompt is audited against its seat's view THEN each tells every death with its cause and role, every vote, every nomination, second and defense, every role claim as it stands, the seat's own night results and, to the Mafia, the team, its kills and its thread, and none holds words their author withdrew`, async () => {
    const missed: string[] = [];
    const roles = new Set<RoleId>();
    const kinds = new Set<string>();
    let prompts = 0;
    let revealed = 0;
    let hidden = 0;
    let withPeople = 0;
    let edits = 0;
    let deletions = 0;
    let nominations = 0;
    let defenses = 0;
    for (let seed = 1; seed <= GAMES; seed++) {
      const liveGame = liveGameOf(seed);
      const game = await play(liveGame);
      for (const role of game.roles) roles.add(role);
      if (liveGame.people > 0) withPeople++;
      if (liveGame.settings.rules?.revealRoleOnDeath) revealed++;
      else hidden++;
      for (const prompt of game.prompts) {
        prompts++;
        for (const e of prompt.view.events) {
          if (e.type === 'speech_edited') edits++;
          if (e.type === 'speech_deleted') deletions++;
          const speech = isSpeechRewrite(e) ? prompt.view.events.find((s) => s.seq === e.payload.seq) : undefined;
          const ref = speech?.type === 'speech' ? speech.payload.ref : undefined;
          if (ref !== undefined && prompt.text.includes(withdrawnTag(ref)))
            missed.push(`seed ${seed}, ${prompt.seatId} at ${prompt.view.phase} ${prompt.view.day}: withdrawn words of ${ref} still shown`);
        }
        kinds.add(`${prompt.view.phase}:${/# Your task: (\w+)/.exec(prompt.text)?.[1] ?? '?'}`);
        if (prompt.view.phase === 'vote') nominations += prompt.view.events.filter((e) => e.type === 'nominated').length;
        if (prompt.view.phase === 'defense') defenses++;
        for (const fact of missingFacts(prompt.view, prompt.text))
          missed.push(`seed ${seed}, ${prompt.seatId} at ${prompt.view.phase} ${prompt.view.day}: ${fact}`);
      }
    }

    expect(missed.slice(0, 20), `${missed.length} facts missing over ${prompts} prompts`).toEqual([]);
    // The audit saw what it claims to cover.
    expect([...roles].sort()).toEqual([...ROLE_IDS].sort());
    expect(revealed).toBeGreaterThan(GAMES / 3);
    expect(hidden).toBeGreaterThan(GAMES / 3);
    expect(withPeople).toBeGreaterThan(GAMES / 3);
    expect(edits).toBeGreaterThan(0);
    expect(deletions).toBeGreaterThan(0);
    expect(nominations).toBeGreaterThan(0);
    expect(defenses).toBeGreaterThan(0);
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(['day:Speak', 'defense:You', 'vote:Vote', 'night:Choose', 'night:Propose', 'last_words:Say']),
    );
  }, 600_000);
});
