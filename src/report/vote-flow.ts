import { findPlayer, type GameEventOf, type GameState, type PlayerId, type PlayerState, type VoteTarget } from '../game/index.ts';
import { bySeat, daysPlayed, factionOf, outcomeLine, whyNoVote } from './game-facts.ts';
import { factionLegend, kindLegend, MARKER, playerMarker } from './markers.ts';
import { factionColour, INK, MUTED, NO_DATA, OKABE_ITO } from './palette.ts';
import { composePicture, type LegendItem, type Panel } from './picture.ts';
import type { Scene, Shape } from './scene.ts';
import { fitText } from './text.ts';

type VoteResolved = GameEventOf<'vote_resolved'>['payload'];

interface VoteCast {
  readonly voterId: PlayerId;
  /** A player's id, or 'no_lynch'. */
  readonly targetId: VoteTarget;
}

interface ClosedVote {
  /** Everyone alive when the vote closed, in seat order: who could vote and be voted for. */
  readonly present: readonly PlayerId[];
  /** The votes standing at the close (a changed vote counts once, as its last choice), by voter seat. */
  readonly votes: readonly VoteCast[];
  readonly lynchedId: PlayerId | null;
  readonly reason: VoteResolved['reason'];
}

interface VoteDay {
  readonly day: number;
  /** Null when the game ended before the day's vote. */
  readonly vote: ClosedVote | null;
}

/** Each day the game reached, with its vote as it closed. */
function voteDays(state: GameState): VoteDay[] {
  const alive = new Set(state.players.map((p) => p.id));
  const seatOf = (id: PlayerId) => findPlayer(state, id)?.seat ?? 0;
  const closed = new Map<number, ClosedVote>();
  for (const e of state.log) {
    if (e.type === 'player_died') alive.delete(e.payload.playerId);
    if (e.type !== 'vote_resolved') continue;
    const votes = e.payload.tally.flatMap((t) => t.voters.map((voterId) => ({ voterId, targetId: t.targetId })));
    closed.set(e.payload.day, {
      present: [...alive].sort((a, b) => seatOf(a) - seatOf(b)),
      votes: votes.sort((a, b) => seatOf(a.voterId) - seatOf(b.voterId)),
      lynchedId: e.payload.lynchedId,
      reason: e.payload.reason,
    });
  }
  return daysPlayed(state).map((day) => ({ day, vote: closed.get(day) ?? null }));
}

const PAD = 14;
const ROW = 26;
const TOP = 50;
const NAME_SIZE = 14;
const TITLE_SIZE = 17;
const NO_LYNCH_LABEL = 'no lynch';

function nameOf(state: GameState, id: PlayerId): string {
  return findPlayer(state, id)?.name ?? id;
}

function headline(state: GameState, day: VoteDay, room: number): string {
  const vote = day.vote;
  if (!vote) return `Day ${day.day}: no vote, ${whyNoVote(state, day.day)}`;
  const count = vote.votes.length;
  switch (vote.reason) {
    case 'plurality':
    case 'majority': {
      const lynched = vote.lynchedId ?? '';
      const got = vote.votes.filter((v) => v.targetId === lynched).length;
      const name = fitText(nameOf(state, lynched), room * 0.45, TITLE_SIZE, true);
      return `Day ${day.day}: ${name} lynched, ${got} of ${count} votes`;
    }
    case 'tie':
      return `Day ${day.day}: a tie, no one lynched`;
    case 'no_majority':
      return `Day ${day.day}: no majority, no one lynched`;
    case 'no_lynch':
      return `Day ${day.day}: the table chose no lynch`;
    case 'no_votes':
      return `Day ${day.day}: no one voted`;
  }
}

