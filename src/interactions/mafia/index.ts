import { MessageFlags } from 'discord.js';
import type { InteractionRouter } from '../../discord/router.ts';
import { customIdArgs } from '../../discord/router.ts';
import { LOBBY_PREFIX } from '../../discord/lobby-view.ts';
import { addAiButton, registerAddAi } from './add-ai.ts';
import type { MafiaDeps } from './context.ts';
import { registerCreate } from './create.ts';
import { mafiaCommand } from './definition.ts';
import { registerEnd } from './end.ts';
import { joinButton } from './join.ts';
import { leaveButton } from './leave.ts';
import { registerPlay } from './play.ts';
import { registerRemove } from './remove.ts';
import { registerRules } from './rules.ts';
import { registerStart, startButton } from './start.ts';
import { registerStatus } from './status.ts';
import { registerStats } from './stats.ts';
import { registerWill } from './will.ts';

export type { MafiaDeps } from './context.ts';
export const mafiaCommandData = mafiaCommand.toJSON();

/** Every /mafia subcommand, lobby component, night menu, vote control and the will form. */
export function registerMafia(router: InteractionRouter, deps: MafiaDeps): void {
  registerCreate(router, deps);
  registerAddAi(router, deps);
  registerRemove(router, deps);
  registerStart(router, deps);
  registerStatus(router, deps);
  registerEnd(router, deps);
  registerRules(router, deps);
  registerPlay(router, deps);
  registerWill(router, deps);
  registerStats(router, deps);
  router.onButton(LOBBY_PREFIX, async (i) => {
    const action = customIdArgs(i.customId)[0];
    if (action === 'join') return joinButton(i, deps);
    if (action === 'leave') return leaveButton(i, deps);
    if (action === 'ai') return addAiButton(i, deps);
    if (action === 'start') return startButton(i, deps);
    await i.reply({ content: 'This button is no longer in use.', flags: MessageFlags.Ephemeral });
  });
}
