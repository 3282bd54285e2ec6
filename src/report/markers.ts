import type { Faction, GameState, PlayerKind } from '../game/index.ts';
import { factionOf } from './game-facts.ts';
import { FACTION_NAMES, factionColour, INK } from './palette.ts';
import type { LegendItem } from './picture.ts';
import type { Shape, Tags } from './scene.ts';

/** Half the size of a player's marker. */
export const MARKER = 7;

/** A player's marker, centred on (x, y): a circle for a person, a square for an AI seat; filled with their side's colour. */
export function playerMarker(kind: PlayerKind, x: number, y: number, fill: string, tags: Tags): Shape {
  return kind === 'human'
    ? { kind: 'circle', x, y, r: MARKER, fill, stroke: INK, strokeWidth: 1, tags }
    : {
        kind: 'rect',
        x: x - MARKER,
        y: y - MARKER,
        width: 2 * MARKER,
        height: 2 * MARKER,
        radius: 2,
        fill,
        stroke: INK,
        strokeWidth: 1,
        tags,
      };
}

const CENTRE = 8;

/** Person and AI seat, for the kinds of seat the game had. */
export function kindLegend(state: GameState): LegendItem[] {
  const kinds = new Set(state.players.map((p) => p.kind));
  const items: LegendItem[] = [];
  if (kinds.has('human')) items.push({ swatch: [playerMarker('human', CENTRE, CENTRE, '#FFFFFF', {})], label: 'person' });
  if (kinds.has('ai')) items.push({ swatch: [playerMarker('ai', CENTRE, CENTRE, '#FFFFFF', {})], label: 'AI seat' });
  return items;
}

/** One swatch per side present in the game, in a fixed order. */
export function factionLegend(state: GameState): LegendItem[] {
  const present = new Set(state.players.map(factionOf));
  return (['town', 'mafia', 'neutral'] as const satisfies readonly Faction[])
    .filter((f) => present.has(f))
    .map((f) => ({
      swatch: [
        {
          kind: 'rect',
          x: 1,
          y: 1,
          width: 14,
          height: 14,
          radius: 2,
          fill: factionColour(f),
          tags: { part: 'legend-faction', faction: f },
        },
      ],
      label: FACTION_NAMES[f],
    }));
}
