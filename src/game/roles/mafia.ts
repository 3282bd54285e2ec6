import { defineRole } from './role.ts';

export const mafia = defineRole({
  id: 'mafia',
  name: 'Mafia',
  faction: 'mafia',
  summary: 'Kills one player each night together with the rest of the Mafia.',
  card:
    'You are Mafia. Each night, agree with your team in the Mafia thread on one player to kill: ' +
    'propose a target; two thirds agreeing decides, otherwise a second round, and if still split the ' +
    'lowest-seat Mafia member decides. By day, blend in with the town. ' +
    'You win when the Mafia are at least as many as everyone else.',
  nightAction: 'kill',
  investigatedAs: 'mafia',
  selfTarget: false,
});
