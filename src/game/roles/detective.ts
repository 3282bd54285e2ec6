import { defineRole } from './role.ts';

export const detective = defineRole({
  id: 'detective',
  name: 'Detective',
  faction: 'town',
  summary: 'Investigates one player each night and learns whether they are Mafia.',
  card:
    'You are the Detective. Each night, investigate one player: you learn at dawn whether they are Mafia ' +
    '(the Godfather hides as innocent). If you are killed that night, you learn nothing. ' +
    'You win with the town when no Mafia remain.',
  nightAction: 'investigate',
  investigatedAs: 'innocent',
  selfTarget: false,
});
