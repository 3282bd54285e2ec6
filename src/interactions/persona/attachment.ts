import type { Attachment } from 'discord.js';
import { err, ok, type Result } from '../../result.ts';

const DOWNLOAD_TIMEOUT_MS = 15_000;

const size = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

/** An uploaded file's bytes; refused before downloading when Discord says it is too large. */
export async function download(file: Attachment, maxBytes: number): Promise<Result<Uint8Array, string>> {
  if (file.size > maxBytes) return err(`${file.name} is ${size(file.size)}; the limit is ${size(maxBytes)}.`);
  try {
    const response = await fetch(file.url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    if (!response.ok) return err(`I could not download ${file.name} from Discord (HTTP ${response.status}); please attach it again.`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > maxBytes) return err(`${file.name} is ${size(bytes.byteLength)}; the limit is ${size(maxBytes)}.`);
    return ok(bytes);
  } catch (error) {
    return err(
      `I could not download ${file.name} from Discord (${error instanceof Error ? error.message : String(error)}); please attach it again.`,
    );
  }
}

export function extensionOf(file: Attachment): string {
  const dot = file.name.lastIndexOf('.');
  return dot === -1 ? '' : file.name.slice(dot + 1).toLowerCase();
}

/** A text file as a string; refused when it is not UTF-8 text. */
export function textOf(bytes: Uint8Array, name: string): Result<string, string> {
  try {
    return ok(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return err(`${name} is not a UTF-8 text file; attach the biography as .txt or .md.`);
  }
}
