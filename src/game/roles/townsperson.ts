import { defineRole } from './role.ts';

export const townsperson = defineRole({
  id: 'townsperson',
  name: 'Townsperson',
  faction: 'town',
  summary: 'No night action; finds the Mafia by talking and voting.',
  card:
    'You are a Townsperson. You have no night action: your power is your voice and your vote. ' +
    'Find the Mafia and lynch them. You win with the town when no Mafia remain.',
  nightAction: null,
  investigatedAs: 'innocent',
  selfTarget: false,
});
