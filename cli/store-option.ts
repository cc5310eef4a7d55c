/**
 * Where a command's store is: `--store <file|url>`, a SQLite file or a PostgreSQL URL, defaulting
 * to `$BAZAAR_STORE` and then to ./bazaar.db. A URL's password is never printed: messages show the
 * URL without it, and the next commands a run suggests leave `--store` out when it came from the
 * environment (which still holds it).
 */
import path from "node:path";
import { Option } from "commander";
import { isPostgresUrl, redactUrl } from "../environments/store/postgres/connection.ts";

export const DEFAULT_STORE = "bazaar.db";

/** The store a command uses when `--store` is not given. */
export function defaultStore(): string {
  return process.env.BAZAAR_STORE || DEFAULT_STORE;
}

/** `--store`, for `.addOption(storeOption())`. */
export function storeOption(): Option {
  return new Option(
    "--store <file|url>",
    "the store: a SQLite file, or postgres://user:password@host:port/database ($BAZAAR_STORE sets the default)",
  ).default(defaultStore(), process.env.BAZAAR_STORE ? "$BAZAAR_STORE" : DEFAULT_STORE);
}

/** The store as a message shows it: a file's absolute path, a URL without its password. */
export function shownStore(location: string): string {
  return isPostgresUrl(location) ? redactUrl(location) : path.resolve(location);
}

/** ` --store <where>` for a suggested command, or nothing when the command would find it anyway. */
export function storeFlag(location: string): string {
  if (location === defaultStore()) return "";
  return ` --store ${isPostgresUrl(location) ? `'${redactUrl(location)}'` : location}`;
}
