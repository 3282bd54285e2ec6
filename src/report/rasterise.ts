import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { FONT_FAMILY } from './svg.ts';

// Resolved through the package, not the working directory: the bot, the demo and the tests find the same files.
const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) => join(FONT_DIR, f));

const OPTIONS: ResvgRenderOptions = {
  font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
  fitTo: { mode: 'original' },
  shapeRendering: 2,
  textRendering: 1,
  logLevel: 'off',
};

/**
 * The drawing thread: resvg parses, draws and encodes the PNG synchronously (even `renderAsync`
 * leaves the PNG encoding, tens of milliseconds for a large picture, on the caller's thread), so
 * all of it runs here. Plain CommonJS, evaluated: no loader (tsx, vitest) is needed in the thread.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { Resvg } = require(workerData.resvg);
parentPort.on('message', ({ id, svg }) => {
  try {
    const png = new Resvg(svg, workerData.options).render().asPng();
    parentPort.postMessage({ id, png }, [png.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

interface Answer {
  readonly id: number;
  readonly png?: Uint8Array;
  readonly error?: string;
}

let thread: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (png: Buffer) => void; reject: (error: Error) => void }>();

/** The drawing thread, started on first use; it keeps the process alive only while a picture is being drawn. */
function drawingThread(): Worker {
  if (thread) return thread;
  const started = new Worker(THREAD, { eval: true, workerData: { resvg: require.resolve('@resvg/resvg-js'), options: OPTIONS } });
  started.unref();
  started.on('message', (answer: Answer) => {
    const asked = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (waiting.size === 0) started.unref();
    if (!asked) return;
    if (answer.png) asked.resolve(Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength));
    else asked.reject(new Error(`the picture could not be drawn: ${answer.error ?? 'no answer'}`));
  });
  // A thread that dies fails what it was drawing; the next picture starts another.
  const lost = (why: string) => {
    if (thread === started) thread = null;
    for (const [id, asked] of waiting) {
      waiting.delete(id);
      asked.reject(new Error(`the drawing thread stopped: ${why}`));
    }
  };
  started.on('error', (error) => lost(error.message));
  started.on('exit', (code) => lost(`exit ${String(code)}`));
  thread = started;
  return started;
}

/**
 * An SVG drawn to PNG with the bundled DejaVu fonts only (no system fonts), so the bytes depend on
 * the SVG alone. Drawn on a thread of its own: the end of many games at once does not stall the
 * bot's event loop (and every interaction waiting on it).
 */
export function rasterise(svg: string): Promise<Buffer> {
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    const drawing = drawingThread();
    drawing.ref();
    drawing.postMessage({ id, svg });
  });
}
