import type { GameEventOf, PlayerView } from '../../game/index.ts';
import { getRole, isMafia } from '../../game/index.ts';
import { must } from '../../result.ts';
import type { Decision } from '../decision.ts';
import { claimSince, pledgeToday, type Pledge } from './pledges.ts';
import { announcedVote } from './reading.ts';
import { lines, say } from './speech.ts';
import { NO_INFORMATION } from './suspicion.ts';
import { defenseOf, nominationOf, teammateShield, withNomination } from './trial.ts';
import { best, foundMafia, resultsText, summary, suspicionOf, threat, votesOn, withSpeech, type Context, type Seat } from './context.ts';

/** A Detective claim from someone else, believed: their first living Mafia result. */
function trustedDetectiveAccusation(c: Context): { detective: string; target: string } | null {
  let detective: string | undefined;
  let claimers = 0;
  for (const [id, role] of c.record.claims) if (role === 'detective' && claimers++ === 0) detective = id;
  if (claimers !== 1) detective = undefined;
  if (detective === undefined || c.view.me.role === 'detective') return null;
  if (detective === c.view.me.id || (c.beliefs[detective]?.suspicion ?? 0) > 0.6) return null;
  for (const [target, result] of c.record.claimedResults.get(detective) ?? []) {
    if (result === 'mafia' && c.alive(target) && target !== c.view.me.id) return { detective, target };
  }
  return null;
}

function accusedToday(c: Context): number {
  let n = 0;
  for (const s of c.record.speeches) if (s.day === c.view.day && s.accused.includes(c.view.me.id)) n++;
  return n;
}

function speechChoice(c: Context, speech: string, why: string, urgency: number): Decision {
  return { targetId: null, speech, reasoning: `Speak. Reads: ${summary(c)}. → ${why}.`, beliefs: c.beliefs, urgency };
}

export function speakDecision(c: Context): Decision {
  const { view, rng, voice } = c;
  const me = view.me;
  const others = view.seats.filter((s) => s.alive && s.id !== me.id);
  const speak = speechChoice;
  const top = best(others, (s) => suspicionOf(c, s.id));
  if (me.role === 'detective') {
    const claimed = c.record.claims.get(me.id) === 'detective';
    const news = foundMafia(c).length > 0;
    const target = foundMafia(c)[0];
    const claimedToday = c.record.speeches.some((s) => s.speakerId === me.id && s.day === view.day && s.roleClaim === 'detective');
    if (claimedToday && target) return speak(c, say(rng, voice, lines.standByResults(c.name(target))), 'press my result', 3);
    if ((news || accusedToday(c) >= 2) && view.investigations.length > 0 && !claimedToday) {
      const speech = say(rng, voice, lines.detectiveClaim(resultsText(c)));
      return speak(c, speech, claimed ? 'repeat my results' : 'claim Detective and share my results', 4);
    }
  }
  if (isMafia(me.role)) {
    const team = c.team;
    const hunter = hunterOf(c, team);
    if (
      hunter !== null &&
      lowestLiving(c, [me, ...view.teammates])?.id === me.id &&
      c.alive(hunter) &&
      c.record.claims.get(me.id) !== 'detective'
    ) {
      const fake = `I investigated ${c.name(hunter)} on night ${Math.max(1, view.day - 1)}: ${c.name(hunter)} is Mafia.`;
      return speak(c, say(rng, voice, lines.detectiveClaim(fake)), 'counter-claim Detective against the real one', 4);
    }
    const outsiders = others.filter((s) => !team.has(s.id));
    if (outsiders.length === 0) return speak(c, 'Let us get this over with.', 'nothing left to hide', 1);
    const target = must(
      best(outsiders, (s) => threat(c, s.id) + 0.2 * votesOn(view, s.id) + rng.int(0, 80) / 100),
      'the best of the outsiders',
    );
    return speak(c, say(rng, voice, lines.mafiaDeflect(target.name)), `deflect onto ${target.name}`, 1);
  }
  if (me.role === 'jester' && top) {
    return speak(c, say(rng, voice, lines.jester(top.name)), 'look just guilty enough to be lynched', 2);
  }
  return townSpeech(c, others, top);
}

/** The first outsider who claims a Mafia result on one of the team. */
function hunterOf(c: Context, team: ReadonlySet<string>): string | null {
  for (const [claimer, results] of c.record.claimedResults) {
    if (team.has(claimer)) continue;
    for (const [target, result] of results) if (result === 'mafia' && team.has(target)) return claimer;
  }
  return null;
}

/** Of these players, the living seat with the lowest number. */
function lowestLiving(c: Context, players: readonly { readonly id: string }[]): Seat | undefined {
  let lowest: Seat | undefined;
  for (const p of players) {
    const seat = c.seat(p.id);
    if (seat?.alive && (!lowest || seat.seat < lowest.seat)) lowest = seat;
  }
  return lowest;
}

/** Today's pledge while its player lives and no claim since bears on it or on `otherId`. */
function heldPledge(c: Context, otherId: string | undefined): Pledge | null {
  const pledge = pledgeToday(c.view, c.record);
  if (!pledge || !c.alive(pledge.targetId)) return null;
  if (otherId && otherId !== pledge.targetId && claimSince(c.view, c.record, pledge, otherId)) return null;
  return pledge;
}

