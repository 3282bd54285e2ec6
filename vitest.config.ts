import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the template databases every test copies instead of migrating its own.
    globalSetup: ['test/support/global-setup.ts'],
    sequence: { sequencer: SlowFirstSequencer },
    // Vitest leaves a core free by default: one worker on 2 cores, idle while a bot test waits on
    // its simulator, its child processes or PostgreSQL. Two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each worker runs its files in one process, importing discord.js, Prisma and PGlite (and
    // compiling their WebAssembly) once instead of once per file: that was over a second of CPU a
    // file. Nothing in src/ or the test helpers keeps state between files that a file could read.
    isolate: false,
    // Bounds for hangs, not for speed: on a loaded 2-core machine a bot test's world (PGlite,
    // migrations, starter personas, a discord.js login) alone took over 60 s to start. The waits
    // inside the tests name their states and carry their own timeouts.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
