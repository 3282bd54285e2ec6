import { isMafia } from '../../game/index.ts';
import type { Decision, TargetOption } from '../decision.ts';
import { contradiction } from '../player/contradiction.ts';
import { claimSince, pledgeToday, type Pledge } from './pledges.ts';
import { lines, say } from './speech.ts';
import { best, foundMafia, summary, suspicionOf, threat, votesOn, type Context } from './context.ts';

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
export function voteDecision(c: Context): Decision {
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
