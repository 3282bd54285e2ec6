import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/game/index.ts';
import { houseSeats } from '../../src/agents/seats.ts';
import { votingBlocs, votingBlocsOf } from '../../src/agents/voting-blocs.ts';
import { playHeadless } from '../../src/session/headless-game.ts';

/** The blocs read from scratch: every vote result in the list, with nothing kept from an earlier read. */
function fromScratch(events: readonly GameEvent[]) {
  const rounds = events.flatMap((e) =>
    e.type === 'vote_resolved' ? [{ ballots: e.payload.tally.flatMap((g) => g.voters.map((v) => [v, g.targetId] as const)) }] : [],
  );
  return votingBlocs(rounds);
}

/** What one seat sees of a log: the public events and its own. */
const seenBy = (log: readonly GameEvent[], id: string) =>
  log.filter((e) => e.visibility.kind === 'public' || (e.visibility.kind === 'player' && e.visibility.playerId === id));

describe('voting blocs read on from where a game was last read', () => {
  it('GIVEN seeded all-AI games WHEN the blocs are asked of every prefix of the log and of a seat’s view, in order and then out of order THEN each answer equals the blocs read from scratch', async () => {
    for (const seed of [3, 11, 42]) {
      const played = await playHeadless({ gameId: `blocs-${seed}`, seed, seats: houseSeats(10), recordReasoning: true });
      if (!played.ok) throw new Error(played.error);
      const log = played.value.log;
      expect(log.filter((e) => e.type === 'vote_resolved').length).toBeGreaterThan(1);
      const prefixes = log.map((_, k) => log.slice(0, k + 1));
      // In order, as a game asks; then older and newer lists mixed, a seat's view beside the log.
      const order = [...prefixes.keys(), ...prefixes.keys()].map((k, i) => (i < prefixes.length ? k : (k * 7919) % prefixes.length));
      for (const k of order) {
        const prefix = prefixes[k] as GameEvent[];
        expect(votingBlocsOf({ events: prefix })).toEqual(fromScratch(prefix));
        const view = seenBy(prefix, 'seat3');
        expect(votingBlocsOf({ events: view })).toEqual(fromScratch(view));
      }
    }
  });
});
