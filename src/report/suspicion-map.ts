import type { GameState, PlayerId, PlayerState } from '../game/index.ts';
import { aliveAfter, bySeat, daysPlayed, deadBefore, factionOf, outcomeLine, whyNoVote } from './game-facts.ts';
import { factionLegend, MARKER, playerMarker } from './markers.ts';
import { factionColour, HEAT_RAMP, heatColour, inkOn, INK, MUTED, NO_DATA, OKABE_ITO } from './palette.ts';
import { composePicture, label, type LegendItem, type Panel } from './picture.ts';
import type { Scene, Shape } from './scene.ts';
import { fitText } from './text.ts';

interface SeatReading {
  readonly seatId: PlayerId;
  /** The seat's suspicion of each player it rated, 0 (surely town) … 1 (surely Mafia). */
  readonly suspicion: Readonly<Record<PlayerId, number>>;
}

export interface SuspicionDay {
  readonly day: number;
  /** Whether the day reached its vote (else the game ended first, e.g. at night). */
  readonly voted: boolean;
  readonly rows: readonly SeatReading[];
}

/**
 * Each AI seat's suspicions at the end of each day. A day runs from its night to its last words
 * (the engine's cycle: night d comes before day d), so a seat's reading at the end of day d is the
 * suspicion of its last decision, in log order, made for a phase of day d or earlier. Rows are the
 * AI seats still in the game at the end of that day, and the one lynched that day (its last read
 * is the one that went down with it); seats killed at night show up to the day before. Null when
 * no AI seat ever recorded a suspicion (no AI seats, or a log from before suspicions were kept).
 */
export function suspicionDays(state: GameState): SuspicionDay[] | null {
  const seats = bySeat(state).filter((p) => p.kind === 'ai');
  const readings = state.log.flatMap((e) =>
    e.type === 'reasoning' && e.payload.suspicion
      ? [{ seatId: e.payload.playerId, day: e.payload.day, suspicion: e.payload.suspicion }]
      : [],
  );
  if (seats.length === 0 || readings.length === 0) return null;
  const votedDays = new Set(state.log.flatMap((e) => (e.type === 'vote_resolved' ? [e.payload.day] : [])));
  return daysPlayed(state).map((day) => ({
    day,
    voted: votedDays.has(day),
    rows: seats
      .filter((p) => aliveAfter(p, day) || (p.death?.day === day && p.death.cause === 'lynch'))
      .flatMap((p) => {
        const last = readings.findLast((r) => r.seatId === p.id && r.day <= day);
        return last ? [{ seatId: p.id, suspicion: last.suspicion }] : [];
      }),
  }));
}

const PAD = 14;
const ROW = 28;
const MAX_CELL = 52;
const NAME_SIZE = 14;
const TITLE_SIZE = 17;
const COLUMN_LABEL = 140;
const COLUMN_SIZE = 13;
const FADED = 0.3;
const SLANT = -50;
/** Room right of the grid for the slanted column names. */
const SLANT_REACH = Math.ceil(COLUMN_LABEL * Math.cos((SLANT * Math.PI) / 180));
const HEADER = Math.ceil(COLUMN_LABEL * Math.sin((-SLANT * Math.PI) / 180)) + 14;

/** Where a panel's grid sits, at the width it is given. */
interface Grid {
  readonly day: number;
  readonly players: readonly PlayerState[];
  readonly labelWidth: number;
  readonly x: number;
  readonly y: number;
  readonly cell: number;
}

function gridFor(state: GameState, day: number, width: number): Grid {
  const players = bySeat(state);
  const labelWidth = Math.min(190, Math.round(width * 0.28));
  const x = PAD + labelWidth + 8;
  const cell = Math.max(12, Math.min(MAX_CELL, Math.floor((width - x - PAD - SLANT_REACH) / players.length)));
  return { day, players, labelWidth, x, y: 44 + HEADER, cell };
}

/** Every player's name, slanted above their column: the true Mafia in bold vermillion, the dead with a dagger. */
function columnHeaders(g: Grid): Shape[] {
  return g.players.map((p, col) => {
    const mafia = factionOf(p) === 'mafia';
    const name = fitText(`${deadBefore(p, g.day) ? '† ' : ''}${p.name}`, COLUMN_LABEL, COLUMN_SIZE, mafia);
    return label(g.x + col * g.cell + g.cell / 2 - 3, g.y - 8, name, {
      size: COLUMN_SIZE,
      fill: mafia ? OKABE_ITO.vermillion : INK,
      bold: mafia,
      rotate: SLANT,
      tags: { part: 'column', day: String(g.day), player: p.id },
    });
  });
}

/** A cell's words: the suspicion in percent, "self", or a dash where the seat rated no one; nothing when too narrow. */
function cellText(value: number | undefined, self: boolean, width: number): string {
  if (value !== undefined) return width >= 24 ? String(Math.round(value * 100)) : '';
  if (self) return width >= 34 ? 'self' : '';
  return width >= 24 ? '–' : '';
}

