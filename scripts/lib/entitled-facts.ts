/**
 * What a seat's prompt must tell it, checked against the view the prompt was built from: every
 * fact the seat is entitled to, present verbatim or in a line that names it. The property test
 * and the bench (`llm.entitledFactsMissing`) both audit prompts with this.
 *
 * It reads the prompt as text, looking for the fact's parts on one line, so it holds whatever
 * section a fact is told in (today's transcript, an earlier day's facts, the memory). Speeches are
 * audited as the view holds them: an edited one by its new words (its claim is the new one), a
 * deleted one by nothing it said (it claims nothing), a deleted Mafia line as told deleted.
 */
import { claimedRole } from '../../src/agents/heuristic/reading.ts';
import { neutralise, quoteSpeech } from '../../src/agents/player/quote.ts';
import { getRole, isMafia, type DeathCause, type PlayerView } from '../../src/game/index.ts';
import type { LlmRequest } from '../../src/llm/types.ts';

/** Everything a model reads of a request: the system parts, then every message. */
export function promptText(request: LlmRequest): string {
  return [request.system.shared ?? '', request.system.stable, request.system.dynamic ?? '', ...request.messages.map((m) => m.content)].join(
    '\n',
  );
}

/** How each cause of death may be worded on the line that tells it. */
const CAUSE: Record<DeathCause, RegExp> = {
  lynch: /\blynched\b/,
  mafia: /killed by the Mafia|killed in the night/,
  vigilante: /\bshot\b/,
  left: /left the game/,
};

/** The facts `view` entitles its seat to that `prompt` does not tell, each described in a line. */
export function missingFacts(view: PlayerView, prompt: string): string[] {
  const names = new Map(view.seats.map((s) => [s.id, neutralise(s.name)]));
  const name = (id: string | null): string => (id === null ? 'nobody' : (names.get(id) ?? id));
  const onALine = (...parts: (string | RegExp)[]): boolean => {
    const holds = (line: string) => parts.every((part) => (typeof part === 'string' ? line.includes(part) : part.test(line)));
    const first = parts.find((part): part is string => typeof part === 'string');
    if (first === undefined) return prompt.split('\n').some(holds);
    // Only the lines where the first text part occurs (a prompt has hundreds of lines, and a fact is looked up for each event).
    for (let at = prompt.indexOf(first); at !== -1; at = prompt.indexOf(first, at + 1)) {
      const end = prompt.indexOf('\n', at);
      const line = prompt.slice(prompt.lastIndexOf('\n', at) + 1, end === -1 ? prompt.length : end);
      if (holds(line)) return true;
      if (end === -1) break;
      at = end;
    }
    return false;
  };
  const missing: string[] = [];
  const need = (told: boolean, fact: string) => {
    if (!told) missing.push(fact);
  };

  let day = 0;
  for (const e of view.events) {
    if (e.type === 'phase_started') {
      day = e.payload.day;
      const defendant = e.payload.defendantId;
      if (defendant) need(onALine('[defense]', name(defendant)), `day ${day} defense of ${name(defendant)}`);
    } else if (e.type === 'nominated') {
      const [by, whom] = [name(e.payload.nominatorId), name(e.payload.targetId)];
      need(onALine(by, 'nominate', whom), `day ${day} nomination of ${whom} by ${by}`);
    } else if (e.type === 'nomination_seconded') {
      const [by, whom] = [name(e.payload.seconderId), name(e.payload.targetId)];
      need(onALine(by, 'second', whom), `day ${day} second of ${whom} by ${by}`);
    } else if (e.type === 'player_died') {
      const role = e.payload.role ? getRole(e.payload.role).name : null;
      const parts = [name(e.payload.playerId), CAUSE[e.payload.cause], ...(role ? [role] : [])];
      need(onALine(...parts), `death of ${name(e.payload.playerId)} (${e.payload.cause}${role ? `, ${role}` : ''}) on day ${day}`);
    } else if (e.type === 'vote_resolved') {
      for (const group of e.payload.tally)
        for (const voter of group.voters) {
          const ballot = `${name(voter)} → ${group.targetId === 'no_lynch' ? 'no lynch' : name(group.targetId)}`;
          need(onALine(ballot), `day ${e.payload.day} vote ${ballot}`);
        }
    } else if (e.type === 'speech' && e.payload.channel !== 'mafia') {
      const role = claimedRole(e.payload.text);
      if (role === null) continue;
      const speaker = name(e.payload.playerId);
      const raw = view.seats.find((s) => s.id === e.payload.playerId)?.name ?? e.payload.playerId;
      const verbatim = prompt.includes(quoteSpeech(raw, e.payload.text));
      need(verbatim || onALine(`${speaker} claimed ${getRole(role).name}`), `day ${day} claim by ${speaker} of ${getRole(role).name}`);
    } else if (e.type === 'speech' && e.payload.channel === 'mafia') {
      const raw = view.seats.find((s) => s.id === e.payload.playerId)?.name ?? e.payload.playerId;
      // A line its author deleted is told as deleted; an edited one is quoted as it reads now.
      const told = e.payload.deleted ? onALine('[deleted]', name(e.payload.playerId)) : prompt.includes(quoteSpeech(raw, e.payload.text));
      need(told, `Mafia thread line by ${name(e.payload.playerId)} on night ${day}`);
    } else if (e.type === 'investigation_result') {
      const result = e.payload.result === 'mafia' ? /mafia/i : /innocent/i;
      need(onALine(`investigated ${name(e.payload.targetId)}`, result), `night ${e.payload.night} result on ${name(e.payload.targetId)}`);
    } else if (e.type === 'night_action' && e.payload.actorId === view.me.id && e.payload.action !== 'investigate') {
      const verb = e.payload.action === 'protect' ? 'protected' : 'shot at';
      const told = e.payload.targetId === null ? onALine(`Night ${day}: you did nothing`) : onALine(`${verb} ${name(e.payload.targetId)}`);
      need(told, `own night ${day} action on ${name(e.payload.targetId)}`);
    } else if (e.type === 'mafia_decision') {
      need(onALine(`the Mafia targeted ${name(e.payload.targetId)}`), `night ${day} Mafia kill decision on ${name(e.payload.targetId)}`);
    }
  }
  // Ballots of a vote still open are told as they are cast.
  for (const [voter, target] of view.phase === 'vote' ? Object.entries(view.votes) : []) {
    const ballot = `${name(voter)} → ${target === 'no_lynch' ? 'no lynch' : name(target)}`;
    need(onALine(ballot), `today's vote ${ballot}`);
  }
  if (isMafia(view.me.role))
    for (const mate of view.teammates) need(onALine('Your Mafia team:', name(mate.id)), `teammate ${name(mate.id)}`);
  return missing;
}
