import type { Edge, Ramp, Scene, Shape, Tags } from './scene.ts';

/** The one font pictures are drawn in: bundled, so the same game gives the same bytes on any machine. */
export const FONT_FAMILY = 'DejaVu Sans';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or an attribute value as XML carries it: no name can open an element or close an attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const num = (n: number): string => String(Math.round(n * 100) / 100);

function attrs(values: Record<string, string | number | undefined>, tags: Tags | undefined): string {
  const all: [string, string | number | undefined][] = [
    ...Object.entries(values),
    ...Object.entries(tags ?? {}).map(([k, v]): [string, string] => [`data-${k}`, v]),
  ];
  return all
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? num(v) : escapeXml(v)}"`)
    .join('');
}

/** A curve leaving `from` and reaching `to` level (so the arrowhead points along it), then the head. */
function edge(e: Edge): string {
  const bend = Math.max(20, (e.to.x - e.from.x) * 0.45);
  const head = 4 + e.width * 2;
  const tip = e.to;
  const base = tip.x - head;
  const path = `M${num(e.from.x)} ${num(e.from.y)} C${num(e.from.x + bend)} ${num(e.from.y)} ${num(base - bend)} ${num(tip.y)} ${num(base)} ${num(tip.y)}`;
  const points = `${num(tip.x)},${num(tip.y)} ${num(base)},${num(tip.y - head / 2)} ${num(base)},${num(tip.y + head / 2)}`;
  return (
    `<g${attrs({ opacity: e.opacity }, e.tags)}>` +
    `<path${attrs({ d: path, fill: 'none', stroke: e.colour, 'stroke-width': e.width }, undefined)}/>` +
    `<polygon${attrs({ points, fill: e.colour }, undefined)}/></g>`
  );
}

function ramp(r: Ramp, id: string): string {
  const stops = r.stops.map((s) => `<stop${attrs({ offset: s.at, 'stop-color': s.colour }, undefined)}/>`).join('');
  return (
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="0">${stops}</linearGradient></defs>` +
    `<rect${attrs({ x: r.x, y: r.y, width: r.width, height: r.height, fill: `url(#${id})`, stroke: '#555555', 'stroke-width': 1 }, r.tags)}/>`
  );
}

function shape(s: Shape, ids: { next: number }): string {
  switch (s.kind) {
    case 'rect':
      return `<rect${attrs(
        {
          x: s.x,
          y: s.y,
          width: s.width,
          height: s.height,
          rx: s.radius,
          fill: s.fill,
          'fill-opacity': s.opacity,
          stroke: s.stroke,
          'stroke-width': s.strokeWidth,
          'stroke-dasharray': s.dashed ? '4 3' : undefined,
        },
        s.tags,
      )}/>`;
    case 'circle':
      return `<circle${attrs({ cx: s.x, cy: s.y, r: s.r, fill: s.fill, stroke: s.stroke, 'stroke-width': s.strokeWidth }, s.tags)}/>`;
    case 'edge':
      return edge(s);
    case 'text':
      return `<text${attrs(
        {
          x: s.x,
          y: s.y,
          'font-size': s.size,
          'font-weight': s.bold ? 'bold' : undefined,
          'text-anchor': s.anchor,
          fill: s.fill,
          transform: s.rotate === undefined ? undefined : `rotate(${num(s.rotate)} ${num(s.x)} ${num(s.y)})`,
        },
        s.tags,
      )}>${escapeXml(s.text)}</text>`;
    case 'ramp':
      ids.next += 1;
      return ramp(s, `ramp${ids.next}`);
    case 'group':
      return `<g${attrs({ transform: `translate(${num(s.x)} ${num(s.y)})` }, s.tags)}>${s.shapes.map((c) => shape(c, ids)).join('')}</g>`;
  }
}

/** The scene as a standalone SVG document: every text escaped, every size in px. */
export function sceneToSvg(scene: Scene): string {
  const ids = { next: 0 };
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(scene.width)}" height="${num(scene.height)}" ` +
    `viewBox="0 0 ${num(scene.width)} ${num(scene.height)}" font-family="${FONT_FAMILY}">` +
    `<title>${escapeXml(scene.title)}</title>` +
    `<rect width="100%" height="100%" fill="${escapeXml(scene.background)}"/>` +
    scene.shapes.map((s) => shape(s, ids)).join('') +
    '</svg>\n'
  );
}
