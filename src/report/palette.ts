import type { Faction } from '../game/index.ts';

/**
 * Colours told apart with any colour vision: the Okabe–Ito palette for kinds of things, viridis
 * (perceptually even, readable in grey) for amounts.
 */
export const OKABE_ITO = {
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  black: '#000000',
} as const;

export const INK = '#1A1A1A';
export const MUTED = '#6B6B6B';
export const PAPER = '#FFFFFF';
export const PANEL = '#F6F6F6';
export const NO_DATA = '#D9D9D9';

/** A player's colour by their true faction; `null` for a seat never dealt a role. */
export function factionColour(faction: Faction | null): string {
  switch (faction) {
    case 'town':
      return OKABE_ITO.blue;
    case 'mafia':
      return OKABE_ITO.vermillion;
    case 'neutral':
      return OKABE_ITO.purple;
    case null:
      return MUTED;
  }
}

export const FACTION_NAMES: Record<Faction, string> = { town: 'Town', mafia: 'Mafia', neutral: 'Neutral (Jester)' };

/** Viridis sampled at eighths, reversed: light for "surely town", dark for "surely Mafia". */
const HEAT_STOPS = ['#FDE725', '#ADDC30', '#5EC962', '#28AE80', '#21918C', '#2C728E', '#3B528B', '#472D7B', '#440154'];

export const HEAT_RAMP: readonly { at: number; colour: string }[] = HEAT_STOPS.map((colour, i) => ({
  at: i / (HEAT_STOPS.length - 1),
  colour,
}));

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const hex = (channels: readonly number[]): string =>
  `#${channels
    .map((c) => Math.round(c).toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;

/** The heatmap colour of a suspicion in 0..1, interpolated between the viridis samples. */
export function heatColour(suspicion: number): string {
  const t = Math.min(1, Math.max(0, suspicion)) * (HEAT_STOPS.length - 1);
  const i = Math.min(HEAT_STOPS.length - 2, Math.floor(t));
  const a = rgb(HEAT_STOPS[i] ?? INK);
  const b = rgb(HEAT_STOPS[i + 1] ?? INK);
  const f = t - i;
  return hex(a.map((c, k) => c + ((b[k] ?? c) - c) * f));
}

/** Black or white, whichever reads on `background`. */
export function inkOn(background: string): string {
  const [r, g, b] = rgb(background);
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? INK : PAPER;
}
