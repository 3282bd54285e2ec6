import { findPlayer, type GameEventOf, type GameState, type PlayerId, type PlayerState, type VoteTarget } from '../game/index.ts';
import { bySeat, daysPlayed, factionOf, outcomeLine, whyNoVote } from './game-facts.ts';
import { factionLegend, kindLegend, MARKER, playerMarker } from './markers.ts';
import { factionColour, INK, MUTED, NO_DATA, OKABE_ITO } from './palette.ts';
import { composePicture, label, type LegendItem, type Panel } from './picture.ts';
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
  const lynchedId = vote.lynchedId;
  if (lynchedId !== null) {
    const got = vote.votes.filter((v) => v.targetId === lynchedId).length;
    const name = fitText(nameOf(state, lynchedId), room * 0.45, TITLE_SIZE, true);
    return `Day ${day.day}: ${name} lynched, ${got} of ${vote.votes.length} votes`;
  }
  switch (vote.reason) {
    case 'plurality':
    case 'majority':
      return `Day ${day.day}: no one lynched`;
    case 'tie':
      return `Day ${day.day}: a tie, no one lynched`;
    case 'no_majority':
      return `Day ${day.day}: no majority, no one lynched`;
    case 'no_lynch':
      return `Day ${day.day}: the table chose no lynch`;
    case 'no_votes':
      return `Day ${day.day}: no one voted`;
    case 'no_nominees':
      return `Day ${day.day}: nobody stood accused, no vote`;
  }
}

/** Where a panel's two columns sit, at the width it is given. */
interface Columns {
  readonly width: number;
  readonly nameWidth: number;
  /** The voters' markers, names right-aligned before them. */
  readonly leftX: number;
  /** The targets' markers, then the count of votes, then the names. */
  readonly rightX: number;
  readonly day: string;
}

const rowY = (row: number): number => TOP + row * ROW + ROW / 2;

function columnsFor(width: number, day: number): Columns {
  const nameWidth = Math.round(width * 0.29);
  return { width, nameWidth, leftX: PAD + nameWidth + 10, rightX: width - PAD - nameWidth - 46, day: String(day) };
}

/** One player's row: name and marker as a voter, marker, votes received and name as a target. */
function playerRow(c: Columns, p: PlayerState, row: number, vote: ClosedVote, received: number, voted: boolean): Shape[] {
  const y = rowY(row);
  const faction = factionOf(p);
  const fill = factionColour(faction);
  const base = { day: c.day, id: p.id, faction: faction ?? 'none', kind: p.kind };
  const lynched = p.id === vote.lynchedId;
  const shapes: Shape[] = [];
  if (lynched) {
    const bandX = c.rightX - MARKER - 6;
    shapes.push({
      kind: 'rect',
      x: bandX,
      y: y - ROW / 2 + 1,
      width: c.width - PAD - bandX + 6,
      height: ROW - 2,
      radius: 4,
      fill: OKABE_ITO.yellow,
      opacity: 0.75,
      tags: { part: 'lynched', day: c.day, id: p.id },
    });
  }
  shapes.push(
    label(c.leftX - MARKER - 6, y + 5, fitText(p.name, c.nameWidth - 4, NAME_SIZE), { anchor: 'end' }),
    playerMarker(p.kind, c.leftX, y, fill, { part: 'player', side: 'voter', ...base }),
    playerMarker(p.kind, c.rightX, y, fill, { part: 'player', side: 'target', ...base, ...(lynched && { lynched: 'true' }) }),
    label(c.rightX + 42, y + 5, fitText(p.name, c.width - PAD - c.rightX - 42, NAME_SIZE, lynched), { bold: lynched }),
  );
  if (lynched) {
    const ring = { part: 'lynched-ring', day: c.day, id: p.id };
    shapes.push({ kind: 'circle', x: c.rightX, y, r: MARKER + 4, fill: 'none', stroke: INK, strokeWidth: 2.5, tags: ring });
  }
  if (received > 0) shapes.push(label(c.rightX + 14, y + 5, String(received), { bold: true }));
  if (!voted)
    shapes.push(
      label(c.leftX + MARKER + 6, y + 4, 'no vote', { size: 12, fill: MUTED, tags: { part: 'abstained', day: c.day, id: p.id } }),
    );
  return shapes;
}

