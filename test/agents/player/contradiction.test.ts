import { describe, expect, it } from 'vitest';
import { contradiction } from '../../../src/agents/player/contradiction.ts';

const NAMES = ['Ann', 'Bob', 'Cleo', 'Anna'];

describe('speech that says one target and does another', () => {
  it.each([
    ['I vote Ann.', 'Bob', 'Ann'],
    ["I'm voting for Cleo, sorry.", 'Bob', 'Cleo'],
    ['My vote goes to Ann.', null, 'Ann'],
    ['Lynch Ann now.', 'Bob', 'Ann'],
    ['Not Bob, but Ann: I vote Ann.', 'Bob', 'Ann'],
    ["I won't vote Bob. I'm voting Ann.", 'Bob', 'Ann'],
    ["Don't lynch Bob, lynch Cleo instead.", 'Bob', 'Cleo'],
    ["I'm not voting Bob but Ann.", 'Bob', 'Ann'],
    ['My vote is not on Bob, but on Cleo.', 'Bob', 'Cleo'],
    ["I'm not sure about Bob, so I vote Ann.", 'Bob', 'Ann'],
    ['We vote Cleo, not Bob.', 'Bob', 'Cleo'],
    ['Honestly? Vote Anna.', 'Ann', 'Anna'],
    ['I am going to vote for Ann — no doubts left.', 'Cleo', 'Ann'],
    ['Never mind the noise. Lynch Cleo.', 'Ann', 'Cleo'],
  ])('GIVEN "%s" WHEN the vote is %s THEN %s is named as said', (speech, decided, said) => {
    expect(contradiction(speech, 'vote', decided, NAMES)).toBe(said);
  });

  it.each([
    ["Don't lynch Ann… my vote goes to Bob.", 'Bob'],
    ['I am not voting Ann; Bob it is. I vote Bob.', 'Bob'],
    ['Never lynch Cleo on a feeling. I vote Bob.', 'Bob'],
    ['We should not lynch Ann today.', 'Bob'],
    ['Not Ann, but Bob: I vote Bob.', 'Bob'],
    ["I'm not voting for Ann, I'm voting for Bob.", 'Bob'],
    ['Lynch Ann? No. I vote Bob.', 'Bob'],
    ['Nobody should lynch Cleo yet; my vote is on Bob.', 'Bob'],
    ["I won't lynch Ann - I vote Bob.", 'Bob'],
    ['Rather than lynch Ann, I vote Bob.', 'Bob'],
    ["I don't think we should vote Ann, but I vote Bob.", 'Bob'],
    ['My vote is not on Ann, but on Bob.', 'Bob'],
    ['I vote Anna.', 'Anna'],
    ["Ann's vote for Cleo looked odd. I vote Bob.", 'Bob'],
  ])('GIVEN "%s" WHEN the vote is %s THEN a refused intent is no contradiction', (speech, decided) => {
    expect(contradiction(speech, 'vote', decided, NAMES)).toBeNull();
  });

  it.each([
    ["We don't kill Ann tonight, we take out Bob.", 'Bob', null],
    ['Not Ann but Bob: target Bob.', 'Bob', null],
    ['Kill Cleo tonight.', 'Bob', 'Cleo'],
    ["Let's not hit Bob, but rather Ann.", 'Bob', 'Ann'],
  ])('GIVEN the Mafia says "%s" WHEN the kill is %s THEN the target said is %s', (speech, decided, said) => {
    expect(contradiction(speech, 'kill', decided, NAMES)).toBe(said);
  });
});
