/** Expected failures travel as values; exceptions are reserved for bugs. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

export function err<E>(error: E): Result<never, E> {
  return { ok: false, error };
}

/** A value the code's own logic guarantees: its absence is a bug, thrown saying what was missing. */
export function must<T>(value: T, what: string): NonNullable<T> {
  if (value === null || value === undefined) throw new Error(`bug: ${what} is missing`);
  return value;
}
