// The PGlite thread: embedded Postgres (WASM) off the bot's event loop, driven by
// `threaded-pglite.ts` through the messages of `pglite-thread-protocol.ts`.
// Plain JavaScript because Node loads a worker's entry itself, without the TypeScript hooks of the
// thread that starts it.
import { openAsBlob } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, messages } from '@electric-sql/pglite';

/** @type {import('./pglite-thread-protocol.ts').ThreadStart} */
const start = workerData;
const port = parentPort;
if (port === null) throw new Error('pglite-thread.mjs runs only as a worker thread');

const db = new PGlite({
  ...(start.dataDir !== null && { dataDir: start.dataDir }),
  ...(start.loadDataDir !== null && { loadDataDir: await readDump(start.loadDataDir) }),
});
/** Open transactions by id: the statement runner, and how to end it. */
const open = new Map();
let nextTx = 1;

// One request at a time, in the order sent: the bot's thread sends a transaction's statements
// only while it holds it, so nothing else interleaves.
let queue = db.waitReady.then(
  () => port.postMessage({ id: 0, ok: true, value: null }),
  (error) => port.postMessage({ id: 0, ok: false, error: describe(error) }),
);
port.on('message', (request) => {
  queue = queue.then(() => answer(request));
});

async function answer(request) {
  try {
    port.postMessage({ id: request.id, ok: true, value: await run(request) });
  } catch (error) {
    port.postMessage({ id: request.id, ok: false, error: describe(error) });
  }
}

async function run(request) {
  switch (request.op) {
    case 'query':
      return runner(request.tx).query(request.sql, request.params, options(request));
    case 'exec':
      return runner(request.tx).exec(request.sql, options(request));
    case 'begin':
      return begin();
    case 'rollback':
      return transaction(request.tx).tx.rollback();
    case 'end':
      return end(request.tx, request.commit);
    case 'close':
      await db.close();
      port.close();
      return null;
    default:
      throw new Error(`unknown request ${String(request.op)}`);
  }
}

/** The dump as a Blob; if it cannot be read, the start fails saying which file. */
async function readDump(path) {
  try {
    return await openAsBlob(path);
  } catch (error) {
    // Said as the start's reply and thrown as the thread's error: whichever the bot's thread reads first names the file.
    const failure = new Error(`cannot read the PGlite dump ${path}: ${String(error)}`);
    port.postMessage({ id: 0, ok: false, error: describe(failure) });
    throw failure;
  }
}

function runner(tx) {
  return tx === null ? db : transaction(tx).tx;
}

function transaction(id) {
  const found = open.get(id);
  if (found === undefined) throw new Error(`transaction ${id} is not open`);
  return found;
}

/** Values of the raw types come back as Postgres wrote them; the caller parses them. */
function options(request) {
  const parsers = Object.fromEntries(request.rawTypes.map((type) => [type, (text) => text]));
  return { rowMode: request.rowMode, parsers };
}

/** Answers once inside the transaction; it stays open (PGlite holding its lock) until `end`. */
function begin() {
  const id = nextTx++;
  return new Promise((entered, failed) => {
    const done = db.transaction(
      (tx) =>
        new Promise((commit, rollBack) => {
          open.set(id, { tx, commit, rollBack, done });
          entered(id);
        }),
    );
    done.catch(failed);
  });
}

async function end(id, commit) {
  const { commit: finish, rollBack, done } = transaction(id);
  open.delete(id);
  if (commit) finish();
  else rollBack(new Error('rolled back by its caller'));
  try {
    await done;
  } catch (error) {
    if (commit) throw error;
  }
  return null;
}

/** @returns {import('./pglite-thread-protocol.ts').ThreadError} */
function describe(error) {
  if (error instanceof messages.DatabaseError) {
    const fields = Object.fromEntries(Object.entries(error).filter(([, value]) => typeof value === 'string'));
    return { kind: 'database', message: error.message, length: error.length, name: error.name, fields };
  }
  const other = error instanceof Error ? error : new Error(String(error));
  return { kind: 'other', message: other.message, stack: other.stack };
}
