/**
 * A PostgreSQL server for the tests, when there is one: `BAZAAR_TEST_POSTGRES` names a database on
 * it whose role may create databases (`.ci/run` starts a server and sets it). Each suite gets a
 * database of its own, dropped afterwards. Without the variable those tests skip, saying so once.
 */
import pg from "pg";

export const TEST_POSTGRES = process.env.BAZAAR_TEST_POSTGRES;

let said = false;
/** Whether the PostgreSQL tests run here; prints why not, once per test file. */
export function hasPostgres(): boolean {
  if (!TEST_POSTGRES && !said) {
    said = true;
    console.log(
      "PostgreSQL tests skipped: no server (set BAZAAR_TEST_POSTGRES=postgres://user:password@127.0.0.1:5432/db, a role that may CREATE DATABASE; see README § PostgreSQL store)",
    );
  }
  return TEST_POSTGRES !== undefined && TEST_POSTGRES !== "";
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: TEST_POSTGRES });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A new, empty database on the test server: its URL, and how to drop it. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_POSTGRES) throw new Error("BAZAAR_TEST_POSTGRES is not set");
  const name = `bazaar_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const u = new URL(TEST_POSTGRES);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** Trials stored in a PostgreSQL store another process is writing (0 before the table exists). */
export async function storedTrialsPg(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
    const r = await c.query("SELECT COUNT(*)::int AS n FROM trials");
    return r.rows[0].n as number;
  } catch {
    return 0;
  } finally {
    await c.end().catch(() => {});
  }
}
