/**
 * Splits Markdown into Discord messages of at most `limit` characters without breaking code
 * fences: a chunk that ends inside a fence closes it, and the next chunk reopens it with the same
 * opening line (so the language tag and highlighting carry over).
 */
export function chunkMarkdown(text: string, limit: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  let reopen = '';
  while (rest.length > 0) {
    const room = limit - reopen.length;
    if (rest.length <= room) {
      chunks.push(reopen + rest);
      break;
    }
    // Keep room to close a fence that may be open at the cut: "\n```".
    const cutAt = breakPoint(rest, room - CLOSE.length);
    // The line break the cut falls on is the message boundary itself.
    const piece = rest.slice(0, cutAt).replace(/\n+$/, '');
    const open = openFence(reopen + piece);
    chunks.push(open === null ? reopen + piece : `${reopen}${piece}${CLOSE}`);
    rest = rest.slice(cutAt);
    reopen = open === null ? '' : `${open}\n`;
  }
  return chunks.filter((c) => c.trim().length > 0);
}

const CLOSE = '\n```';

/** The best place to cut within `max` characters: a paragraph, a line, a space, or hard. */
function breakPoint(text: string, max: number): number {
  const window = text.slice(0, Math.max(1, max));
  for (const sep of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(sep);
    if (at > max * 0.5) return at + sep.length;
  }
  return window.length;
}

/** The opening line of the fence still open at the end of `text`, or null. */
export function openFence(text: string): string | null {
  let open: { line: string; marker: string } | null = null;
  for (const line of text.split('\n')) {
    const fence = /^\s*(```+|~~~+)(.*)$/.exec(line);
    if (!fence) continue;
    const [, marker = '', rest = ''] = fence;
    if (open === null) open = { line: line.trim(), marker };
    else if (line.trim().startsWith(open.marker) && rest.trim() === '') open = null;
  }
  return open?.line ?? null;
}
