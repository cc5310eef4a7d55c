/**
 * Where the app's data comes from: the server's JSON (`/api/…`), or — in a bundle opened from disk —
 * script files that call `bazaarData(key, value)`, loaded by adding a script element (a page from
 * file:// cannot fetch). A bundled run's episode list is filtered, sorted and paged here, from the
 * rows its list file holds, with the same query strings the server takes.
 */
import type { EpisodePage, EpisodePageData, EpisodeRow } from "../api-types.ts";
import { bundleFile, EPISODES_PER_FILE } from "./bundle-file.ts";

declare global {
  interface Window {
    bazaarData?: (key: string, value: unknown) => void;
  }
}

/** A bundle is opened from disk or a static host: there is no /api/ to ask. */
export const BUNDLE =
  location.protocol === "file:" ||
  document.querySelector('meta[http-equiv="Content-Security-Policy"]') !== null;

const waiting = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }[]>();
const loaded = new Map<string, unknown>();

window.bazaarData = (key, value) => {
  loaded.set(key, value);
  for (const w of waiting.get(key) ?? []) w.resolve(value);
  waiting.delete(key);
};

function bundled<T>(key: string): Promise<T> {
  if (loaded.has(key)) return Promise.resolve(loaded.get(key) as T);
  return new Promise<T>((resolve, reject) => {
    const list = waiting.get(key);
    const w = { resolve: resolve as (v: unknown) => void, reject };
    if (list) {
      list.push(w);
      return;
    }
    waiting.set(key, [w]);
    const s = document.createElement("script");
    s.src = bundleFile(key);
    s.onerror = () => {
      for (const x of waiting.get(key) ?? []) x.reject(new Error(`this bundle does not hold ${key}`));
      waiting.delete(key);
    };
    document.head.appendChild(s);
  });
}

export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function http<T>(path: string): Promise<T> {
  const res = await fetch(`/api${path}`, {
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  const body = (await res.json().catch(() => ({ error: res.statusText }))) as T & { error?: string };
  if (!res.ok) throw new HttpError(body.error ?? `${res.status}`, res.status);
  return body;
}

type BundledRow = EpisodeRow & { f: Record<string, string>; s: Record<string, number | null> };
const PAGE = 50;

/** A bundled run's episode page, as the server would answer the same query string. */
async function bundledEpisodes(runId: string, query: string): Promise<EpisodePage> {
  const q = new URLSearchParams(query);
  const list = await bundled<{ rows: BundledRow[] }>(`list/${runId}`);
  const filters = [...q]
    .filter(([k, v]) => k.startsWith("f.") && v !== "")
    .map(([k, v]) => [k.slice(2), v] as const);
  let rows = list.rows.filter((r) => filters.every(([k, v]) => r.f[k] === v));
  const sort = q.get("sort") ?? "seq";
  const desc = sort.startsWith("-");
  const key = desc ? sort.slice(1) : sort;
  if (key !== "seq") {
    const known = rows.filter((r) => r.s[key] !== null && r.s[key] !== undefined);
    known.sort((a, b) => (a.s[key]! - b.s[key]!) * (desc ? -1 : 1) || a.seq - b.seq);
    rows = [...known, ...rows.filter((r) => r.s[key] === null || r.s[key] === undefined)];
  } else if (desc) rows = [...rows].reverse();
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const page = Math.min(Math.max(0, Number(q.get("page") ?? 0) || 0), pages - 1);
  const link = (p: number) => {
    const n = new URLSearchParams(q);
    n.delete("after");
    n.delete("before");
    n.set("page", String(p));
    return n.toString();
  };
  return {
    items: rows.slice(page * PAGE, (page + 1) * PAGE).map(({ f: _f, s: _s, ...r }) => r),
    matched: rows.length,
    next: page + 1 < pages ? link(page + 1) : null,
    prev: page > 0 ? link(page - 1) : null,
    indexing: null,
    offset: page * PAGE,
    failed: q.get("failed") === "yes" ? [] : null,
  };
}

async function bundledEpisode(runId: string, seq: number): Promise<EpisodePageData> {
  const chunk = await bundled<EpisodePageData[]>(`episodes/${runId}/${Math.floor(seq / EPISODES_PER_FILE)}`);
  const e = chunk.find((x) => x.seq === seq);
  if (!e) throw new HttpError(`run ${runId} has no episode ${seq} in this bundle`, 404);
  return e;
}

/** One API path (`/runs`, `/runs/<id>/episodes?…`), from the server or the bundle. */
export function load<T>(path: string): Promise<T> {
  if (!BUNDLE) return http<T>(path);
  const [p, query = ""] = path.split("?");
  const parts = p!.split("/").filter(Boolean).map(decodeURIComponent);
  const [head, id, sub, seq] = parts;
  if (head === "runs" && id === undefined) return bundled<T>("runs");
  if (head === "runs" && id !== undefined && sub === undefined) return bundled<T>(`run/${id}`);
  if (head === "runs" && id !== undefined && sub === "analysis") return bundled<T>(`analysis/${id}`);
  if (head === "runs" && id !== undefined && sub === "episodes" && seq === undefined)
    return bundledEpisodes(id, query) as Promise<T>;
  if (head === "runs" && id !== undefined && sub === "episodes" && seq !== undefined)
    return bundledEpisode(id, Number(seq)) as Promise<T>;
  if (head === "markets" && id !== undefined) return bundled<T>(`market/${id}`);
  return Promise.reject(new HttpError("not in a bundle: open it with bazaar view", 404));
}