/** Voters on the left, the voted-for on the right (everyone alive, then "no lynch"), one arrow per vote. */
function votePanel(state: GameState, day: VoteDay, width: number): Panel {
  const tags = { part: 'vote-day', day: String(day.day) };
  const title: Shape = {
    kind: 'text',
    x: PAD,
    y: 30,
    text: fitText(headline(state, day, width - 2 * PAD), width - 2 * PAD, TITLE_SIZE, true),
    size: TITLE_SIZE,
    fill: INK,
    anchor: 'start',
    bold: true,
    tags: { part: 'headline', day: String(day.day) },
  };
  const vote = day.vote;
  if (!vote) return { height: 48, shapes: [title], tags };

  const nameWidth = Math.round(width * 0.29);
  const leftX = PAD + nameWidth + 10;
  const rightX = width - PAD - nameWidth - 46;
  const players = vote.present.map((id) => findPlayer(state, id)).filter((p): p is PlayerState => p !== undefined);
  const rowOf = new Map<string, number>(players.map((p, i) => [p.id, i]));
  const noLynchVotes = vote.votes.filter((v) => v.targetId === 'no_lynch').length;
  if (noLynchVotes > 0) rowOf.set('no_lynch', players.length);
  const rows = players.length + (noLynchVotes > 0 ? 1 : 0);
  const y = (row: number) => TOP + row * ROW + ROW / 2;
  const d = String(day.day);

  const shapes: Shape[] = [title];
  const received = new Map<string, number>();
  for (const v of vote.votes) received.set(v.targetId, (received.get(v.targetId) ?? 0) + 1);

  // The lynched row's band goes first, under its marker and name.
  const lynchedRow = vote.lynchedId === null ? undefined : rowOf.get(vote.lynchedId);
  if (lynchedRow !== undefined && vote.lynchedId !== null) {
    shapes.push({
      kind: 'rect',
      x: rightX - MARKER - 6,
      y: TOP + lynchedRow * ROW + 1,
      width: width - PAD - (rightX - MARKER - 6) + 6,
      height: ROW - 2,
      radius: 4,
      fill: OKABE_ITO.yellow,
      opacity: 0.75,
      tags: { part: 'lynched', day: d, id: vote.lynchedId },
    });
  }

  const voted = new Set(vote.votes.map((v) => v.voterId));
  players.forEach((p, row) => {
    const faction = factionOf(p);
    const fill = factionColour(faction);
    const base = { day: d, id: p.id, faction: faction ?? 'none', kind: p.kind };
    const lynched = p.id === vote.lynchedId;
    shapes.push(
      {
        kind: 'text',
        x: leftX - MARKER - 6,
        y: y(row) + 5,
        text: fitText(p.name, nameWidth - 4, NAME_SIZE),
        size: NAME_SIZE,
        fill: INK,
        anchor: 'end',
      },
      playerMarker(p.kind, leftX, y(row), fill, { part: 'player', side: 'voter', ...base }),
      playerMarker(p.kind, rightX, y(row), fill, { part: 'player', side: 'target', ...base, ...(lynched && { lynched: 'true' }) }),
      {
        kind: 'text',
        x: rightX + 42,
        y: y(row) + 5,
        text: fitText(p.name, width - PAD - rightX - 42, NAME_SIZE, lynched),
        size: NAME_SIZE,
        fill: INK,
        anchor: 'start',
        bold: lynched,
      },
    );
    if (lynched)
      shapes.push({
        kind: 'circle',
        x: rightX,
        y: y(row),
        r: MARKER + 4,
        fill: 'none',
        stroke: INK,
        strokeWidth: 2.5,
        tags: { part: 'lynched-ring', day: d, id: p.id },
      });
    const got = received.get(p.id);
    if (got)
      shapes.push({ kind: 'text', x: rightX + 14, y: y(row) + 5, text: `${got}`, size: NAME_SIZE, fill: INK, anchor: 'start', bold: true });
    if (!voted.has(p.id))
      shapes.push({
        kind: 'text',
        x: leftX + MARKER + 6,
        y: y(row) + 4,
        text: 'no vote',
        size: 12,
        fill: MUTED,
        anchor: 'start',
        tags: { part: 'abstained', day: d, id: p.id },
      });
  });
  if (noLynchVotes > 0) {
    const row = players.length;
    shapes.push(
      {
        kind: 'rect',
        x: rightX - MARKER,
        y: y(row) - MARKER,
        width: 2 * MARKER,
        height: 2 * MARKER,
        fill: NO_DATA,
        stroke: MUTED,
        strokeWidth: 1,
        dashed: true,
        tags: { part: 'no-lynch', day: d },
      },
      { kind: 'text', x: rightX + 14, y: y(row) + 5, text: `${noLynchVotes}`, size: NAME_SIZE, fill: INK, anchor: 'start', bold: true },
      { kind: 'text', x: rightX + 42, y: y(row) + 5, text: NO_LYNCH_LABEL, size: NAME_SIZE, fill: MUTED, anchor: 'start' },
    );
  }

  // Arrows into one target fan out a little, so each arrowhead stays visible.
  const into = new Map<string, number>();
  for (const v of vote.votes) {
    const from = rowOf.get(v.voterId);
    const to = rowOf.get(v.targetId);
    const voter = findPlayer(state, v.voterId);
    if (from === undefined || to === undefined || !voter) continue;
    const k = received.get(v.targetId) ?? 1;
    const i = into.get(v.targetId) ?? 0;
    into.set(v.targetId, i + 1);
    const spread = Math.min(3, 14 / k);
    shapes.push({
      kind: 'edge',
      from: { x: leftX + MARKER + 2, y: y(from) },
      to: { x: rightX - MARKER - 2, y: y(to) + (i - (k - 1) / 2) * spread },
      colour: factionColour(factionOf(voter)),
      width: 2,
      opacity: 0.8,
      tags: { part: 'vote', day: d, voter: v.voterId, target: v.targetId },
    });
  }
  return { height: TOP + rows * ROW + PAD, shapes, tags };
}

function legend(state: GameState): LegendItem[] {
  return [
    ...kindLegend(state),
    ...factionLegend(state),
    {
      swatch: [{ kind: 'edge', from: { x: 0, y: 8 }, to: { x: 16, y: 8 }, colour: INK, width: 2, opacity: 0.8 }],
      label: "a vote, in the voter's colour",
    },
    {
      swatch: [
        { kind: 'rect', x: 0, y: 1, width: 16, height: 14, radius: 3, fill: OKABE_ITO.yellow, opacity: 0.75 },
        { kind: 'circle', x: 8, y: 8, r: 6, fill: 'none', stroke: INK, strokeWidth: 2 },
      ],
      label: 'lynched',
    },
  ];
}

/** The vote-flow picture: one panel per day, players in their true side's colours; null before night 1. */
export function voteFlowScene(state: GameState, title: string): Scene | null {
  const days = voteDays(state);
  if (days.length === 0) return null;
  return composePicture({
    title: `Who voted for whom: ${title}`,
    subtitle: `${outcomeLine(state)} Colours are each player's true side, revealed at the end.`,
    legend: legend(state),
    panels: days.map((day) => (width: number) => votePanel(state, day, width)),
    columns: 2,
    footer: `Dramatis · game ${state.id} · ${bySeat(state).length} players`,
  });
}
