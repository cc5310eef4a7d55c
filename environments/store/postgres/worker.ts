/**
 * The thread that owns the PostgreSQL client of one store. The main thread posts one request at a
 * time and waits on a shared flag (connection.ts); this thread runs the request with node-postgres,
 * posts the answer and raises the flag. Long reads go through cursors on clients of their own, so a
 * caller may query between the rows it is reading.
 */
import { type MessagePort, workerData } from "node:worker_threads";
import pg from "pg";
import Cursor from "pg-cursor";
import type { Answer, Request } from "./protocol.ts";

const { url, flag, port } = workerData as { url: string; flag: SharedArrayBuffer; port: MessagePort };
const signal = new Int32Array(flag);

// Counts and sums come back as numbers (int8 and numeric are strings by default, for precision
// beyond 2^53 that no count or token total here reaches).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);

/** Session settings: a statement waits for another's lock as long as a SQLite writer would (30 s). */
const SESSION = "SET lock_timeout = '30s'; SET client_min_messages = warning";

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
const readers = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000 });
readers.on("connect", (c) => {
  // A failure here shows on the reader's first query; it must not end the thread as an unhandled rejection.
  c.query(SESSION).catch(() => {});
});
const cursors = new Map<number, { cursor: Cursor; release: () => void }>();
let nextCursor = 0;
let connected: Promise<void> | null = null;

// A server that goes away answers the next request with an error; until then nothing listens.
client.on("error", () => {});
readers.on("error", () => {});

async function handle(req: Request): Promise<Answer> {
  switch (req.op) {
    case "connect":
      connected ??= client.connect().then(() => client.query(SESSION).then(() => undefined));
      await connected;
      return { ok: true };
    case "query": {
      if (req.begin) await client.query("BEGIN");
      const r = await client.query({ text: req.sql, values: req.params });
      return req.rows ? { ok: true, rows: r.rows } : { ok: true, changes: r.rowCount ?? 0 };
    }
    case "many": {
      if (req.begin) await client.query("BEGIN");
      let changes = 0;
      for (const params of req.rows) changes += (await client.query(req.sql, params)).rowCount ?? 0;
      return { ok: true, changes };
    }
    case "open": {
      const c = await readers.connect();
      const cursor = c.query(new Cursor(req.sql, req.params));
      const id = nextCursor++;
      cursors.set(id, { cursor, release: () => c.release() });
      return { ok: true, cursor: id };
    }
    case "read": {
      const c = cursors.get(req.cursor);
      if (!c) return { ok: false, error: { message: `no cursor ${req.cursor}` } };
      const rows = await c.cursor.read(req.size);
      return { ok: true, rows };
    }
    case "shut": {
      const c = cursors.get(req.cursor);
      cursors.delete(req.cursor);
      if (c) {
        await c.cursor.close().catch(() => {});
        c.release();
      }
      return { ok: true };
    }
    case "end":
      for (const c of cursors.values()) c.release();
      cursors.clear();
      await Promise.allSettled([client.end(), readers.end()]);
      return { ok: true };
  }
}

function errorOf(err: unknown): Answer {
  const e = err as { message?: string; code?: string; detail?: string };
  return { ok: false, error: { message: String(e?.message ?? err), code: e?.code, detail: e?.detail } };
}

port.on("message", (req: Request) => {
  handle(req)
    .catch(errorOf)
    .then((answer) => {
      port.postMessage(answer);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    });
});
