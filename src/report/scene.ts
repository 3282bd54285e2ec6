/**
 * A picture as plain data, before any SVG: shapes with colours and positions, each tagged with what
 * it stands for in the game (a vote, a player, a suspicion cell). Tests read the game's data off
 * the tags; the SVG keeps them as data-* attributes.
 */
export type Tags = Readonly<Record<string, string>>;

interface Point {
  readonly x: number;
  readonly y: number;
}

interface Tagged {
  readonly tags?: Tags;
}

interface Rect extends Tagged {
  readonly kind: 'rect';
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly fill: string;
  readonly stroke?: string;
  readonly strokeWidth?: number;
  readonly radius?: number;
  readonly opacity?: number;
  readonly dashed?: boolean;
}

interface Circle extends Tagged {
  readonly kind: 'circle';
  readonly x: number;
  readonly y: number;
  readonly r: number;
  readonly fill: string;
  readonly stroke?: string;
  readonly strokeWidth?: number;
}

/** A curve from left to right ending in an arrowhead at `to`. */
export interface Edge extends Tagged {
  readonly kind: 'edge';
  readonly from: Point;
  readonly to: Point;
  readonly colour: string;
  readonly width: number;
  readonly opacity: number;
}

export interface Text extends Tagged {
  readonly kind: 'text';
  readonly x: number;
  readonly y: number;
  /** Already fitted (see fitText); escaped only when serialised. */
  readonly text: string;
  readonly size: number;
  readonly fill: string;
  readonly anchor: 'start' | 'middle' | 'end';
  readonly bold?: boolean;
  /** Degrees, about (x, y). */
  readonly rotate?: number;
}

/** A horizontal colour ramp (the heatmap's legend). */
export interface Ramp extends Tagged {
  readonly kind: 'ramp';
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly stops: readonly { readonly at: number; readonly colour: string }[];
}

/** Shapes moved by (x, y): a panel is laid out from its own origin. */
interface Group extends Tagged {
  readonly kind: 'group';
  readonly x: number;
  readonly y: number;
  readonly shapes: readonly Shape[];
}

export type Shape = Rect | Circle | Edge | Text | Ramp | Group;

export interface Scene {
  readonly width: number;
  readonly height: number;
  readonly background: string;
  /** For the SVG's <title>: what the picture shows. */
  readonly title: string;
  readonly shapes: readonly Shape[];
}

/** Every shape of a scene, those inside groups too (their positions stay relative to their group). */
export function flatten(shapes: readonly Shape[]): Shape[] {
  return shapes.flatMap((s) => (s.kind === 'group' ? [s, ...flatten(s.shapes)] : [s]));
}

/** The shapes whose tags hold every one of `match`. */
export function tagged(scene: Scene, match: Tags): Shape[] {
  return flatten(scene.shapes).filter((s) => Object.entries(match).every(([k, v]) => s.tags?.[k] === v));
}
