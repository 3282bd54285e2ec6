import { expect } from 'vitest';

// Vitest types its asymmetric matchers as `any`; these say what each one stands in for,
// so an expected object keeps its type and the lint sees no `any` flowing into it.

/** A string that contains `text`. */
export const stringContaining = (text: string): string => expect.stringContaining(text) as string;

/** A string that matches `pattern`. */
export const stringMatching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;

/** Any number. */
export const anyNumber = (): number => expect.any(Number) as number;

/** An object that has at least these properties, with these values. */
export const objectContaining = <T extends object>(properties: T): T => expect.objectContaining<unknown>(properties) as T;
