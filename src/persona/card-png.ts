import { decode as decodeText, encode as encodeText } from 'png-chunk-text';
import encodeChunks from 'png-chunks-encode';
import extractChunks from 'png-chunks-extract';
import { err, ok, type Result } from '../result.ts';
import { personaError, type PersonaError } from './errors.ts';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A 1×1 transparent PNG: the image of an exported card when the persona has none. */
const BLANK_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export function isPng(bytes: Uint8Array): boolean {
  return SIGNATURE.every((b, i) => bytes[i] === b);
}

/** The card JSON from a PNG's tEXt chunk: `ccv3` (V3) when present, else `chara` (V2), base64-encoded. */
export function cardJsonFromPng(bytes: Uint8Array): Result<string, PersonaError> {
  let texts: { keyword: string; text: string }[];
  try {
    texts = extractChunks(bytes)
      .filter((c) => c.name === 'tEXt')
      .map((c) => decodeText(c.data));
  } catch (error) {
    return err(personaError('malformed', `The PNG is damaged: ${error instanceof Error ? error.message : String(error)}.`));
  }
  const chunk = texts.find((t) => t.keyword === 'ccv3') ?? texts.find((t) => t.keyword === 'chara');
  if (chunk === undefined) return err(personaError('unsupported', 'The PNG holds no character card (no "chara" or "ccv3" text chunk).'));
  const json = Buffer.from(chunk.text, 'base64').toString('utf8');
  return ok(json);
}

/** A PNG with the card in a `chara` tEXt chunk (replacing any card it held), just before IEND. */
export function pngWithCard(cardJson: string, image?: Uint8Array): Uint8Array {
  const chunks = extractChunks(image ?? Buffer.from(BLANK_PNG, 'base64')).filter(
    (c) => !(c.name === 'tEXt' && ['chara', 'ccv3'].includes(decodeText(c.data).keyword)),
  );
  const end = chunks.findIndex((c) => c.name === 'IEND');
  chunks.splice(end, 0, encodeText('chara', Buffer.from(cardJson, 'utf8').toString('base64')));
  return encodeChunks(chunks);
}
