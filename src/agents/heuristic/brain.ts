import type { GameEventOf, PlayerView, Rng } from '../../game/index.ts';
import { getRole, isMafia } from '../../game/index.ts';
import { must } from '../../result.ts';
import type { Beliefs } from '../beliefs.ts';
import type { Brain, Decision, DecisionRequest, TargetOption, Voice } from '../decision.ts';
import { contradiction } from '../player/contradiction.ts';
import { claimSince, pledgeToday, type Pledge } from './pledges.ts';
import { announcedVote, claimedRole, mentionsVoting, readRecord, type PublicRecord } from './reading.ts';
import { lines, say } from './speech.ts';
import { NO_INFORMATION, readSuspicion } from './suspicion.ts';
import { guessRoles } from './role-guesses.ts';
import { defenseOf, nominationOf, teammateShield, withNomination } from './trial.ts';

type Seat = PlayerView['seats'][number];

/**
 * The voice without phrases that would announce a vote on someone here ("Lynch Ann!") or claim a
 * role ("I'm the Doctor"): a flourish never pledges a vote or says who the seat is.
 */
function quietVoice(view: PlayerView, voice: Voice): Voice {
  // Most voices keep every phrase: the list is copied only once one has to go.
  let phrases: string[] | null = null;
  for (let i = 0; i < voice.phrases.length; i++) {
    const p = voice.phrases[i] as string;
    const kind = phraseKind(p);
    const keep = kind === 'plain' || (kind === 'vote word' && announcedVote(view, p, view.me.id) === null);
    if (keep) phrases?.push(p);
    else phrases ??= voice.phrases.slice(0, i);
  }
  return phrases === null ? voice : { ...voice, phrases };
}

// A seat's phrases are the same every decision: whether one claims a role or has a vote word at
// all is read once (only a vote word needs the table's names to tell whether it announces a vote).
const phraseKinds = new Map<string, 'plain' | 'claim' | 'vote word'>();
/** Phrases whose kind is kept; past it the cache starts over (the starter personas have a few dozen). */
const PHRASE_KINDS_KEPT = 4096;

function phraseKind(phrase: string): 'plain' | 'claim' | 'vote word' {
  let kind = phraseKinds.get(phrase);
  if (kind === undefined) {
    if (phraseKinds.size >= PHRASE_KINDS_KEPT) phraseKinds.clear();
    kind = claimedRole(phrase) !== null ? 'claim' : mentionsVoting(phrase) ? 'vote word' : 'plain';
    phraseKinds.set(phrase, kind);
  }
  return kind;
}

/** What one decision knows; methods instead of closures, since this is built for every decision. */
class Context {
  readonly record: PublicRecord;
  readonly beliefs: Beliefs;
  readonly voice: Voice | undefined;

  constructor(
    readonly req: DecisionRequest,
    readonly rng: Rng,
    voice: Voice | undefined,
  ) {
    this.record = readRecord(req.view);
    this.beliefs = readSuspicion(req.view, this.record, rng);
    guessRoles(req.view, this.record, this.beliefs);
    this.voice = voice && quietVoice(req.view, voice);
  }

  get view(): PlayerView {
    return this.req.view;
  }

  name(id: string): string {
    return this.seat(id)?.name ?? 'someone';
  }

  alive(id: string): boolean {
    return this.seat(id)?.alive ?? false;
  }

  private teamIds: Set<string> | null = null;

  /** This seat and its known teammates (only a Mafia seat knows any). */
  get team(): ReadonlySet<string> {
    return (this.teamIds ??= new Set([this.view.me.id, ...this.view.teammates.map((t) => t.id)]));
  }

  /** A table has a few seats: a scan costs less than building a map for each decision. */
  seat(id: string): Seat | undefined {
    for (const s of this.req.view.seats) if (s.id === id) return s;
    return undefined;
  }
}

function suspicionOf(c: Context, id: string): number {
  return c.beliefs[id]?.suspicion ?? 0.5;
}

function best<T>(items: readonly T[], score: (item: T) => number): T | undefined {
  let top: T | undefined;
  let topScore = -Infinity;
  for (const item of items) {
    const s = score(item);
    if (s > topScore) [top, topScore] = [item, s];
  }
  return top;
}

function votesOn(view: PlayerView, id: string): number {
  let n = 0;
  const { votes } = view;
  for (const voter in votes) if (votes[voter] === id) n++;
  return n;
}

// Suspicions are rounded to hundredths: their two-decimal text is looked up, not formatted (toFixed is a runtime call).
const HUNDREDTHS = Array.from({ length: 101 }, (_, k) => (k / 100).toFixed(2));

function twoDecimals(x: number): string {
  const k = Math.round(x * 100);
  return k >= 0 && k <= 100 && k / 100 === x ? (HUNDREDTHS[k] as string) : x.toFixed(2);
}

