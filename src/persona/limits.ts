/** Upload sizes; past these a file is refused before it is parsed. */
export const FILE_LIMITS = {
  personaJsonBytes: 256 * 1024,
  cardJsonBytes: 1024 * 1024,
  cardPngBytes: 8 * 1024 * 1024,
  /** Lists and objects inside each other in an uploaded JSON file (real cards nest under ten). */
  jsonDepth: 64,
  /** The profiler's raw text. */
  rawTextChars: 100_000,
} as const;

export const kib = (bytes: number): string => `${Math.round(bytes / 1024)} KiB`;
