import { defineRole } from './role.ts';

export const doctor = defineRole({
  id: 'doctor',
  name: 'Doctor',
  faction: 'town',
  summary: 'Protects one player each night from being killed.',
  card:
    'You are the Doctor. Each night, protect one player: if the Mafia or the Vigilante target them, they survive. ' +
    'You are not told whether your protection mattered. You win with the town when no Mafia remain.',
  nightAction: 'protect',
  investigatedAs: 'innocent',
  selfTarget: true,
  checkTarget: ({ state, actor, target }) => {
    if (!target) return null;
    const rules = state.settings.rules;
    if (target.id === actor.id && !rules.doctorSelfProtect) {
      return 'In this game the Doctor may not protect themself.';
    }
    if (!rules.doctorRepeatProtect && state.lastProtected[actor.id] === target.id) {
      return `You protected ${target.name} last night; in this game you may not protect the same player twice in a row.`;
    }
    return null;
  },
  // For the no-repeat rule: whom each Doctor protected on the night just ended.
  rememberNight: (memory, actor, targetId) => ({
    lastProtected: { ...memory.lastProtected, [actor.id]: targetId },
    shotsUsed: memory.shotsUsed,
  }),
});