/** The top suspects, for the private reasoning line. */
function summary(c: Context, limit = 3): string {
  const top: { seat: Seat; belief: Beliefs[string] }[] = [];
  for (const seat of c.view.seats) {
    const belief = seat.alive ? c.beliefs[seat.id] : undefined;
    if (!belief) continue;
    let i = top.length;
    while (i > 0 && must(top[i - 1], 'a ranked suspect').belief.suspicion < belief.suspicion) i--;
    if (i < limit) {
      top.splice(i, 0, { seat, belief });
      if (top.length > limit) top.pop();
    }
  }
  let out = '';
  for (const { seat, belief } of top) out += `${out ? '; ' : ''}${seat.name} ${twoDecimals(belief.suspicion)} (${belief.reason})`;
  return out;
}

/** Living players this Detective has found to be Mafia. */
function foundMafia(c: Context): string[] {
  return c.view.investigations.filter((i) => i.result === 'mafia' && c.alive(i.targetId)).map((i) => i.targetId);
}

function resultsText(c: Context): string {
  return c.view.investigations
    .map((i) => `Night ${i.night}: ${c.name(i.targetId)} is ${i.result === 'mafia' ? 'Mafia' : 'innocent'}.`)
    .join(' ');
}

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

/** The Mafia's view of danger: a likely Detective first, then a likely Doctor, and whoever points at the team. */
function threat(c: Context, id: string): number {
  const team = c.team;
  let score = GUESS_THREAT[c.beliefs[id]?.roleGuess ?? 'none'] ?? (c.record.claims.has(id) ? 0.5 : 0);
  for (const accused of c.record.accusations.get(id) ?? []) if (team.has(accused)) score += 0.5;
  return score;
}

/** How much the Mafia want a likely holder of each power role dead; an unbelieved claim counts 0.5. */
const GUESS_THREAT: Partial<Record<string, number>> = { detective: 3, doctor: 2, vigilante: 1.5 };

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

function nightDecision(c: Context): Decision {
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

interface VoteChoice {
  readonly target: TargetOption | undefined;
  readonly why: string;
}

// The words contradiction() accepts right before a name it reads as a vote ("I vote X", "my vote goes to X").
const INTENT_TAIL = new Set(['vote', 'voting', 'for', 'on', 'to', 'is', 'goes', 'lynch']);

/** Whether `name` appears in `lower` right after one of INTENT_TAIL: only then can the line read as a vote for it. */
function afterIntent(lower: string, name: string): boolean {
  for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + 1)) {
    let end = at;
    while (end > 0 && isSpace(lower.charCodeAt(end - 1))) end--;
    if (end === at) continue;
    let start = end;
    while (start > 0 && isLowerAscii(lower.charCodeAt(start - 1))) start--;
    if (INTENT_TAIL.has(lower.slice(start, end))) return true;
  }
  return false;
}

