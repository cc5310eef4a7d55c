/**
 * A new PostgreSQL database for one measurement, on a server whose role may create databases, and
 * its removal afterwards (bench/store.ts, bench/runners.ts --postgres).
 */
import pg from "pg";

async function admin(server: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: server });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Creates database `name` (dropping a leftover of that name first) and returns its URL. */
export async function createDatabase(server: string, name: string): Promise<string> {
  await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(server, `CREATE DATABASE ${name}`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Drops the database a `createDatabase` URL names. */
export async function dropDatabase(server: string, url: string): Promise<void> {
  await admin(server, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
}
