import type { CallRecord } from '../../src/llm/metered.ts';
import { dollarsAt, modelInfo, type ModelPrice } from '../../src/models.ts';

/** USD per million tokens, as the model table (src/models.ts) lists them. */
export type Price = ModelPrice;

/** The list price of `provider:model` from the model table, if it has one. A model not listed has no price: the arena says n/a. */
export function priceOf(provider: string, model: string): Price | null {
  return modelInfo(provider, model)?.price ?? null;
}

/** What calls cost at a price: each part of the input (plain, cache read, 5-minute and 1-hour writes) at its own rate. */
export function dollarsOf(calls: readonly CallRecord[], price: Price): number {
  return calls.reduce((dollars, { usage }) => dollars + dollarsAt(usage, price), 0);
}
