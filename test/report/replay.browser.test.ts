import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayFile } from '../../src/report/replay-html.ts';
import { replayModel, type ReplayModel } from '../../src/report/replay-model.ts';
import { CLOSING_NAME, finishedGame, HOSTILE_NAME, TOOL_CALLS, withTools } from './finished-game.ts';

/** Debian's chromium: `.ci/run` installs it; a developer machine without it skips this file. */
const CHROMIUM = '/usr/bin/chromium';
const RUNNING_IN_CI = process.env.CI === 'true';
const NO_BROWSER = `no Debian chromium at ${CHROMIUM}: apt-get install -y chromium to run these (docs/testing.md)`;

/** CI must prove the page in a browser, so there a missing chromium fails the suite instead of skipping it. */
function describeInBrowser(title: string, suite: () => void): void {
  if (existsSync(CHROMIUM) || RUNNING_IN_CI) describe(title, suite);
  else describe.skip(`${title} (skipped: ${NO_BROWSER})`, suite);
}

interface OpenedReplay {
  readonly page: Page;
  /** Every request the page made, the file itself included. */
  readonly requests: string[];
  /** Script errors, console errors or warnings (a refused resource is one) and dialogs. */
  readonly problems: string[];
}

describeInBrowser('the HTML replay in a browser', () => {
  let browser: Browser | undefined;
  let dir: string | undefined;
  let url: string;
  let model: ReplayModel;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`CI=true but ${NO_BROWSER}`);
    const state = await finishedGame(8, 5, { 0: { name: HOSTILE_NAME, brain: withTools }, 1: { name: CLOSING_NAME } });
    const file = await replayFile(state, 'Browser table');
    model = replayModel(state, 'Browser table')!;
    dir = await mkdtemp(join(tmpdir(), 'dramatis-replay-'));
    const path = join(dir, file!.name);
    await writeFile(path, file!.content);
    url = pathToFileURL(path).href;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Opens the replay; anything but the file itself is refused, and counted. */
  async function open(): Promise<OpenedReplay> {
    const page = await browser!.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
    await page.goto(url);
    await page.getByRole('heading', { name: 'Browser table' }).waitFor();
    return { page, requests, problems };
  }

  /** An AI seat that spoke or voted, and its reasoning beside it, which names no role (so shows without the spoilers). */
  function openThinker() {
    for (const entry of model.entries) {
      if (entry.kind !== 'turn' || entry.secret || !entry.mind || entry.mind.spoiler || entry.lines.length === 0) continue;
      return { player: model.players.find((p) => p.id === entry.playerId)!, mind: entry.mind };
    }
    throw new Error('no thought without a role in it');
  }

  it('GIVEN a finished game WHEN a player is picked THEN their reasoning shows beside their lines and their role stays hidden until the spoilers are on', async () => {
    const { page, requests, problems } = await open();
    const { player, mind } = openThinker();
    const role = player.role!;

    await page.getByLabel('Player').selectOption(player.id);
    await page.locator(`.turn[data-player="${player.id}"] .mind[data-day="${mind.day}"]`, { hasText: mind.text }).first().waitFor();
    await expect.poll(() => page.locator(`.turn:not([data-player="${player.id}"])`).count()).toBe(0);
    const seat = page.locator(`.player[data-player-id="${player.id}"]`);
    await expect.poll(() => seat.textContent()).not.toContain(role.name);
    await expect.poll(() => page.locator('[data-role]').count()).toBe(0);
    await expect.poll(() => page.locator('.secret').count()).toBe(0);

    await page.getByLabel(/Spoilers/).check();
    const label = seat.locator('[data-role]');
    await label.waitFor();
    expect(await label.textContent()).toBe(role.name);
    expect(await label.getAttribute('class')).toContain(`faction-${role.faction}`);
    await page.getByLabel('Player').selectOption('');
    await page.locator('.secret').first().waitFor();

    await page.getByLabel(/Spoilers/).uncheck();
    await label.waitFor({ state: 'detached' });
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
  });

  it('GIVEN the spoilers off WHEN the whole game is shown THEN no thought names a role or a side, no read says "Hercule Poirot 1.00 (known Mafia)" and no Mafia-thread line shows; WHEN they are on THEN all of it is back', async () => {
    const { page, requests, problems } = await open();
    const KNOWN_READ = /\d\.\d{2} \(known [A-Z][a-z]+\)/;
    const ROLE_WORDS = /\b(mafia|town|team|detective|doctor|godfather|jester|vigilante)/i;
    const names = model.players.map((p) => p.name);
    const unnamed = (text: string) => names.reduce((rest, name) => rest.split(name).join(' '), text);
    const shownMinds = model.entries.flatMap((e) => (e.kind === 'turn' && !e.secret && e.mind ? [e.mind] : []));
    const timeline = page.getByRole('region', { name: 'Timeline' });
    // The game has reads that give roles away, and thoughts that do not.
    expect(shownMinds.some((m) => KNOWN_READ.test(m.text))).toBe(true);
    expect(shownMinds.some((m) => !m.spoiler)).toBe(true);

    // A role guess is the seat's own and shows as one ("likely Detective"); nothing else may name a role.
    const guesses = shownMinds.filter((m) => !m.spoiler).flatMap((m) => Object.values(m.guesses));
    const shownGuesses = await page.locator('.guess').allTextContents();
    expect(shownGuesses).toHaveLength(guesses.length);
    for (const guess of guesses) expect(shownGuesses).toContain(`likely ${guess}`);
    await page.evaluate("document.querySelectorAll('.mind .guess').forEach((guess) => guess.remove())");
    const minds = await page.locator('.mind').allTextContents();
    expect(minds).toHaveLength(shownMinds.length);
    for (const text of minds) expect(unnamed(text), text).not.toMatch(ROLE_WORDS);
    expect(await timeline.textContent()).not.toMatch(KNOWN_READ);
    expect(await page.locator('.tone-mafia').count()).toBe(0);
    expect(await page.locator('.withheld').count()).toBe(shownMinds.filter((m) => m.spoiler).length);

    await page.getByLabel(/Spoilers/).check();
    await page.locator('.tone-mafia').first().waitFor();
    await expect.poll(() => timeline.textContent()).toMatch(KNOWN_READ);
    expect(await page.locator('.withheld').count()).toBe(0);
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
  });

  it('GIVEN names, speech and tool output written as markup WHEN shown THEN they read as text and nothing runs', async () => {
    const { page, requests, problems } = await open();
    const seats = page.getByRole('region', { name: 'Seats' });
    await seats.getByText(HOSTILE_NAME, { exact: true }).waitFor();
    await seats.getByText(CLOSING_NAME, { exact: true }).waitFor();

    await page.getByLabel('Player').selectOption(model.players[0]!.id);
    const tools = page.locator('.tools').first();
    await tools.locator('summary').click();
    await tools.getByText(TOOL_CALLS[1]!.output, { exact: true }).waitFor();

    expect(await page.locator('img, b').count()).toBe(0);
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
  });
});
