import { must } from '../../result.ts';
import * as engine from '../../game/index.ts';
import type { GameEvent, PlayerState } from '../../game/index.ts';
import type { Decision } from '../decision.ts';
import { nextSpeaker } from '../scheduler.ts';
import { dueBy, type PhaseMoment } from './deadlines.ts';
import type { SeatWork } from './seat-work.ts';

const DEFAULT_SPEECH_TURN_MS = 40_000;

const isDayStart = (e: GameEvent): boolean => e.type === 'phase_started' && e.payload.phase === 'day';

/** A day's talk: one AI speaks at a time, in the order the scheduler picks; each has a turn's time to think. */
export class Discussion {
  private discussing = false;
  private readonly spoken = new Map<string, { day: number; count: number; urgency: number | null }>();

  constructor(private readonly work: SeatWork) {}

  /** Goes on with the day's talk (at the day's start, and when a person spoke); a loop already running reads the log afresh before each speaker. */
  async run(): Promise<void> {
    if (this.discussing) return;
    this.discussing = true;
    try {
      const work = this.work;
      const day = work.state.day;
      while (!work.stopped && work.state.phase === 'day' && work.state.day === day) {
        const next = nextSpeaker({
          candidates: this.speakers(day),
          lastSpeech: this.lastTownSpeech(),
          day,
          maxPerSeat: work.options.maxSpeechesPerDay ?? 2,
        });
        if (!next) return;
        const speaker = must(engine.findPlayer(work.state, next.id), `speaker ${next.id}`);
        const dayDue = dueBy(work.state) ?? work.options.clock.now();
        const due = Math.min(dayDue, work.options.clock.now() + (work.options.speechTurnMs ?? DEFAULT_SPEECH_TURN_MS));
        const forState = { phase: work.state.phase, day };
        const decided = work.decide(speaker, 'speak', due);
        const decision = decided instanceof Promise ? await decided : decided;
        if (!decision) return;
        this.speak(speaker, decision, forState, next.spoken + 1);
        if (work.options.speechGapMs > 0 && !(await work.pause(work.options.speechGapMs))) return;
      }
    } finally {
      this.discussing = false;
    }
  }

  private speak(speaker: PlayerState, decision: Decision, forState: PhaseMoment, count: number): void {
    this.spoken.set(speaker.id, { day: forState.day, count, urgency: decision.urgency });
    const text = decision.speech;
    const nominee = decision.targetId;
    this.work.play(
      speaker,
      'speak',
      decision,
      forState,
      null,
      text ? (s, at) => engine.speak(s, { playerId: speaker.id, channel: 'town', text, at }) : null,
      nominee ? (s, at) => engine.nominate(s, { playerId: speaker.id, targetId: nominee, at }) : null,
    );
  }

  private lastTownSpeech(): { speakerId: string; text: string } | null {
    const e = this.work.state.log.findLast((e) => isDayStart(e) || (e.type === 'speech' && e.payload.channel === 'town'));
    return e?.type === 'speech' ? { speakerId: e.payload.playerId, text: e.payload.text } : null;
  }

  private speakers(day: number) {
    // Town speeches since the current day began (a restarted driver must not redo what the log shows done).
    const said = new Map<string, number>();
    const log = this.work.state.log;
    const start = log.findLastIndex(isDayStart);
    for (let i = start < 0 ? log.length : start; i < log.length; i++) {
      const e = log[i] as GameEvent;
      if (e.type === 'speech' && e.payload.channel === 'town') said.set(e.payload.playerId, (said.get(e.payload.playerId) ?? 0) + 1);
    }
    return this.work
      .ai((p) => p.alive)
      .map((p) => {
        const record = this.spoken.get(p.id);
        const today = record?.day === day ? record : { day, count: 0, urgency: null };
        // After a restart only the log knows who already spoke today.
        return { id: p.id, name: p.name, seat: p.seat, spoken: Math.max(today.count, said.get(p.id) ?? 0), urgency: today.urgency };
      });
  }
}
