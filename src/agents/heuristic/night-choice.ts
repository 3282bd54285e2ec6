import { getRole } from '../../game/index.ts';
import type { Decision, TargetOption } from '../decision.ts';
import { lines, say } from './speech.ts';
import { best, summary, suspicionOf, threat, withSpeech, type Context } from './context.ts';

function nightChoice(c: Context, target: TargetOption | undefined, why: string): Decision {
  const role = c.view.me.role ? getRole(c.view.me.role) : null;
  return {
    targetId: target?.id ?? null,
    speech: null,
    reasoning: `${role?.name ?? 'No role'} at night. Reads: ${summary(c)}. → ${target ? `${role?.nightAction} ${target.name}` : 'skip'}: ${why}.`,
    beliefs: c.beliefs,
    urgency: 0,
  };
}

export function nightDecision(c: Context): Decision {
  const { view, req, rng } = c;
  const role = view.me.role ? getRole(view.me.role) : null;
  const targets = req.targets;
  const pick = nightChoice;
  if (!role?.nightAction || targets.length === 0) return pick(c, undefined, 'nothing to do');
  switch (role.nightAction) {
    case 'kill': {
      const second = view.events.findLast((e) => e.type === 'mafia_second_round' || e.type === 'phase_started');
      if (second?.type === 'mafia_second_round') {
        // Converge on the lowest-seat teammate's first-round choice, as the tie rule would anyway.
        const team = [view.me, ...view.teammates.flatMap((t) => c.seat(t.id) ?? [])]
          .filter((p) => c.alive(p.id))
          .sort((a, b) => a.seat - b.seat);
        for (const member of team) {
          const choice = second.payload.firstRound[member.id];
          const target = targets.find((t) => t.id === choice);
          if (target) return pick(c, target, `second round: siding with ${member.name}'s proposal`);
        }
      }
      const target = best(targets, (t) => threat(c, t.id) + rng.int(0, 100) / 100);
      return pick(c, target, target && threat(c, target.id) > 0 ? 'the biggest threat to the team' : 'a quiet kill');
    }
    case 'investigate': {
      const checked = new Set(view.investigations.map((i) => i.targetId));
      const fresh = targets.filter((t) => !checked.has(t.id) && !c.seat(t.id)?.knownRole);
      const target = best(fresh.length > 0 ? fresh : targets, (t) => suspicionOf(c, t.id));
      return pick(c, target, 'the most suspicious player I have not checked');
    }
    case 'protect': {
      const target = best(targets, (t) => {
        // The likely Detective: a claimant the seat believes, whose results hold up (role-guesses.ts).
        const claimBonus = c.beliefs[t.id]?.roleGuess === 'detective' ? 3 : 0;
        const self = t.id === view.me.id ? 0.6 : 0;
        return claimBonus + 0.3 * (c.record.accusations.get(t.id)?.length ?? 0) + self - suspicionOf(c, t.id) + rng.int(0, 30) / 100;
      });
      return pick(c, target, 'the player the Mafia most want dead');
    }
    case 'shoot': {
      const target = best(targets, (t) => suspicionOf(c, t.id));
      if (target && suspicionOf(c, target.id) >= 0.8) return pick(c, target, 'sure enough to spend a shot');
      return pick(c, undefined, 'nobody is suspicious enough to shoot');
    }
  }
}

export function mafiaChatDecision(c: Context): Decision {
  const night = nightDecision(c);
  const target = night.targetId ? c.name(night.targetId) : null;
  const speech = say(c.rng, c.voice, target ? lines.proposeKill(target) : lines.holdKill);
  return withSpeech(night, speech, night.reasoning);
}
