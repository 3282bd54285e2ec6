import { getRole, isMafia, type PlayerView, type RoleId, type Rng } from '../../game/index.ts';
import type { Beliefs } from '../beliefs.ts';
import type { Decision, TargetOption, Voice } from '../decision.ts';
import { say } from './speech.ts';

/** Suspicion above which a town seat puts its top suspect on trial, and above which it seconds one. */
const NOMINATE_AT = 0.6;
const SECOND_AT = 0.5;

/** What the trial-day choices need from a decision's context (the brain's Context). */
export interface TrialContext {
  readonly view: PlayerView;
  readonly rng: Rng;
  readonly voice: Voice | undefined;
  readonly beliefs: Beliefs;
  readonly team: ReadonlySet<string>;
  name(id: string): string;
}

const trialLines = {
  nominate: (name: string) => [
    `I nominate ${name} for trial.`,
    `I am putting ${name} on trial.`,
    `${name}, I nominate you. Explain yourself.`,
  ],
  second: (name: string) => [`I second the nomination of ${name}.`, `Seconded: ${name} should answer for it.`],
  shieldTeammate: (name: string) => [
    `Putting ${name} on trial is a waste of a day; I will not second that.`,
    `I do not buy the case against ${name}. Look elsewhere.`,
  ],
};

const suspicion = (c: TrialContext, id: string): number => c.beliefs[id]?.suspicion ?? 0.5;

/** Today's nominations others made that still wait for a second, and whose nominee `options` allow. */
function pendingOf(c: TrialContext, options: readonly TargetOption[]): TargetOption[] {
  const pending: TargetOption[] = [];
  for (const n of c.view.trial.nominations) {
    if (n.standing || n.nominatorId === c.view.me.id) continue;
    const option = options.find((o) => o.id === n.targetId);
    if (option) pending.push(option);
  }
  return pending;
}

/**
 * Whom this seat nominates or seconds with its speech (null: nobody). Town seconds a nomination it
 * agrees with, else nominates its top suspect once confident; the Mafia never put a teammate on
 * trial and back a case against the town player they already push (`pushed`).
 */
export function nominationOf(c: TrialContext, options: readonly TargetOption[], pushed: string | null): TargetOption | null {
  if (options.length === 0) return null;
  const role = c.view.me.role;
  if (role === 'jester') return null;
  const pending = pendingOf(c, options);
  if (isMafia(role)) {
    const outsiders = options.filter((o) => !c.team.has(o.id));
    return pending.find((o) => !c.team.has(o.id)) ?? outsiders.find((o) => o.id === pushed) ?? null;
  }
  let agreed: TargetOption | null = null;
  for (const o of pending) if (suspicion(c, o.id) >= SECOND_AT && (!agreed || suspicion(c, o.id) > suspicion(c, agreed.id))) agreed = o;
  if (agreed) return agreed;
  let top: TargetOption | null = null;
  for (const o of options) if (!top || suspicion(c, o.id) > suspicion(c, top.id)) top = o;
  return top && suspicion(c, top.id) >= NOMINATE_AT ? top : null;
}

/** The speech with its nomination said aloud, and the decision's target set to it. */
export function withNomination(c: TrialContext, decision: Decision, nominee: TargetOption | null): Decision {
  if (!nominee) return decision;
  const seconding = c.view.trial.nominations.some((n) => n.targetId === nominee.id);
  const line = say(c.rng, undefined, seconding ? trialLines.second(nominee.name) : trialLines.nominate(nominee.name));
  return {
    targetId: nominee.id,
    speech: decision.speech ? `${decision.speech} ${line}` : line,
    reasoning: `${decision.reasoning} ${seconding ? 'Second' : 'Nominate'} ${nominee.name}.`,
    beliefs: decision.beliefs,
    urgency: Math.max(decision.urgency, 2),
  };
}

/** A Mafia seat's word for a teammate who stands nominated today, now and then (always would give the team away). */
export function teammateShield(c: TrialContext): string | null {
  if (!isMafia(c.view.me.role)) return null;
  const accused = c.view.trial.nominations.find((n) => c.team.has(n.targetId) && n.targetId !== c.view.me.id);
  if (!accused || !c.rng.chance(0.5)) return null;
  return say(c.rng, c.voice, trialLines.shieldTeammate(c.name(accused.targetId)));
}

/**
 * A nominee's defense: its claim (a town seat's true role, the Detective's results; a Mafia seat
 * keeps its cover) and where it points the town instead, at whoever pushed the case hardest if it
 * suspects them. A Jester defends badly on purpose.
 */
export function defenseOf(c: TrialContext, claimed: RoleId | null, results: string, topSuspect: string | null): Decision {
  const { view, rng, voice } = c;
  const role = view.me.role;
  const accusers = view.trial.nominations
    .filter((n) => n.targetId === view.me.id)
    .flatMap((n) => [n.nominatorId, ...n.seconderIds])
    .map((id) => c.name(id));
  const by = accusers.length > 0 ? accusers.join(' and ') : 'the town';
  let speech: string;
  let why: string;
  if (role === 'jester') {
    speech = 'Maybe I did it, maybe I did not. You will have to vote and find out.';
    why = 'a Jester wants the rope';
  } else if (isMafia(role)) {
    const cover = claimed && !isMafia(claimed) ? getRole(claimed).name : 'Townsperson';
    const target = topSuspect && !c.team.has(topSuspect) ? c.name(topSuspect) : (accusers[0] ?? 'the loudest voice');
    speech = `I am a ${cover}. ${by} built this on nothing; ${target} has pushed harder than anyone, so ask why.`;
    why = `keep my cover as ${cover} and turn the town onto ${target}`;
  } else {
    const name = role ? getRole(role).name : 'Townsperson';
    const claim = role === 'detective' && results ? `I'm the Detective. ${results}` : `I am the ${name}.`;
    const point = topSuspect ? ` If you want Mafia, look at ${c.name(topSuspect)}.` : '';
    speech = `${claim} ${by} ${accusers.length > 1 ? 'have' : 'has'} the wrong player.${point}`;
    why = `claim ${name} and point at my top suspect`;
  }
  return {
    targetId: null,
    speech: say(rng, voice, [speech]),
    reasoning: `Defense as ${role ?? 'nobody'}. → ${why}.`,
    beliefs: c.beliefs,
    urgency: 0,
  };
}
