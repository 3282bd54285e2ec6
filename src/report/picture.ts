import { INK, MUTED, PANEL, PAPER } from './palette.ts';
import type { Scene, Shape, Tags, Text } from './scene.ts';
import { cleanText, fitText, textWidth } from './text.ts';

/** Pictures are this wide: Discord shows them whole, and a phone zooms in on one panel at a time. */
export const PICTURE_WIDTH = 1200;
const MARGIN = 20;
const GAP = 16;
const LEGEND_SIZE = 14;
const SWATCH = 16;

/** Text at (x, y): 14 px, ink, left-aligned unless `style` says otherwise. `text` must be fitted already. */
export function label(
  x: number,
  y: number,
  text: string,
  style: Partial<Pick<Text, 'anchor' | 'bold' | 'fill' | 'size' | 'rotate' | 'tags'>> = {},
): Text {
  return { kind: 'text', x, y, text, size: 14, fill: INK, anchor: 'start', ...style };
}

/** One panel (a day), drawn from its own origin at the width it is given. */
export interface Panel {
  readonly height: number;
  readonly shapes: readonly Shape[];
  readonly tags: Tags;
}

/** A legend entry: a swatch drawn in a SWATCH-px box at the origin (or wider), and what it means. */
export interface LegendItem {
  readonly swatch: readonly Shape[];
  readonly swatchWidth?: number;
  readonly label: string;
}

export interface PictureSpec {
  readonly title: string;
  readonly subtitle: string;
  readonly legend: readonly LegendItem[];
  readonly panels: readonly ((width: number) => Panel)[];
  /** Panels side by side (a single panel always takes the full width). */
  readonly columns: number;
  readonly footer: string;
}

function legendRows(items: readonly LegendItem[], width: number): { shapes: Shape[]; height: number } {
  const shapes: Shape[] = [];
  let x = 0;
  let y = 0;
  for (const item of items) {
    const swatch = item.swatchWidth ?? SWATCH;
    const label = fitText(item.label, width - swatch - 8, LEGEND_SIZE);
    const itemWidth = swatch + 8 + textWidth(label, LEGEND_SIZE) + 22;
    if (x > 0 && x + itemWidth > width) {
      x = 0;
      y += 24;
    }
    shapes.push(
      { kind: 'group', x, y, shapes: item.swatch, tags: { part: 'legend-swatch' } },
      { kind: 'text', x: x + swatch + 8, y: y + 13, text: label, size: LEGEND_SIZE, fill: INK, anchor: 'start', tags: { part: 'legend' } },
    );
    x += itemWidth;
  }
  return { shapes, height: y + 24 };
}

/** Title, subtitle, legend, then the panels in a grid, row by row, each row as tall as its tallest panel. */
export function composePicture(spec: PictureSpec): Scene {
  const inner = PICTURE_WIDTH - 2 * MARGIN;
  const shapes: Shape[] = [
    { kind: 'text', x: MARGIN, y: 44, text: fitText(spec.title, inner, 26, true), size: 26, fill: INK, anchor: 'start', bold: true },
    { kind: 'text', x: MARGIN, y: 72, text: fitText(spec.subtitle, inner, 15), size: 15, fill: MUTED, anchor: 'start' },
  ];
  const legend = legendRows(spec.legend, inner);
  shapes.push({ kind: 'group', x: MARGIN, y: 92, shapes: legend.shapes, tags: { part: 'legend-box' } });
  let y = 92 + legend.height + 12;

  const columns = spec.panels.length > 1 ? Math.max(1, spec.columns) : 1;
  const panelWidth = (inner - GAP * (columns - 1)) / columns;
  for (let start = 0; start < spec.panels.length; start += columns) {
    const row = spec.panels.slice(start, start + columns).map((draw) => draw(panelWidth));
    row.forEach((panel, i) => {
      shapes.push({
        kind: 'group',
        x: MARGIN + i * (panelWidth + GAP),
        y,
        tags: panel.tags,
        shapes: [{ kind: 'rect', x: 0, y: 0, width: panelWidth, height: panel.height, fill: PANEL, radius: 8 }, ...panel.shapes],
      });
    });
    y += Math.max(...row.map((p) => p.height)) + GAP;
  }
  shapes.push({ kind: 'text', x: MARGIN, y: y + 10, text: fitText(spec.footer, inner, 12), size: 12, fill: MUTED, anchor: 'start' });
  return { width: PICTURE_WIDTH, height: Math.ceil(y + 24), background: PAPER, title: cleanText(spec.title), shapes };
}