/** An AI seat's row: its marker (ringed if lynched that day) and name, then its suspicion of every player. */
function seatRow(g: Grid, seat: PlayerState, suspicion: SeatReading['suspicion'], r: number): Shape[] {
  const d = String(g.day);
  const y = g.y + r * ROW;
  const shapes: Shape[] = [
    playerMarker(seat.kind, PAD + 12, y + ROW / 2, factionColour(factionOf(seat)), {
      part: 'row',
      day: d,
      seat: seat.id,
      faction: factionOf(seat) ?? 'none',
    }),
    label(PAD + 28, y + ROW / 2 + 5, fitText(seat.name, g.labelWidth - 28, NAME_SIZE)),
  ];
  if (seat.death?.day === g.day && seat.death.cause === 'lynch') {
    const ring = { part: 'lynched-ring', day: d, id: seat.id };
    shapes.push({ kind: 'circle', x: PAD + 12, y: y + ROW / 2, r: MARKER + 4, fill: 'none', stroke: INK, strokeWidth: 2.5, tags: ring });
  }
  g.players.forEach((p, col) => {
    const value = suspicion[p.id];
    const fill = value === undefined ? NO_DATA : heatColour(value);
    // Reads of the already dead (their roles mostly revealed) are faded: the living are the question.
    const faded = deadBefore(p, g.day);
    const x = g.x + col * g.cell;
    const where = { day: d, seat: seat.id, player: p.id };
    shapes.push({
      kind: 'rect',
      x,
      y,
      width: g.cell,
      height: ROW,
      fill,
      opacity: faded ? FADED : undefined,
      stroke: '#FFFFFF',
      strokeWidth: 1,
      tags: value === undefined ? { part: 'no-read', ...where } : { part: 'cell', ...where, suspicion: String(value) },
    });
    const words = cellText(value, p.id === seat.id, g.cell);
    const ink = value === undefined || faded ? MUTED : inkOn(fill);
    if (words) shapes.push(label(x + g.cell / 2, y + ROW / 2 + 4, words, { size: g.cell >= 34 ? 12 : 10, fill: ink, anchor: 'middle' }));
  });
  return shapes;
}

/** The true Mafia's columns, outlined over the cells: who read them right shows at a glance. */
function mafiaOutlines(g: Grid, rows: number): Shape[] {
  return g.players.flatMap((p, col): Shape[] =>
    factionOf(p) === 'mafia'
      ? [
          {
            kind: 'rect',
            x: g.x + col * g.cell + 1.5,
            y: g.y - 1.5,
            width: g.cell - 3,
            height: rows * ROW + 3,
            fill: 'none',
            stroke: OKABE_ITO.vermillion,
            strokeWidth: 3,
            radius: 2,
            tags: { part: 'mafia-column', day: String(g.day), player: p.id },
          },
        ]
      : [],
  );
}

function suspicionPanel(state: GameState, day: SuspicionDay, width: number): Panel {
  const tags = { part: 'suspicion-day', day: String(day.day) };
  const heading = day.voted ? `Day ${day.day}` : `Day ${day.day}: ${whyNoVote(state, day.day)}`;
  const title = label(PAD, 30, fitText(heading, width - 2 * PAD, TITLE_SIZE, true), { size: TITLE_SIZE, bold: true });
  if (day.rows.length === 0) {
    const empty = label(PAD, 56, 'No AI seat was left to read the table.', { fill: MUTED, tags: { part: 'empty', day: String(day.day) } });
    return { height: 70, shapes: [title, empty], tags };
  }
  const g = gridFor(state, day.day, width);
  const rows = day.rows.flatMap((row, r) => {
    const seat = g.players.find((p) => p.id === row.seatId);
    return seat ? seatRow(g, seat, row.suspicion, r) : [];
  });
  return {
    height: g.y + day.rows.length * ROW + PAD,
    shapes: [title, ...columnHeaders(g), ...rows, ...mafiaOutlines(g, day.rows.length)],
    tags,
  };
}

function legend(state: GameState): LegendItem[] {
  return [
    {
      swatch: [
        { kind: 'ramp', x: 0, y: 2, width: 120, height: 12, stops: HEAT_RAMP },
        { kind: 'text', x: 2, y: 12, text: '0', size: 10, fill: INK, anchor: 'start' },
        { kind: 'text', x: 118, y: 12, text: '100', size: 10, fill: '#FFFFFF', anchor: 'end' },
      ],
      swatchWidth: 120,
      label: 'suspicion, % (surely town … surely Mafia)',
    },
    { swatch: [{ kind: 'rect', x: 1, y: 1, width: 14, height: 14, fill: NO_DATA }], label: 'not rated' },
    {
      swatch: [{ kind: 'rect', x: 2, y: 0, width: 12, height: 16, fill: 'none', stroke: OKABE_ITO.vermillion, strokeWidth: 3, radius: 2 }],
      label: 'a true Mafia player',
    },
    ...factionLegend(state).map((item) => ({ ...item, label: `${item.label} seat` })),
    { swatch: [{ kind: 'circle', x: 8, y: 8, r: 7, fill: 'none', stroke: INK, strokeWidth: 2 }], label: 'lynched that day' },
    { swatch: [{ kind: 'text', x: 8, y: 13, text: '†', size: 14, fill: INK, anchor: 'middle' }], label: 'dead before the day (faded)' },
  ];
}

/** The suspicion heatmap: one panel per day, AI seats by players; null when no AI seat kept suspicions. */
export function suspicionMapScene(state: GameState, title: string): Scene | null {
  const days = suspicionDays(state);
  if (!days) return null;
  return composePicture({
    title: `How the AI seats read the table: ${title}`,
    subtitle: `${outcomeLine(state)} Each row is an AI seat's suspicion of every player at the end of the day.`,
    legend: legend(state),
    panels: days.map((day) => (width: number) => suspicionPanel(state, day, width)),
    columns: state.players.length <= 9 ? 2 : 1,
    footer: `Dramatis · game ${state.id} · ${days.length} days`,
  });
}