function townSpeech(c: Context, others: readonly Seat[], fresh: Seat | undefined): Decision {
  const { view, rng, voice } = c;
  const speak = speechChoice;
  let follow = trustedDetectiveAccusation(c);
  let top = fresh;
  // A seat that announced a vote today keeps talking about that player until a claim changes its mind.
  const held = heldPledge(c, follow?.target ?? fresh?.id);
  if (held) {
    if (follow?.target !== held.targetId) follow = null;
    top = others.find((s) => s.id === held.targetId) ?? fresh;
  }
  if (follow) {
    return speak(
      c,
      say(rng, voice, lines.followDetective(c.name(follow.detective), c.name(follow.target))),
      `back the Detective claim against ${c.name(follow.target)}`,
      3,
    );
  }
  if (!top || (view.day === 1 && view.events.every((e) => e.type !== 'speech'))) {
    return speak(c, say(rng, voice, lines.opener), 'no read yet: open the floor', 1);
  }
  const why = c.beliefs[top.id]?.reason ?? NO_INFORMATION;
  if (why === NO_INFORMATION) return speak(c, say(rng, voice, lines.gut(top.name)), `gut read on ${top.name}`, 1);
  const urgency = accusedToday(c) > 0 ? 3 : suspicionOf(c, top.id) >= 0.7 ? 2 : 1;
  return speak(c, say(rng, voice, lines.suspect(top.name, why)), `push ${top.name}`, urgency);
}

/**
 * A speech that announces a vote other than today's pledge says why it changed, or, with no
 * public change to point to, repeats the pledge instead.
 */
export function keepWordInSpeech(c: Context, decision: Decision): Decision {
  if (!decision.speech) return decision;
  const pledge = pledgeToday(c.view, c.record);
  if (!pledge || !c.alive(pledge.targetId)) return decision;
  const announced = announcedVote(c.view, decision.speech, c.view.me.id);
  if (!announced || announced === pledge.targetId) return decision;
  const said = c.name(pledge.targetId);
  const claimer = claimSince(c.view, c.record, pledge, announced);
  if (claimer) {
    const [change] = lines.changedMind(said, `${c.name(claimer)}'s claim changes that`);
    return withSpeech(decision, `${change} ${decision.speech}`, decision.reasoning);
  }
  const [speech] = lines.stillPledged(said);
  return withSpeech(decision, speech, `${decision.reasoning} (kept my word on ${said})`);
}

/** Whether the table saw this seat's role when it died (rule revealRoleOnDeath). */
function roleRevealed(view: PlayerView): boolean {
  const death = view.events.findLast((e): e is GameEventOf<'player_died'> => e.type === 'player_died' && e.payload.playerId === view.me.id);
  return death ? death.payload.role !== null : view.rules.revealRoleOnDeath;
}

/** A Mafia member's last words: graceful or taunting once unmasked, a cover story otherwise. */
function mafiaLastWords(c: Context): string {
  const { view, rng, voice } = c;
  const role = view.me.role;
  const team = new Set(view.teammates.map((t) => t.id));
  if (roleRevealed(view)) {
    const teamLeft = view.teammates.some((t) => c.alive(t.id));
    return say(rng, voice, lines.mafiaUnmasked(role ? getRole(role).name : 'Mafia', teamLeft));
  }
  const town = view.seats.filter((s) => s.alive && s.id !== view.me.id && !team.has(s.id));
  if (town.length === 0) return 'Well played.';
  // Hidden roles: the cover story stays the one this seat told, if it claimed a town role.
  const claim = c.record.claims.get(view.me.id);
  const cover = claim && !isMafia(claim) && claim !== 'townsperson' ? `the ${getRole(claim).name}` : 'a Townsperson';
  return `I was ${cover}. ${rng.pick(town).name} is Mafia, mark my words.`;
}

export function lastWordsDecision(c: Context): Decision {
  const { view } = c;
  const role = view.me.role;
  const top = best(
    view.seats.filter((s) => s.alive && s.id !== view.me.id),
    (s) => suspicionOf(c, s.id),
  );
  let speech: string;
  if (role === 'detective') speech = `I was the Detective. ${resultsText(c)}`;
  else if (role === 'jester') speech = 'You fell for it. The Jester thanks you.';
  else if (isMafia(role)) speech = mafiaLastWords(c);
  else speech = `I was the ${role ? getRole(role).name : 'town'}. ${top ? `Look hard at ${top.name}.` : ''}`.trim();
  return { targetId: null, speech, reasoning: `Last words as ${role}.`, beliefs: c.beliefs, urgency: 0 };
}

/** A speech in a trial day: a Mafia seat may shield a nominated teammate; any seat may nominate or second. */
export function trialSpeech(c: Context, spoken: Decision): Decision {
  const shield = teammateShield(c);
  const decision = shield ? withSpeech(spoken, shield, `${spoken.reasoning} Shield my teammate.`) : spoken;
  const pushed = spoken.speech ? announcedOrAccused(c, spoken.speech) : null;
  return withNomination(c, decision, shield ? null : nominationOf(c, c.req.targets, pushed));
}

/** Whom a speech of this seat points at: its announced vote, else the first player it accuses. */
function announcedOrAccused(c: Context, speech: string): string | null {
  const announced = announcedVote(c.view, speech, c.view.me.id);
  if (announced) return announced;
  return (
    best(
      c.req.targets.filter((t) => speech.includes(t.name)),
      (t) => threat(c, t.id),
    )?.id ?? null
  );
}

export function defenseDecision(c: Context): Decision {
  const top = best(
    c.view.seats.filter((s) => s.alive && s.id !== c.view.me.id),
    (s) => suspicionOf(c, s.id),
  );
  return defenseOf(c, c.record.claims.get(c.view.me.id) ?? null, resultsText(c), top?.id ?? null);
}
