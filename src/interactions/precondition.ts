import type { Result } from '../result.ts';

/**
 * A check a handler declares rather than repeats, as Sapphire's preconditions are (`GuildOnly`,
 * a host-only check…): it passes with what it found for the handler (this channel's game, the
 * editor session, the persona named), or fails with the refusal the person reads. `Need` is what
 * an earlier precondition of the same handler must have found (the host check reads the game).
 */
export type Precondition<I, Need, Give> = (i: I, found: Need) => Promise<Result<Give, string>>;

/** A precondition that adds nothing for the handler: it only refuses. */
export type Nothing = object;

/**
 * What a handler receives once every precondition passed, in the order declared: `Start` and all
 * they found. When one needs what no earlier one finds, the result names it instead, and the
 * handler's use of what it expected fails to compile where it is declared.
 */
export type Found<I, Start, Ps extends readonly unknown[]> = Ps extends readonly [infer P, ...infer Rest]
  ? P extends Precondition<I, infer Need, infer Give>
    ? Start extends Need
      ? Found<I, Start & Give, Rest>
      : { readonly preconditionBeforeWhatItNeeds: P }
    : { readonly notAPrecondition: P }
  : Start;
