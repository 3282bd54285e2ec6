import { isMafia, RoleIdSchema } from '../game/index.ts';
import type { PrismaClient } from './generated/client.ts';

/** A running game in which someone's DMs to the bot may be their team's chat. */
interface DmChatGame {
  readonly gameId: string;
  readonly guildId: string | null;
}

/** For the process that receives every DM (shard 0) to find the game a DM belongs to, whichever process runs it. */
export interface GameDmChats {
  /**
   * Running games in which this person is a living human Mafia and no Mafia thread is stored:
   * their DMs may be the team's chat (the game's own process decides; it knows why there is no thread).
   */
  mafiaDmChatsOf(userId: string): Promise<DmChatGame[]>;
}

export function gameDmChats(prisma: PrismaClient): GameDmChats {
  return {
    async mafiaDmChatsOf(userId) {
      const seats = await prisma.gamePlayer.findMany({
        where: { userId, kind: 'human', alive: true, game: { status: 'running', discordRefs: { none: { kind: 'mafia_thread' } } } },
        select: { role: true, game: { select: { id: true, guildId: true } } },
      });
      return seats
        .filter((seat) => {
          const role = RoleIdSchema.safeParse(seat.role);
          return role.success && isMafia(role.data);
        })
        .map((seat) => ({ gameId: seat.game.id, guildId: seat.game.guildId }));
    },
  };
}