function noLynchRow(c: Columns, row: number, received: number): Shape[] {
  const y = rowY(row);
  return [
    {
      kind: 'rect',
      x: c.rightX - MARKER,
      y: y - MARKER,
      width: 2 * MARKER,
      height: 2 * MARKER,
      fill: NO_DATA,
      stroke: MUTED,
      strokeWidth: 1,
      dashed: true,
      tags: { part: 'no-lynch', day: c.day },
    },
    label(c.rightX + 14, y + 5, String(received), { bold: true }),
    label(c.rightX + 42, y + 5, NO_LYNCH_LABEL, { fill: MUTED }),
  ];
}

/** One arrow per vote, in the voter's colour; arrows into one target fan out a little, so each head shows. */
function arrows(
  state: GameState,
  c: Columns,
  vote: ClosedVote,
  rowOf: ReadonlyMap<string, number>,
  received: ReadonlyMap<string, number>,
): Shape[] {
  const into = new Map<string, number>();
  return vote.votes.flatMap((v): Shape[] => {
    const from = rowOf.get(v.voterId);
    const to = rowOf.get(v.targetId);
    const voter = findPlayer(state, v.voterId);
    if (from === undefined || to === undefined || !voter) return [];
    const k = received.get(v.targetId) ?? 1;
    const i = into.get(v.targetId) ?? 0;
    into.set(v.targetId, i + 1);
    const spread = Math.min(3, 14 / k);
    return [
      {
        kind: 'edge',
        from: { x: c.leftX + MARKER + 2, y: rowY(from) },
        to: { x: c.rightX - MARKER - 2, y: rowY(to) + (i - (k - 1) / 2) * spread },
        colour: factionColour(factionOf(voter)),
        width: 2,
        opacity: 0.8,
        tags: { part: 'vote', day: c.day, voter: v.voterId, target: v.targetId },
      },
    ];
  });
}

/** Voters on the left, the voted-for on the right (everyone alive, then "no lynch"), one arrow per vote. */
function votePanel(state: GameState, day: VoteDay, width: number): Panel {
  const c = columnsFor(width, day.day);
  const tags = { part: 'vote-day', day: c.day };
  const heading = fitText(headline(state, day, width - 2 * PAD), width - 2 * PAD, TITLE_SIZE, true);
  const title = label(PAD, 30, heading, { size: TITLE_SIZE, bold: true, tags: { part: 'headline', day: c.day } });
  const vote = day.vote;
  if (!vote) return { height: 48, shapes: [title], tags };

  const players = vote.present.map((id) => findPlayer(state, id)).filter((p): p is PlayerState => p !== undefined);
  const received = new Map<string, number>();
  for (const v of vote.votes) received.set(v.targetId, (received.get(v.targetId) ?? 0) + 1);
  const rowOf = new Map<string, number>(players.map((p, i) => [p.id, i]));
  const noLynch = received.get('no_lynch') ?? 0;
  if (noLynch > 0) rowOf.set('no_lynch', players.length);
  const voted = new Set(vote.votes.map((v) => v.voterId));

  const shapes: Shape[] = [
    title,
    ...players.flatMap((p, row) => playerRow(c, p, row, vote, received.get(p.id) ?? 0, voted.has(p.id))),
    ...(noLynch > 0 ? noLynchRow(c, players.length, noLynch) : []),
    ...arrows(state, c, vote, rowOf, received),
  ];
  return { height: TOP + (players.length + (noLynch > 0 ? 1 : 0)) * ROW + PAD, shapes, tags };
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
