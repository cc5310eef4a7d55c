/** What every shop table is made of, and the share cell they all print. */
import { percent } from "../report/format.ts";
import type { Share } from "./share.ts";

export interface ShopTable {
  title: string;
  header: string[];
  rows: string[][];
  note?: string;
}

/** "62.5% [54.1, 70.9]" (task-clustered interval), or the share alone. */
export function shareCell(s: Share): string {
  if (s.estimate === null) return "–";
  if (s.low === null || s.high === null) return `${percent(s.estimate)} (n=${s.n})`;
  return `${percent(s.estimate)} [${(100 * s.low).toFixed(1)}, ${(100 * s.high).toFixed(1)}]`;
}
