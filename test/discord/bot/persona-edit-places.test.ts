import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startEditorWorld, type EditorWorld } from './editor-world.ts';
import { afterTest, appended, tidy } from './shared-world.ts';

/** One editor world for the file: its model's script reset before each test, alice's personas (and their editors) deleted after. */
let e: EditorWorld;
beforeAll(async () => {
  e = await startEditorWorld();
});
beforeEach(() => void e.fake.reset());
afterEach(() => tidy(e.w));
afterAll(() => e.close());

const MISSING_PERMISSIONS = 50013;

describe('/persona edit: one conversation per thread or DM, the last opened', () => {
  it('GIVEN editors open on Otto, then Vera, in the server WHEN alice opens Vera and then Otto in a DM THEN the DM says it edits Otto, and her next DM edits Otto', async () => {
    const otto = await e.persona('Otto Lilienthal');
    const vera = await e.persona('Vera Rubin');
    const ottoThread = await e.openThread(otto);
    await e.openThread(vera);
    const alice = e.w.sim.user('alice');
    expect(messageText(await alice.slash('dm', 'persona', { subcommand: 'edit', options: { persona: vera.id } }).ephemeral())).toMatch(
      /Editing \*\*Vera Rubin\*\* here/,
    );
    const second = await alice.slash('dm', 'persona', { subcommand: 'edit', options: { persona: otto.id } }).ephemeral();
    expect(messageText(second)).toMatch(/Editing \*\*Otto Lilienthal\*\* here instead of \*\*Vera Rubin\*\*/);
    await e.w.sim.until(() => messageText(e.botMessages(ottoThread).at(-1)!).startsWith('This conversation moved to our DMs'));

    e.fake.enqueue(reply.text('Otto it is.'));
    alice.dm('Make him bolder.');
    await e.w.sim.until(() => e.w.sim.dmsTo('alice').some((m) => messageText(m).includes('Otto it is.')));
    await e.w.bot.idle();
    expect(e.fake.last.system).toContain('Name: Otto Lilienthal');
    expect(e.fake.last.system).not.toContain('Vera');
  });

  it('GIVEN an editor thread WHEN alice opens the persona again THEN the old thread says where the conversation went, and the new thread answers', async () => {
    const failed = appended(() => e.w.sim.failedRequests());
    const ada = await e.persona('Ada Lovelace');
    const first = await e.openThread(ada);
    const second = await e.openThread(ada);
    expect(second.id).not.toBe(first.id);
    expect(messageText(e.botMessages(first).at(-1)!)).toBe(
      `This conversation moved to <#${second.id}>: write there. Messages here no longer reach the editor.`,
    );
    e.fake.enqueue(reply.text('Here now.'));
    e.w.sim.user('alice').say(second, 'Hello?');
    await e.w.sim.until(() => messageText(e.botMessages(second).at(-1)!).includes('Here now.'));
    await e.w.bot.idle();
    expect(failed()).toEqual([]);
  });

  it('GIVEN an editor thread WHEN reopening cannot create the new thread THEN she is told why, and the old thread still answers', async () => {
    const ada = await e.persona('Ada Lovelace');
    const first = await e.openThread(ada);
    afterTest(e.w, e.w.sim.fail({ method: 'POST', route: '/channels/:channelId/threads', status: 403, code: MISSING_PERMISSIONS }));
    const refused = await e.w.sim
      .user('alice')
      .slash('other', 'persona', { subcommand: 'edit', options: { persona: ada.id } })
      .reply();
    expect(messageText(refused)).toMatch(/could not open a private thread/);

    e.fake.enqueue(reply.text('Still here.'));
    e.w.sim.user('alice').say(first, 'Are you there?');
    await e.w.sim.until(() => messageText(e.botMessages(first).at(-1)!).includes('Still here.'));
    await e.w.bot.idle();
  });
});
