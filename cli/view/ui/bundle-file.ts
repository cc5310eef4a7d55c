/**
 * Where a bundle keeps the answer to one request of the app: a script file per key (a page opened
 * from file:// cannot fetch, but it can load scripts). The bundle writer and the app name files by
 * this one function.
 */
export function bundleFile(key: string): string {
  return `data/${key.replace(/[^A-Za-z0-9.-]/g, (c) => `_${c.charCodeAt(0).toString(16).padStart(2, "0")}`)}.js`;
}

/** Episodes per file of a bundled run (one file per episode would be too many files). */
export const EPISODES_PER_FILE = 100;
