/** `npm start` as an operator runs it: one process per database, and a prompt stop on SIGTERM even while a model hangs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { spawnBot } from '../scripts/lib/bot-process.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../src/db/prepare-database.ts';
import { startDiscordSim, type DiscordSim } from '../scripts/fakes/discord/index.ts';
import { reply, type FakeHandler, type FakeLlmServer } from '../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../scripts/fakes/llm/fake-openai.ts';
import { pgliteDirectoryFromTemplate } from './support/test-database.ts';

interface Bot {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string, bot?: Bot): Promise<void> {
  while (!check()) {
    if (bot && bot.child.exitCode !== null) throw new Error(`the bot exited before ${what}:\n${bot.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts the bot exactly as `npm start` does (package.json), against the simulator and a model fake. */
function startBotProcess(sim: DiscordSim, model: FakeLlmServer, dataDir: string, env: Record<string, string> = {}): Bot {
  const child = spawnBot(sim, {
    DATABASE_URL: dataDir,
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: model.baseURL,
    LOG_LEVEL: 'info',
    // The directory is a copy of the migrated template (the migrations have a test of their own).
    MIGRATE_ON_START: 'false',
    ...env,
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, output: () => text, exited };
}

async function world(answer: FakeHandler = () => reply.hang()) {
  const sim = await startDiscordSim({ guilds: [{ name: 'Club', channels: ['game'], members: [{ name: 'alice', owner: true }] }] });
  cleanups.push(() => sim.close());
  const model = await startFakeOpenAi(answer);
  cleanups.push(() => model.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'dramatis-main-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  await pgliteDirectoryFromTemplate(dataDir, 'withStarters');
  return { sim, model, dataDir };
}

describe('npm start', () => {
  it('GIVEN a running bot WHEN a second one opens its database THEN it is refused naming the first; WHEN SIGTERM comes while every model call hangs THEN the bot stops without abandoning work and frees the database', async () => {
    const { sim, model, dataDir } = await world();
    const bot = startBotProcess(sim, model, dataDir);
    await until(() => bot.output().includes('slash commands'), 'it was ready', bot);

    const second = await prepareDatabase({ kind: 'pglite', dataDir }, { migrate: false });
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.error).toContain(`process ${String(bot.child.pid)}`);

    // A game whose AI seats are all waiting for the hanging model.
    await sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public();
    for (const persona of ['Sherlock Holmes', 'Hercule Poirot', 'Miss Marple', 'Oscar Wilde']) {
      await sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
    }
    await sim.user('alice').slash('game', 'mafia', { subcommand: 'start' }).public();
    // A seat's call, not the start-up model check's (which hangs too, and must not hold the stop up either).
    await until(() => model.requests.some((r) => r.system.includes('(seat ')), 'a seat’s model call was in flight', bot);

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(bot.output()).toContain('SIGTERM: shutting down');
    expect(bot.output()).not.toContain('abandoned');

    const reopened = await prepareDatabase({ kind: 'pglite', dataDir }, { migrate: false });
    expect(reopened.ok).toBe(true);
    if (reopened.ok) await reopened.value.close();
  });

  it('GIVEN OPENAI_MODEL names a model OpenAI no longer serves WHEN the bot starts THEN it logs in all the same, and the log says once which model and to change OPENAI_MODEL', async () => {
    const { sim, model, dataDir } = await world(() =>
      reply.status(404, 'The model `gpt-gone` does not exist or you do not have access to it.'),
    );
    const bot = startBotProcess(sim, model, dataDir, { OPENAI_MODEL: 'gpt-gone' });

    await until(() => bot.output().includes('slash commands'), 'it was ready', bot);
    await until(() => bot.output().includes('does not serve the model gpt-gone'), 'the model check warned', bot);

    expect(bot.output()).toMatch(
      /\[warn\] OpenAI does not serve the model gpt-gone \(retired or unknown\): .*Change OPENAI_MODEL to a current model/,
    );
    expect(bot.output().split('does not serve the model gpt-gone')).toHaveLength(2);
    expect(model.requests.map((r) => r.model)).toEqual(['gpt-gone']);
  });

  it('GIVEN a bot killed with -9 WHEN the next one starts THEN its stale lock does not stand in the way', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'dramatis-main-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await pgliteDirectoryFromTemplate(dataDir, 'migrated');
    // The lock alone, as the bot takes it at boot (a whole bot would only add its start-up time).
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { lockDirectory } = await import('./src/db/directory-lock.ts');
         const lock = lockDirectory(${JSON.stringify(dataDir)});
         console.log(lock.ok ? 'locked' : lock.error);
         setInterval(() => undefined, 1000);`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let said = '';
    holder.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await until(() => said.includes('locked'), 'the lock was taken');
    const refused = await prepareDatabase({ kind: 'pglite', dataDir }, { migrate: false });
    expect(refused.ok).toBe(false);

    holder.kill('SIGKILL');
    await exited;

    const next = await prepareDatabase({ kind: 'pglite', dataDir }, { migrate: false });
    expect(next.ok ? 'opened' : next.error).toBe('opened');
    if (next.ok) await next.value.close();
  });
});
