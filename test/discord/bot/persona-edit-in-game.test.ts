/** A person whose DMs are both their persona editor and, in a game without a Mafia thread, their team's chat. */
import { afterEach, describe, expect, it } from 'vitest';
import { DM_TAKEN_BY_GAME } from '../../../src/discord/editor-chats.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startEditorWorld, type EditorWorld } from './editor-world.ts';
import { AI, seedWhere, settle } from './playing.ts';

let e: EditorWorld | undefined;
afterEach(() => e?.close());

const MISSING_PERMISSIONS = 50013;

describe('the persona editor and a game both reading DMs', () => {
  it('GIVEN alice edits a persona in her DMs WHEN she is Mafia in a game whose Mafia chat by DM THEN her DMs go to her team, the editor asks no model, and she is told once why', async () => {
    e = await startEditorWorld({ seed: seedWhere((roles) => roles.alice === 'mafia') });
    const { w } = e;
    const alice = w.sim.user('alice');
    const persona = await e.persona('Vera Rubin');
    expect(messageText(await alice.slash('dm', 'persona', { subcommand: 'edit', options: { persona: persona.id } }).ephemeral())).toMatch(
      /Editing \*\*Vera Rubin\*\* here/,
    );
    w.sim.fail({ method: 'POST', route: '/channels/:channelId/threads', status: 403, code: MISSING_PERMISSIONS });

    const lobby = await alice.slash('game', 'mafia', { subcommand: 'create' }).public();
    const liveGame = w.bot.liveGames.live[0]!;
    for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated();
    for (const p of AI) await alice.slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: p } }).ephemeral();
    await alice.click(lobby, `lobby:start:${liveGame.state.id}`).updated();
    await w.sim.until(() => liveGame.driver !== null && w.bot.liveGames.mafiaChatByDmOf(alice.id) !== null);
    await settle(w, liveGame);

    alice.dm('We take carol tonight.');
    alice.dm('Agreed?');
    await w.sim.until(() =>
      liveGame.state.log.some((ev) => ev.type === 'speech' && ev.payload.channel === 'mafia' && ev.payload.text === 'Agreed?'),
    );
    await w.bot.idle();

    expect(e.fake.requests).toHaveLength(0);
    expect(w.sim.dmsTo('alice').filter((m) => messageText(m) === DM_TAKEN_BY_GAME)).toHaveLength(1);
  });
});
