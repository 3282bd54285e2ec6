import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../../src/agents/decision.ts';
import type { PersonaPrompt } from '../../../src/agents/player/persona-prompt.ts';
import { sharedPrefix, stablePrefix, turnContext } from '../../../src/agents/player/prompt.ts';
import * as engine from '../../../src/game/index.ts';
import type { GameState, RoleId } from '../../../src/game/index.ts';
import { must, type Result } from '../../../src/result.ts';

const ROLES: RoleId[] = ['mafia', 'detective', 'doctor', 'townsperson', 'townsperson'];
const T0 = Date.UTC(2026, 0, 1);

/** Pieces an attacker would use to forge an engine line, a section or a tag. */
const HOSTILE = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\n',
        '\r\n',
        '\u2028',
        '\u0085',
        '[vote] ',
        '[death] ',
        '[dawn] ',
        '[notice] ',
        '# ',
        '## Ground rules',
        '</speech>',
      ),
      fc.constantFrom('<speech player="Ann">', '</persona>', '"', '[', ']', '→', 'Ann', ' was lynched', '> ', '- ', '(you)'),
      fc.string({ maxLength: 6 }),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((pieces) => `a${pieces.join('')}`.slice(0, 60));

interface Authored {
  names: string[];
  speeches: string[];
  will: string;
  notice: string;
  recap: string;
  reason: string;
  persona: string;
  tactic: string;
}

function apply(state: GameState, result: Result<engine.Change, engine.GameError>): GameState {
  if (!result.ok) throw new Error(result.error.message);
  return result.value.state;
}

/** One game played to its first vote with these names and texts, and the vote prompt of one seat. */
function prompt(authored: Authored): string {
  const created = engine.createGame({ gameId: 'g', seed: 7, settings: { setup: { kind: 'custom', roles: ROLES } }, at: T0 });
  if (!created.ok) throw new Error(created.error.message);
  let s = created.value.state;
  authored.names.forEach((name, i) => {
    s = apply(s, engine.join(s, { player: { id: `p${i}`, name, kind: i % 2 ? 'ai' : 'human' }, at: T0 }));
  });
  s = apply(s, engine.start(s, { at: T0 }));
  while (s.phase !== 'day') s = apply(s, engine.advance(s, { at: must(s.deadline, 'deadline') }));
  const living = s.players.filter((p) => p.alive);
  living.forEach((p, i) => {
    s = apply(
      s,
      engine.speak(s, { playerId: p.id, channel: 'town', text: authored.speeches[i % authored.speeches.length] ?? 'x', at: T0 }),
    );
  });
  const seat = must(living.at(-1), 'a living seat');
  s = apply(s, engine.writeWill(s, { playerId: seat.id, text: authored.will, at: T0 }));
  s = apply(s, engine.announce(s, { text: authored.notice, at: T0 }));
  s = apply(s, engine.recordDaySummary(s, { day: 1, text: authored.recap, at: T0 }));
  while (s.phase !== 'vote') s = apply(s, engine.advance(s, { at: must(s.deadline, 'deadline') }));
  const view = must(engine.viewFor(s, seat.id), 'the seat’s view');
  const others = view.seats.filter((o) => o.alive && o.id !== seat.id);
  const persona: PersonaPrompt = {
    name: seat.name,
    block: authored.persona,
    tactics: { town: [authored.tactic], mafia: [authored.tactic] },
  };
  const request: DecisionRequest = {
    kind: 'vote',
    view,
    targets: others.map((o) => ({ id: o.id, name: o.name })),
    allowSkip: true,
    beliefs: Object.fromEntries(others.map((o) => [o.id, { suspicion: 0.5, trust: 0.5, reason: authored.reason }])),
  };
  return [sharedPrefix(view), stablePrefix(view, persona), turnContext(request)].join('\n');
}

/** What a line is to a reader: a section, an engine line, a quoted line, or text. */
function skeleton(text: string): string[] {
  return text.split('\n').map((line) => {
    if (line.startsWith('#')) return `section ${line.replace(/:.*/, '')}`;
    const marker = /^(?:\(last words\) )?\[[a-z ]+\]/.exec(line);
    if (marker) return `engine ${marker[0]}`;
    if (line.startsWith('> ')) return 'quoted';
    if (/^<\/?[a-z]+>$/.test(line)) return `tag ${line}`;
    return 'text';
  });
}

/** The same game with harmless names and texts, and as many persona lines. */
function benign(authored: Authored): Authored {
  return {
    names: authored.names.map((_, i) => `P${i}`),
    speeches: authored.speeches.map(() => 'x'),
    will: 'x',
    notice: 'x',
    recap: 'x',
    reason: 'x',
    persona: authored.persona
      .split(/\r\n?|\n/)
      .map(() => 'x')
      .join('\n'),
    tactic: 'x',
  };
}

describe('prompt hygiene', () => {
  it('GIVEN hostile names, speeches, wills, recaps, notices, beliefs and persona text WHEN a seat is prompted THEN its prompt has exactly the sections, engine lines and tags of the same game played by harmless names', () => {
    fc.assert(
      fc.property(
        fc.record({
          names: fc.array(HOSTILE, { minLength: 5, maxLength: 5 }),
          speeches: fc.array(HOSTILE, { minLength: 1, maxLength: 5 }),
          will: HOSTILE,
          notice: HOSTILE,
          recap: HOSTILE,
          reason: HOSTILE,
          persona: HOSTILE,
          tactic: HOSTILE,
        }),
        (authored) => {
          expect(skeleton(prompt(authored))).toEqual(skeleton(prompt(benign(authored))));
        },
      ),
      { numRuns: 300 },
    );
  });
});
