import { getRole, type DeathCause, type GameEvent, type PlayerView } from '../../game/index.ts';
import { readRecord } from '../heuristic/reading.ts';
import { neutralise, speechLine } from './quote.ts';

/**
 * The game's record as the lines a seat's model reads: engine lines (`[vote] …`, `[death] …`)
 * and quoted speech. Today's transcript, the facts of earlier days and the Mafia thread are all
 * written here, from events, so what a seat is told of a day never depends on a model's recap.
 */

export type NameOf = (id: string) => string;

const DIED: Record<DeathCause, string> = {
  lynch: 'was lynched',
  mafia: 'was killed by the Mafia',
  vigilante: 'was shot',
  left: 'left the game',
};

const target = (id: string, name: NameOf): string => (id === 'no_lynch' ? 'no lynch' : name(id));

function deathLine(e: Extract<GameEvent, { type: 'player_died' }>, name: NameOf): string {
  return `[death] ${name(e.payload.playerId)} ${DIED[e.payload.cause]}${e.payload.role ? ` — ${getRole(e.payload.role).name}` : ''}.`;
}

/** The final ballots of a vote, every voter named: "Ann → Bob, Cy → no lynch". */
function ballots(e: Extract<GameEvent, { type: 'vote_resolved' }>, name: NameOf): string {
  return e.payload.tally.flatMap((group) => group.voters.map((voter) => `${name(voter)} → ${target(group.targetId, name)}`)).join(', ');
}

/** The verdict, and for a day told only as facts every final ballot (a transcript shows each vote as it is cast). */
function verdictLine(e: Extract<GameEvent, { type: 'vote_resolved' }>, name: NameOf, withBallots: boolean): string {
  const verdict = e.payload.lynchedId ? `${name(e.payload.lynchedId)} lynched` : `nobody lynched (${e.payload.reason.replace('_', ' ')})`;
  const cast = withBallots ? ballots(e, name) : '';
  return `[vote result] ${verdict}${cast ? `; final votes: ${cast}` : ''}.`;
}

/** One public event as a transcript line, or null for events a transcript does not show. */
export function transcriptLine(e: GameEvent, name: NameOf, windowStartsAt: number): string | null {
  switch (e.type) {
    case 'speech':
      if (e.payload.channel === 'mafia') return null;
      return `${e.payload.channel === 'last_words' ? '(last words) ' : ''}${speechLine(name(e.payload.playerId), e.payload)}`;
    case 'vote_cast':
      return `[vote] ${name(e.payload.voterId)} → ${target(e.payload.targetId, name)}`;
    case 'vote_withdrawn':
      return `[vote] ${name(e.payload.voterId)} withdraws their vote`;
    case 'player_died':
      return deathLine(e, name);
    case 'night_resolved':
      return e.payload.deaths.length === 0 ? '[dawn] Nobody died in the night.' : null;
    case 'vote_resolved':
      return verdictLine(e, name, false);
    case 'phase_started':
      if (e.payload.defendantId) return `[defense] ${name(e.payload.defendantId)} speaks in their defense.`;
      // The nightfall that opens the window is its heading; a later one splits yesterday from tonight.
      return e.payload.phase === 'night' && e.seq > windowStartsAt ? `[night] Night ${e.payload.day} falls.` : null;
    case 'nominated':
      return `[nomination] ${name(e.payload.nominatorId)} nominates ${name(e.payload.targetId)} for trial.`;
    case 'nomination_seconded':
      return `[nomination] ${name(e.payload.seconderId)} seconds: ${name(e.payload.targetId)} stands accused.`;
    case 'defense_rested':
      return `[defense] ${name(e.payload.playerId)} rests their case.`;
    case 'notice':
      return `[notice] ${neutralise(e.payload.text)}`;
    default:
      return null;
  }
}

/** One Mafia-thread event as a line, or null. */
export function mafiaLine(e: GameEvent, name: NameOf): string | null {
  if (e.type === 'speech' && e.payload.channel === 'mafia') return speechLine(name(e.payload.playerId), e.payload);
  if (e.type === 'mafia_proposal')
    return `[proposal] ${name(e.payload.actorId)} → ${e.payload.targetId ? name(e.payload.targetId) : 'nobody'} (round ${e.payload.round})`;
  if (e.type === 'mafia_decision') return `[decided] ${e.payload.targetId ? name(e.payload.targetId) : 'nobody'}`;
  return null;
}

