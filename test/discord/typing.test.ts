import type { Client } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { ManualTimers } from '../../src/clock.ts';
import { GameOutput } from '../../src/discord/game-output.ts';
import type { OutputGame } from '../../src/discord/output/sends.ts';
import type { GameState } from '../../src/game/index.ts';
import type { Logger } from '../../src/log.ts';
import { T0, TestGame } from '../support/test-game.ts';

/** The indicators asked for so far have reached the client (they are sent without waiting). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** An output whose client only knows sendable channels that count their typing indicators. */
function output() {
  const timers = new ManualTimers(T0);
  const typing: string[] = [];
  const client = {
    channels: {
      fetch: (id: string) => Promise.resolve({ isSendable: () => true, sendTyping: () => Promise.resolve(void typing.push(id)) }),
    },
  } as unknown as Client;
  return { out: new GameOutput(client, quiet, timers), timers, typing };
}

function game(channelId: string, state: GameState): OutputGame {
  return {
    channelId,
    hostId: 'h',
    state,
    lobbyMessageId: null,
    voteMessageId: null,
    nominationMessageId: null,
    mafiaThreadId: null,
    avatars: new Map(),
  };
}

describe('typing indicators while AI players compose', () => {
  const day = (() => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    t.advanceTo('day');
    return t.state;
  })();

  it('GIVEN AI seats starting to compose by day WHEN many start within 8 s THEN the channel shows one indicator, and another only once 8 s have passed', async () => {
    const { out, timers, typing } = output();
    const liveGame = game('c1', day);
    for (let i = 0; i < 4; i++) out.thinking(liveGame, `ai-${i}`, true);
    timers.advanceTo(T0 + 7_999);
    out.thinking(liveGame, 'ai-0', true);
    await settled();
    expect(typing).toEqual(['c1']);

    timers.advanceTo(T0 + 8_000);
    out.thinking(liveGame, 'ai-1', true);
    await settled();
    expect(typing).toEqual(['c1', 'c1']);
  });

  it('GIVEN two games WHEN their AI compose at once THEN each channel gets its indicator; none when a seat stops, or at night', async () => {
    const { out, typing } = output();
    out.thinking(game('c1', day), 'ai-0', true);
    out.thinking(game('c2', day), 'ai-0', true);
    out.thinking(game('c3', day), 'ai-0', false);
    out.thinking(game('c4', TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']).state), 'ai-0', true);
    await settled();
    expect(typing.sort()).toEqual(['c1', 'c2']);
  });
});