/** What `/\s/` matches (JavaScript's white space and line terminators), without a regex per character. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** What `/[a-z]/` matches. */
function isLowerAscii(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

/** A vote line must name only the vote: checked as the LLM seats' answers are. */
function sayVote(c: Context, options: readonly string[], decided: string | null): string {
  const line = say(c.rng, c.voice, options);
  const lower = line.toLowerCase();
  const others = c.view.seats.filter((s) => s.id !== c.view.me.id).map((s) => s.name);
  // contradiction() compiles a pattern per name; it runs only when another name follows a vote word.
  const decidedLower = decided?.toLowerCase();
  const risky = others.some((n) => n.toLowerCase() !== decidedLower && afterIntent(lower, n.toLowerCase()));
  if (!risky || contradiction(line, 'vote', decided, others) === null) return line;
  return decided ? `${decided}. That is my vote.` : 'No lynch.';
}

function voteChoice(c: Context, choice: VoteChoice, options: (name: string) => readonly string[]): Decision {
  const { req } = c;
  const { target } = choice;
  const targetId = target?.id ?? (req.allowSkip ? 'no_lynch' : (req.targets[0]?.id ?? null));
  const named =
    targetId === 'no_lynch' || targetId === null ? null : (req.targets.find((t) => t.id === targetId)?.name ?? c.name(targetId));
  const speech = targetId === null ? null : sayVote(c, named ? options(named) : lines.noLynch, named);
  return {
    targetId,
    speech,
    reasoning: `Vote. Reads: ${summary(c)}. → ${named ?? 'no lynch'}: ${choice.why}.`,
    beliefs: c.beliefs,
    urgency: 0,
  };
}

function freshVote(c: Context): VoteChoice {
  const { view, req, rng } = c;
  const targets = req.targets;
  if (view.me.role === 'jester') return { target: rng.pick(targets), why: 'a Jester votes for chaos' };
  if (isMafia(view.me.role)) {
    const team = new Set(view.teammates.map((t) => t.id));
    const outsiders = targets.filter((t) => !team.has(t.id));
    const target = best(outsiders, (t) => 0.2 * votesOn(view, t.id) + threat(c, t.id) + rng.int(0, 50) / 100);
    return { target, why: 'pile onto a town player, never a teammate' };
  }
  const found = foundMafia(c).find((id) => targets.some((t) => t.id === id));
  if (found) return { target: targets.find((t) => t.id === found), why: 'my own investigation says Mafia' };
  const target = best(targets, (t) => suspicionOf(c, t.id) + 0.06 * votesOn(view, t.id));
  return { target, why: 'highest suspicion, leaning toward where votes already are' };
}

/** What public change since the pledge justifies leaving it for `otherId`, as a clause; null if none. */
function pledgeChange(c: Context, pledge: Pledge, otherId: string): string | null {
  const claimer = claimSince(c.view, c.record, pledge, otherId);
  if (claimer) return `${c.name(claimer)}'s claim changes that`;
  if (c.view.phase === 'vote' && votesOn(c.view, otherId) > votesOn(c.view, pledge.targetId)) {
    return `the votes on ${c.name(otherId)} change that`;
  }
  return null;
}

/** Votes as announced today, unless something public changed since; the line says which. */
function voteDecision(c: Context): Decision {
  if (c.req.targets.length === 0) return voteChoice(c, { target: undefined, why: 'nobody to vote' }, lines.vote);
  const fresh = freshVote(c);
  const pledge = pledgeToday(c.view, c.record);
  const promised = pledge && c.req.targets.find((t) => t.id === pledge.targetId);
  if (!pledge || !promised) return voteChoice(c, fresh, lines.vote);
  if (!fresh.target || fresh.target.id === promised.id) return voteChoice(c, { target: promised, why: fresh.why }, lines.keptVote);
  const change = pledgeChange(c, pledge, fresh.target.id);
  if (!change) return voteChoice(c, { target: promised, why: 'I announced this vote and nothing public changed' }, lines.keptVote);
  return voteChoice(c, { target: fresh.target, why: `${fresh.why}; ${change}` }, (name) => lines.changedVote(promised.name, change, name));
}

function accusedToday(c: Context): number {
  let n = 0;
  for (const s of c.record.speeches) if (s.day === c.view.day && s.accused.includes(c.view.me.id)) n++;
  return n;
}

function speechChoice(c: Context, speech: string, why: string, urgency: number): Decision {
  return { targetId: null, speech, reasoning: `Speak. Reads: ${summary(c)}. → ${why}.`, beliefs: c.beliefs, urgency };
}

function speakDecision(c: Context): Decision {
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
function keepWordInSpeech(c: Context, decision: Decision): Decision {
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

/** The brain's own decision with other words (its decisions have no fallback or tools): fields, not a spread. */
function withSpeech(decision: Decision, speech: string | null, reasoning: string): Decision {
  return { targetId: decision.targetId, speech, reasoning, beliefs: decision.beliefs, urgency: decision.urgency };
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

function lastWordsDecision(c: Context): Decision {
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
function trialSpeech(c: Context, spoken: Decision): Decision {
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

function defenseDecision(c: Context): Decision {
  const top = best(
    c.view.seats.filter((s) => s.alive && s.id !== c.view.me.id),
    (s) => suspicionOf(c, s.id),
  );
  return defenseOf(c, c.record.claims.get(c.view.me.id) ?? null, resultsText(c), top?.id ?? null);
}

function mafiaChatDecision(c: Context): Decision {
  const night = nightDecision(c);
  const target = night.targetId ? c.name(night.targetId) : null;
  const speech = say(c.rng, c.voice, target ? lines.proposeKill(target) : lines.holdKill);
  return withSpeech(night, speech, night.reasoning);
}

function decide(req: DecisionRequest, rng: Rng, voice: Voice | undefined): Decision {
  const c = new Context(req, rng, voice);
  switch (req.kind) {
    case 'night':
      return nightDecision(c);
    case 'vote':
      return voteDecision(c);
    case 'speak': {
      const spoken = keepWordInSpeech(c, speakDecision(c));
      // A trial day's discussion: the request lists whom the seat may nominate or second.
      return req.targets.length > 0 ? trialSpeech(c, spoken) : spoken;
    }
    case 'defense':
      return defenseDecision(c);
    case 'mafia_chat':
      return mafiaChatDecision(c);
    case 'last_words':
      return lastWordsDecision(c);
  }
}

/** The always-legal answer, used if anything in the heuristics goes wrong. */
function safeDecision(req: DecisionRequest, why: string): Decision {
  const targetId = req.kind === 'vote' ? (req.allowSkip ? 'no_lynch' : (req.targets[0]?.id ?? null)) : null;
  const speech = req.kind === 'speak' || req.kind === 'defense' || req.kind === 'last_words' ? '…' : null;
  return { targetId, speech, reasoning: `Fallback: ${why}`, beliefs: req.beliefs, urgency: 0 };
}

/** The offline brain: plays any seat legally with no LLM, and never throws. */
export function heuristicBrain(voice?: Voice): Brain {
  return (req, rng) => {
    try {
      return decide(req, rng, voice);
    } catch (error) {
      return safeDecision(req, error instanceof Error ? error.message : String(error));
    }
  };
}
