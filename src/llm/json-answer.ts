/**
 * The JSON object in a model's text answer, or undefined. Strict JSON first; then what models
 * write around it despite instructions: a ```json fence, or prose before and after the object.
 */
export function parseJsonAnswer(text: string): unknown {
  const direct = tryParse(text);
  if (direct !== undefined) return direct;
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(text)?.[1];
  if (fenced !== undefined) {
    const inside = tryParse(fenced);
    if (inside !== undefined) return inside;
  }
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? tryParse(text.slice(start, end + 1)) : undefined;
}

function tryParse(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}
