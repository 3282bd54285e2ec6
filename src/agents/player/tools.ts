import { z } from 'zod';
import type { PlayerView } from '../../game/index.ts';
import { defineTool, type Tool } from '../../llm/tool.ts';
import { memoryFacts } from './memory.ts';
import { neutralise, speechLine } from './quote.ts';

/** Tools a seat may call while it reasons (seed 004). Every answer comes from the seat's own view. */
export interface SeatToolContext {
  readonly view: PlayerView;
  readonly beliefs: Record<string, { suspicion: number; trust: number; reason: string }>;
  readonly memory: readonly string[];
}

function seatByName(view: PlayerView, player: string) {
  const wanted = player.trim().toLowerCase();
  return view.seats.find((s) => s.name.toLowerCase() === wanted);
}

function names(view: PlayerView): string {
  return view.seats.map((s) => s.name).join(', ');
}

/** A seat's name by its id, as the seat's own view knows it, quoted for a prompt. */
function nameIn(view: PlayerView): (id: string) => string {
  return (id) => neutralise(view.seats.find((s) => s.id === id)?.name ?? id);
}

const readTranscript = defineTool<{ day: number }, SeatToolContext>({
  name: 'read_transcript',
  description: 'The full public transcript (speeches, votes, deaths) of an earlier day.',
  input: z.object({ day: z.number().int().min(1).describe('Day number') }),
  run: ({ day }, { view }) => {
    if (day > view.day) throw new Error(`Day ${day} has not happened yet; it is day ${view.day}.`);
    const name = nameIn(view);
    const lines: string[] = [];
    let current = 0;
    for (const e of view.events) {
      if (e.type === 'phase_started') current = e.payload.day;
      if (current !== day) continue;
      if (e.type === 'speech' && e.payload.channel !== 'mafia') lines.push(speechLine(name(e.payload.playerId), e.payload));
      else if (e.type === 'vote_resolved') {
        lines.push(
          `[votes] ${e.payload.tally.map((t) => `${t.targetId === 'no_lynch' ? 'no lynch' : name(t.targetId)}: ${t.voters.map(name).join(', ')}`).join('; ') || 'none'}`,
        );
      } else if (e.type === 'player_died') lines.push(`[death] ${name(e.payload.playerId)} (${e.payload.cause})`);
    }
    return lines.length > 0 ? lines.join('\n') : `Nothing was said on day ${day}.`;
  },
});

const checkWill = defineTool<{ player: string }, SeatToolContext>({
  name: 'check_will',
  description: "A dead player's will, as it was read out when they died.",
  input: z.object({ player: z.string().describe('The player’s name') }),
  run: ({ player }, { view }) => {
    const seat = seatByName(view, player);
    if (!seat) throw new Error(`No player called ${player}. Players: ${names(view)}.`);
    if (seat.alive) throw new Error(`${seat.name} is alive; wills are read only on death.`);
    const death = view.events.find((e) => e.type === 'player_died' && e.payload.playerId === seat.id);
    const will = death?.type === 'player_died' ? death.payload.will : null;
    return will ? `${neutralise(seat.name)}'s will: “${neutralise(will)}”` : `${neutralise(seat.name)} left no will.`;
  },
});

const voteHistory = defineTool<{ player: string }, SeatToolContext>({
  name: 'vote_history',
  description: 'How a player voted on each day so far.',
  input: z.object({ player: z.string().describe('The player’s name') }),
  run: ({ player }, { view }) => {
    const seat = seatByName(view, player);
    if (!seat) throw new Error(`No player called ${player}. Players: ${names(view)}.`);
    const name = nameIn(view);
    const lines: string[] = [];
    for (const e of view.events) {
      if (e.type !== 'vote_resolved') continue;
      const ballot = e.payload.tally.find((t) => t.voters.includes(seat.id));
      lines.push(
        `Day ${e.payload.day}: ${ballot ? (ballot.targetId === 'no_lynch' ? 'no lynch' : name(ballot.targetId)) : 'did not vote'}`,
      );
    }
    return lines.length > 0 ? lines.join('\n') : 'No vote has finished yet.';
  },
});

const myNotes = defineTool<Record<string, never>, SeatToolContext>({
  name: 'my_notes',
  description: 'Your memory facts and your current beliefs.',
  input: z.object({}),
  run: (_input, { view, beliefs, memory }) => {
    const name = nameIn(view);
    const facts = memory.length > 0 ? memory : memoryFacts(view);
    const reads = Object.entries(beliefs).map(
      ([id, b]) => `${name(id)}: suspicion ${b.suspicion}, trust ${b.trust} (${neutralise(b.reason)})`,
    );
    return [`Facts:`, ...(facts.length ? facts : ['none']), 'Beliefs:', ...(reads.length ? reads : ['none'])].join('\n');
  },
});

export const SEAT_TOOLS: readonly Tool<unknown, SeatToolContext>[] = [readTranscript, checkWill, voteHistory, myNotes];
