import { must } from '../../result.ts';
import * as engine from '../../game/index.ts';
import type { PlayerState } from '../../game/index.ts';
import type { Decision } from '../decision.ts';
import { dayRecord, offlineRecap } from '../summary.ts';
import { dueBy, phaseKey, type PhaseMoment } from './deadlines.ts';
import type { Command } from './sequence.ts';
import { whenDecided, type Decided, type SeatWork } from './seat-work.ts';

/**
 * A night's moves: the recap of the day that ended, every AI seat's night action and the AI Mafia's
 * proposal. Every seat decides on the night as it began; the moves go in as they are decided.
 * Returns the moves still waiting for a model (a resume waits for them).
 */
export function nightMoves(work: SeatWork): Promise<void>[] {
  const state = work.state;
  const due = dueBy(state) ?? work.options.clock.now();
  const forState = { phase: state.phase, day: state.day };
  const seats = work.ai((p) => engine.hasNightAction(state, p) && !engine.isMafia(p.role) && !(p.id in state.night.actions));
  const decided = seats.map((p) => work.decide(p, 'night', due));
  const proposal = mafiaProposal(work, due);
  work.job(recap(work));
  const waiting: Promise<void>[] = [];
  seats.forEach((player, i) => {
    const acting = whenDecided(decided[i] ?? null, (decision) => nightAction(work, player, decision, forState));
    if (acting) waiting.push(work.tracked(acting));
  });
  const proposing = proposal && proposeKill(work, proposal, forState);
  if (proposing) waiting.push(work.tracked(proposing));
  return waiting;
}

function nightAction(work: SeatWork, player: PlayerState, decision: Decision, forState: PhaseMoment): void {
  const acted = work.play(player, 'night', decision, forState, (s, at) =>
    engine.act(s, { actorId: player.id, targetId: decision.targetId, at }),
  );
  // A target gone since the decision: the seat skips rather than lose its turn to an error.
  if (!acted && phaseKey(work.state) === phaseKey(forState))
    work.apply((s, at) => engine.act(s, { actorId: player.id, targetId: null, at }));
}

interface Proposal {
  readonly members: readonly PlayerState[];
  readonly proposer: PlayerState;
  /** The proposer's decision; none when it proposed before (a restart). */
  readonly decided: Decided;
}

/**
 * One proposal a night for the AI Mafia: one member (in turn, night by night) asks its model and
 * speaks in the thread; its AI teammates back that target without a call of their own. Null when
 * there is nothing to propose.
 */
function mafiaProposal(work: SeatWork, due: number): Proposal | null {
  const state = work.state;
  const members = work.ai((p) => engine.isMafia(p.role) && engine.hasNightAction(state, p)).sort((a, b) => a.seat - b.seat);
  if (members.length === 0 || members.every((p) => p.id in state.night.proposals)) return null;
  const proposer = must(members[(Math.max(1, state.day) - 1) % members.length], 'the Mafia member in turn');
  return { members, proposer, decided: proposer.id in state.night.proposals ? null : work.decide(proposer, 'mafia_chat', due) };
}

function proposeKill(work: SeatWork, { members, proposer, decided }: Proposal, forState: PhaseMoment): Promise<void> | null {
  if (decided === null) {
    // A decision no longer wanted leaves the night as it is, unless the proposal was made before.
    if (proposer.id in work.state.night.proposals) backProposal(work, members, proposer, work.state.night.proposals[proposer.id], forState);
    return null;
  }
  return whenDecided(decided, (decision) => {
    const text = decision.speech;
    const said: Command | null = text ? (s, at) => engine.speak(s, { playerId: proposer.id, channel: 'mafia', text, at }) : null;
    const acted = work.play(
      proposer,
      'mafia_chat',
      decision,
      forState,
      (s, at) => engine.act(s, { actorId: proposer.id, targetId: decision.targetId, at }),
      said,
    );
    backProposal(work, members, proposer, acted ? decision.targetId : undefined, forState);
  });
}

function backProposal(
  work: SeatWork,
  members: readonly PlayerState[],
  proposer: PlayerState,
  target: string | null | undefined,
  forState: PhaseMoment,
): void {
  const key = phaseKey(forState);
  for (const member of members) {
    const now = work.state;
    if (member.id === proposer.id || member.id in now.night.proposals || phaseKey(now) !== key || now.night.mafiaRound !== 1) continue;
    const backing =
      target !== undefined && !engine.nightTargetError(now, member.id, target) ? target : work.seats.offline(now, member, 'night').targetId;
    const decision: Decision = {
      targetId: backing,
      speech: null,
      reasoning: `Backs ${proposer.name}'s proposal.`,
      // Its reads stand as they were: the director's cut and the replay still see all of them.
      beliefs: work.seats.beliefsOf(member.id),
      urgency: 0,
    };
    work.play(member, 'mafia_chat', decision, forState, (s, at) => engine.act(s, { actorId: member.id, targetId: backing, at }));
  }
}

/** A split first round: the AI members settle as the tie rule would, by the offline brain, without a model call. */
export function secondRound(work: SeatWork): void {
  const state = work.state;
  const forState = { phase: state.phase, day: state.day };
  const key = phaseKey(state);
  for (const member of work.ai((p) => engine.isMafia(p.role) && engine.hasNightAction(state, p))) {
    const now = work.state;
    if (member.id in now.night.proposals || phaseKey(now) !== key) continue;
    const decision = work.seats.offline(now, member, 'mafia_chat');
    const text = decision.speech;
    const said: Command | null = text ? (s, at) => engine.speak(s, { playerId: member.id, channel: 'mafia', text, at }) : null;
    work.play(
      member,
      'mafia_chat',
      decision,
      forState,
      (s, at) => engine.act(s, { actorId: member.id, targetId: decision.targetId, at }),
      said,
    );
  }
}

/** Once a day has ended, its public recap for every seat's later prompts; a model's may finish after the night. */
function recap(work: SeatWork): Promise<void> | null {
  const state = work.state;
  const day = state.day - 1;
  if (day < 1 || state.log.some((e) => e.type === 'day_summary' && e.payload.day === day)) return null;
  const record = (text: string): void => {
    work.apply((s, at) => engine.recordDaySummary(s, { day, text: text.slice(0, engine.MAX_SUMMARY_LENGTH), at }));
  };
  const offline = (): string => offlineRecap(work.state, day);
  const summarizer = work.options.summarizer;
  if (!summarizer || state.deadline === null) {
    record(offline());
    return null;
  }
  return work.recapByModel(summarizer, dayRecord(state, day), state.deadline, offline).then(record);
}
