/** Splits text into pieces of at most `size` characters, at paragraph, then line, then word boundaries. */
export function chunkText(text: string, size: number): string[] {
  const chunks: string[] = [];
  let current = '';
  const flush = (): void => {
    if (current.trim() !== '') chunks.push(current.trim());
    current = '';
  };
  for (const piece of pieces(text, size)) {
    if (current.length + piece.length + 2 > size) flush();
    current = current === '' ? piece : `${current}\n\n${piece}`;
  }
  flush();
  return chunks;
}

function pieces(text: string, size: number): string[] {
  return text.split(/\n\s*\n/).flatMap((paragraph) => (paragraph.length <= size ? [paragraph] : hardSplit(paragraph, size)));
}

function hardSplit(paragraph: string, size: number): string[] {
  const out: string[] = [];
  let rest = paragraph;
  while (rest.length > size) {
    const window = rest.slice(0, size);
    const at = Math.max(window.lastIndexOf('\n'), window.lastIndexOf(' '));
    const cut = at > size / 2 ? at : size;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '') out.push(rest);
  return out;
}
