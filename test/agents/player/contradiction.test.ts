import { describe, expect, it } from 'vitest';
import { contradiction } from '../../../src/agents/player/contradiction.ts';

const NAMES = ['Ann', 'Bob', 'Cleo'];

describe('speech that says one target and does another', () => {
  it.each([
    ['I vote Ann.', 'Bob', 'Ann'],
    ["I'm voting for Cleo, sorry.", 'Bob', 'Cleo'],
    ['My vote goes to Ann.', null, 'Ann'],
    ['Lynch Ann now.', 'Bob', 'Ann'],
  ])('GIVEN "%s" WHEN the vote is %s THEN %s is named as said', (speech, decided, said) => {
    expect(contradiction(speech, 'vote', decided, NAMES)).toBe(said);
  });

  it.each([
    ["Don't lynch Ann… my vote goes to Bob.", 'Bob'],
    ['I am not voting Ann; Bob it is. I vote Bob.', 'Bob'],
    ['Never lynch Cleo on a feeling. I vote Bob.', 'Bob'],
    ['We should not lynch Ann today.', 'Bob'],
  ])('GIVEN "%s" WHEN the vote is %s THEN a refused intent is no contradiction', (speech, decided) => {
    expect(contradiction(speech, 'vote', decided, NAMES)).toBeNull();
  });
});
