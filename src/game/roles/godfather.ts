import { defineRole } from './role.ts';

export const godfather = defineRole({
  id: 'godfather',
  name: 'Godfather',
  faction: 'mafia',
  summary: 'Leads the Mafia; a Detective who investigates the Godfather is told "innocent".',
  card:
    'You are the Godfather, head of the Mafia. You choose the night kill with your team like any Mafia ' +
    'member, but a Detective who investigates you is told you are innocent. ' +
    'You win when the Mafia are at least as many as everyone else.',
  nightAction: 'kill',
  investigatedAs: 'innocent',
  selfTarget: false,
});