/**
 * The facts of one earlier day that the engine vouches for, as lines: every death with its cause
 * and revealed role, the role claims and claimed results made in speech, and the vote with every
 * final ballot. A model's recap of the day may follow; it adds a reading, never a fact.
 */
export function dayFacts(view: PlayerView, day: number, name: NameOf): string[] {
  const lines: string[] = [];
  let current = 0;
  for (const e of view.events) {
    if (e.type === 'phase_started') current = e.payload.day;
    if (current !== day || e.visibility.kind !== 'public') continue;
    if (e.type === 'player_died') lines.push(deathLine(e, name));
    else if (e.type === 'night_resolved' && e.payload.deaths.length === 0) lines.push('[dawn] Nobody died in the night.');
    else if (e.type === 'nominated') lines.push(`[trial] ${name(e.payload.nominatorId)} nominated ${name(e.payload.targetId)}.`);
    else if (e.type === 'nomination_seconded')
      lines.push(`[trial] ${name(e.payload.seconderId)} seconded the nomination of ${name(e.payload.targetId)}.`);
    else if (e.type === 'phase_started' && e.payload.defendantId)
      lines.push(`[defense] ${name(e.payload.defendantId)} spoke in their defense.`);
    else if (e.type === 'vote_resolved') {
      const claims = claimsOf(view, day, name);
      if (claims.length > 0) lines.push(`[claims] ${claims.join('; ')}.`);
      lines.push(verdictLine(e, name, true));
    }
  }
  // A day cut short (the game ended at dawn, a draw) still tells its claims.
  if (!lines.some((l) => l.startsWith('[claims]') || l.startsWith('[vote result]'))) {
    const claims = claimsOf(view, day, name);
    if (claims.length > 0) lines.push(`[claims] ${claims.join('; ')}.`);
  }
  return lines;
}

/** Role claims and claimed results of one day's public speeches, each once, in the order made. */
function claimsOf(view: PlayerView, day: number, name: NameOf): string[] {
  const claims: string[] = [];
  for (const s of readRecord(view).speeches) {
    if (s.day !== day) continue;
    if (s.roleClaim) claims.push(`${name(s.speakerId)} claimed ${getRole(s.roleClaim).name}`);
    for (const [target, result] of s.results)
      claims.push(`${name(s.speakerId)} called ${name(target)} ${result === 'mafia' ? 'Mafia' : 'innocent'}`);
  }
  return [...new Set(claims)];
}

/**
 * What a defendant answers: who nominated and seconded them, what was said of them today (quoted),
 * and how their accusers have voted on earlier days.
 */
export function accusationLines(view: PlayerView, name: NameOf): string[] {
  const me = view.me.id;
  const accusers: string[] = [];
  const lines: string[] = [];
  for (const n of view.trial.nominations) {
    if (n.targetId !== me) continue;
    accusers.push(n.nominatorId, ...n.seconderIds);
    const seconded = n.seconderIds.length > 0 ? `, seconded by ${n.seconderIds.map(name).join(' and ')}` : '';
    lines.push(`You were nominated by ${name(n.nominatorId)}${seconded}.`);
  }
  const myName = view.seats.find((s) => s.id === me)?.name ?? '';
  let day = 0;
  const said: string[] = [];
  for (const e of view.events) {
    if (e.type === 'phase_started') day = e.payload.day;
    else if (
      day === view.day &&
      e.type === 'speech' &&
      e.payload.channel === 'town' &&
      e.payload.playerId !== me &&
      myName &&
      e.payload.text.includes(myName)
    )
      said.push(speechLine(name(e.payload.playerId), e.payload));
  }
  // The latest say the most about the case as it stands.
  if (said.length > 0) lines.push('What was said of you today:', ...said.slice(-6));
  const votes: string[] = [];
  for (const e of view.events) {
    if (e.type !== 'vote_resolved') continue;
    for (const group of e.payload.tally)
      for (const voter of group.voters)
        if (accusers.includes(voter)) votes.push(`day ${e.payload.day}: ${name(voter)} → ${target(group.targetId, name)}`);
  }
  lines.push(votes.length > 0 ? `Your accusers' votes so far: ${votes.join('; ')}.` : 'Your accusers have cast no vote yet.');
  return lines;
}
