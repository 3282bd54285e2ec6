import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startEditorWorld, type EditorWorld } from './editor-world.ts';

let e: EditorWorld;
beforeEach(async () => {
  e = await startEditorWorld();
});
afterEach(() => e.close());

describe('/persona edit: one conversation per thread or DM, the last opened', () => {
  it('GIVEN editors open on Otto, then Vera, in the server WHEN alice opens Vera and then Otto in a DM THEN the DM says it edits Otto, and her next DM edits Otto', async () => {
    const otto = await e.persona('Otto Lilienthal');
    const vera = await e.persona('Vera Rubin');
    await e.openThread(otto);
    await e.openThread(vera);
    const alice = e.w.sim.user('alice');
    expect(messageText(await alice.slash('dm', 'persona', { subcommand: 'edit', options: { persona: vera.id } }).ephemeral())).toMatch(
      /Editing \*\*Vera Rubin\*\* here/,
    );
    const second = await alice.slash('dm', 'persona', { subcommand: 'edit', options: { persona: otto.id } }).ephemeral();
    expect(messageText(second)).toMatch(/Editing \*\*Otto Lilienthal\*\* here instead of \*\*Vera Rubin\*\*/);

    e.fake.enqueue(reply.text('Otto it is.'));
    alice.dm('Make him bolder.');
    await e.w.sim.until(() => e.w.sim.dmsTo('alice').some((m) => messageText(m).includes('Otto it is.')));
    await e.w.bot.idle();
    expect(e.fake.last.system).toContain('Name: Otto Lilienthal');
    expect(e.fake.last.system).not.toContain('Vera');
  });
});
