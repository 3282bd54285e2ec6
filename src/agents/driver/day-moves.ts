import * as engine from '../../game/index.ts';
import type { PlayerState } from '../../game/index.ts';
import { dueBy, phaseKey, type PhaseMoment } from './deadlines.ts';
import { sequence, type Command, type Step } from './sequence.ts';
import { whenDecided, type SeatWork } from './seat-work.ts';
import { willFor } from './wills.ts';

/** Wills are rewritten from each seat's facts and beliefs when they change, without a model call, in one write. */
export function writeWills(work: SeatWork): void {
  const state = work.state;
  if (!state.settings.rules.lastWills) return;
  const steps: Step[] = [];
  for (const p of work.ai((p) => p.alive)) {
    const view = engine.viewFor(state, p.id);
    if (!view) continue;
    const text = willFor(view, work.seats.beliefsOf(p.id));
    if (text !== p.will) steps.push({ command: willCommand(p.id, text), required: false });
  }
  if (steps.length > 0) work.apply(sequence(steps));
}

/** Writes a seat's will (a module function: a closure named as a property costs one more call per will). */
function willCommand(playerId: string, text: string): Command {
  return (s, at) => engine.writeWill(s, { playerId, text, at });
}

/**
 * Every AI seat's vote, each decided on the vote as it opened and cast as soon as it is decided,
 * its one line said first (the vote may close the day). Returns the votes still waiting for a model.
 */
export function votes(work: SeatWork): Promise<void>[] {
  const state = work.state;
  const due = dueBy(state) ?? work.options.clock.now();
  const forState = { phase: state.phase, day: state.day };
  const voters = work.ai((p) => p.alive && !(p.id in state.votes));
  const decided = voters.map((p) => work.decide(p, 'vote', due));
  const waiting: Promise<void>[] = [];
  voters.forEach((player, i) => {
    const voting = whenDecided(decided[i] ?? null, (decision) => voteOf(work, player, decision, forState));
    if (voting) waiting.push(work.tracked(voting));
  });
  return waiting;
}

function voteOf(work: SeatWork, player: PlayerState, decided: Parameters<SeatWork['play']>[2], forState: PhaseMoment): void {
  let decision = decided;
  let target = decision.targetId ?? 'no_lynch';
  if (phaseKey(work.state) === phaseKey(forState) && engine.voteError(work.state, player.id, target)) {
    // Legal when decided, not now: the seat's offline brain picks among today's options.
    decision = {
      ...work.seats.offline(work.state, player, 'vote'),
      fallback: { category: 'invalid_answer', detail: `vote for ${target} no longer legal` },
    };
    target = decision.targetId ?? 'no_lynch';
  }
  const text = decision.speech;
  const said: Command | null = text ? (s, at) => engine.speak(s, { playerId: player.id, channel: 'town', text, at }) : null;
  work.play(player, 'vote', decision, forState, (s, at) => engine.vote(s, { voterId: player.id, targetId: target, at }), said);
}

/** A trial day: an AI defendant speaks in its defense, then rests its case, so the next nominee (or the vote) follows at once. */
export function defense(work: SeatWork): Promise<void> | null {
  const state = work.state;
  const id = state.trial.defendant;
  const defendant = id === null ? undefined : engine.findPlayer(state, id);
  if (!defendant?.alive || !work.seats.has(defendant.id)) return null;
  const forState: PhaseMoment = { phase: state.phase, day: state.day, trial: { defendant: defendant.id } };
  return whenDecided(work.decide(defendant, 'defense', dueBy(state) ?? work.options.clock.now()), (decision) => {
    const text = decision.speech;
    work.play(
      defendant,
      'defense',
      decision,
      forState,
      (s, at) => engine.restDefense(s, { playerId: defendant.id, at }),
      text ? (s, at) => engine.speak(s, { playerId: defendant.id, channel: 'town', text, at }) : null,
    );
  });
}

export function lastWords(work: SeatWork): Promise<void> | null {
  const state = work.state;
  const id = state.lynchedToday;
  const lynched = id ? engine.findPlayer(state, id) : undefined;
  if (!lynched || !work.seats.has(lynched.id)) return null;
  if (state.log.some((e) => e.type === 'speech' && e.payload.channel === 'last_words' && e.payload.playerId === lynched.id)) return null;
  const forState = { phase: state.phase, day: state.day };
  return whenDecided(work.decide(lynched, 'last_words', dueBy(state) ?? work.options.clock.now()), (decision) => {
    const text = decision.speech;
    work.play(
      lynched,
      'last_words',
      decision,
      forState,
      null,
      text ? (s, at) => engine.speak(s, { playerId: lynched.id, channel: 'last_words', text, at }) : null,
    );
  });
}
