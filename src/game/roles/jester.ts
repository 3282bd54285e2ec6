import { defineRole } from './role.ts';

export const jester = defineRole({
  id: 'jester',
  name: 'Jester',
  faction: 'neutral',
  summary: 'Wins alone by getting lynched.',
  card:
    'You are the Jester. You win if the town lynches you. You have no night action; ' +
    'make the town suspicious of you without being obvious about it.',
  nightAction: null,
  investigatedAs: 'innocent',
  selfTarget: false,
});
