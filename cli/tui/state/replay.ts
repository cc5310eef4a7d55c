/**
 * The replay screen's state (`bazaar watch`): a window of the filtered episode list, the cursor,
 * the episode open and its playback. A pure reducer: what to read next is a `request` in the state,
 * which the app fulfils from the store and answers with a `loaded` action.
 */
import type { ListItem, PageResult, ReplayFilter } from "../replay/source.ts";

export type ReplayRequest =
  | { kind: "first" }
  /** The list from this seq on, with that episode open (`watch --episode`). */
  | { kind: "at"; seq: number }
  | { kind: "last" }
  | { kind: "after"; seq: number }
  | { kind: "before"; seq: number };

export interface FilterChoice {
  key: string;
  hotkey: string;
  label: string;
  /** Values in cycling order; null is "all". */
  values: (string | null)[];
}

export interface ReplayState {
  screen: "list" | "episode";
  filters: readonly FilterChoice[];
  filter: ReplayFilter;
  items: ListItem[];
  cursor: number;
  /** Scan frontiers: the next page before / after the window starts beyond these seqs. */
  headSeq: number;
  tailSeq: number;
  moreBefore: boolean;
  moreAfter: boolean;
  request: ReplayRequest | null;
  /** A cursor move waiting for the page it needs (+1 down, −1 up). */
  pendingMove: number;
  /** The episode open in the episode screen, and how far it has played. */
  open: { seq: number; steps: number; step: number; playing: boolean } | null;
  help: boolean;
  quit: boolean;
}

export type ReplayKey =
  | "up"
  | "down"
  | "pageUp"
  | "pageDown"
  | "home"
  | "end"
  | "enter"
  | "back"
  | "space"
  | "left"
  | "right"
  | "help"
  | "quit"
  | "clear";

export type ReplayAction =
  | { type: "key"; key: ReplayKey }
  | { type: "cycle"; hotkey: string }
  | { type: "loaded"; request: ReplayRequest; page: PageResult }
  | { type: "tick" };

/** Items kept in the list window; scrolling past drops the far end (it reloads on the way back). */
export const WINDOW = 600;
export const PAGE = 100;
const SCREEN_STEP = 10;

export function initialReplay(
  filters: readonly FilterChoice[],
  filter: ReplayFilter = {},
  openSeq?: number,
): ReplayState {
  const f: Record<string, string | null> = {};
  for (const c of filters) f[c.key] = filter[c.key] ?? null;
  return {
    screen: "list",
    filters,
    filter: f,
    items: [],
    cursor: 0,
    headSeq: -1,
    tailSeq: -1,
    moreBefore: false,
    moreAfter: true,
    request: openSeq === undefined ? { kind: "first" } : { kind: "at", seq: openSeq },
    pendingMove: 0,
    open: null,
    help: false,
    quit: false,
  };
}

function openAt(s: ReplayState, cursor: number, fromStart: boolean, playing: boolean): ReplayState {
  const item = s.items[cursor];
  if (!item) return s;
  const steps = item.summary.steps;
  return {
    ...s,
    cursor,
    screen: "episode",
    open: { seq: item.seq, steps, step: fromStart ? 0 : steps, playing },
  };
}

/** Moves the cursor by `delta`, asking for the next page at either end of the window. */
function move(s: ReplayState, delta: number): ReplayState {
  const target = s.cursor + delta;
  const last = s.items.length - 1;
  if (target > last) {
    if (s.moreAfter && !s.request)
      return {
        ...s,
        cursor: Math.max(0, last),
        request: { kind: "after", seq: s.tailSeq },
        pendingMove: target - last,
      };
    return follow({ ...s, cursor: Math.max(0, last) });
  }
  if (target < 0) {
    if (s.moreBefore && !s.request)
      return { ...s, cursor: 0, request: { kind: "before", seq: s.headSeq }, pendingMove: target };
    return follow({ ...s, cursor: 0 });
  }
  return follow({ ...s, cursor: target });
}

/** In the episode screen the open episode follows the cursor. */
function follow(s: ReplayState): ReplayState {
  if (s.screen !== "episode" || !s.open) return s;
  const item = s.items[s.cursor];
  if (!item || item.seq === s.open.seq) return s;
  return openAt(s, s.cursor, s.open.playing, s.open.playing);
}

function loaded(s: ReplayState, request: ReplayRequest, page: PageResult): ReplayState {
  const base = { ...s, request: null, pendingMove: 0 };
  if (request.kind === "at") {
    const first = page.items[0];
    const next: ReplayState = {
      ...base,
      items: page.items,
      cursor: 0,
      headSeq: first?.seq ?? request.seq,
      tailSeq: page.frontier,
      moreBefore: request.seq > 0,
      moreAfter: !page.exhausted,
    };
    return first?.seq === request.seq ? openAt(next, 0, false, false) : next;
  }
  if (request.kind === "first" || request.kind === "last") {
    const items = page.items;
    const atEnd = request.kind === "last";
    const next: ReplayState = {
      ...base,
      items,
      cursor: atEnd ? Math.max(0, items.length - 1) : 0,
      headSeq: atEnd ? page.frontier : -1,
      tailSeq: atEnd ? Number.MAX_SAFE_INTEGER : page.frontier,
      moreBefore: atEnd ? !page.exhausted : false,
      moreAfter: atEnd ? false : !page.exhausted,
    };
    return follow(next);
  }
  if (request.kind === "after") {
    let items = [...s.items, ...page.items];
    let cursor = s.cursor;
    let { headSeq, moreBefore } = s;
    if (items.length > WINDOW) {
      const drop = items.length - WINDOW;
      items = items.slice(drop);
      cursor -= drop;
      headSeq = items[0]!.seq;
      moreBefore = true;
    }
    const next = {
      ...base,
      items,
      cursor,
      headSeq,
      moreBefore,
      tailSeq: page.frontier,
      moreAfter: !page.exhausted,
    };
    // A scan that found nothing yet (a rare filter) keeps going on the next request.
    if (page.items.length === 0 && !page.exhausted)
      return { ...next, request: { kind: "after", seq: page.frontier }, pendingMove: s.pendingMove };
    return s.pendingMove > 0 ? move(next, Math.min(s.pendingMove, page.items.length)) : follow(next);
  }
  let items = [...page.items, ...s.items];
  const cursor = s.cursor + page.items.length;
  let { tailSeq, moreAfter } = s;
  if (items.length > WINDOW) {
    items = items.slice(0, WINDOW);
    tailSeq = items[items.length - 1]!.seq;
    moreAfter = true;
  }
  const next = {
    ...base,
    items,
    cursor,
    tailSeq,
    moreAfter,
    headSeq: page.frontier,
    moreBefore: !page.exhausted,
  };
  if (page.items.length === 0 && !page.exhausted)
    return { ...next, request: { kind: "before", seq: page.frontier }, pendingMove: s.pendingMove };
  return s.pendingMove < 0 ? move(next, Math.max(s.pendingMove, -page.items.length)) : follow(next);
}

function stepBy(s: ReplayState, delta: number): ReplayState {
  if (!s.open) return s;
  const step = Math.max(0, Math.min(s.open.steps, s.open.step + delta));
  return { ...s, open: { ...s.open, step, playing: false } };
}

function onKey(s: ReplayState, key: ReplayKey): ReplayState {
  if (key === "quit") return { ...s, quit: true };
  if (key === "help") return { ...s, help: !s.help };
  if (s.help && key === "back") return { ...s, help: false };
  switch (key) {
    case "up":
      return move(s, -1);
    case "down":
      return move(s, 1);
    case "pageUp":
      return move(s, -SCREEN_STEP);
    case "pageDown":
      return move(s, SCREEN_STEP);
    case "home":
      return {
        ...s,
        items: [],
        cursor: 0,
        request: { kind: "first" },
        open: s.screen === "episode" ? s.open : null,
      };
    case "end":
      return { ...s, items: [], cursor: 0, request: { kind: "last" } };
    case "enter":
      return s.screen === "list" ? openAt(s, s.cursor, false, false) : s;
    case "back":
      return s.screen === "episode" ? { ...s, screen: "list", open: null } : s;
    case "left":
      return stepBy(s, -1);
    case "right":
      return stepBy(s, 1);
    case "space": {
      if (s.screen === "list") return openAt(s, s.cursor, true, true);
      if (!s.open) return s;
      if (s.open.step >= s.open.steps) return { ...s, open: { ...s.open, step: 0, playing: true } };
      return { ...s, open: { ...s.open, playing: !s.open.playing } };
    }
    case "clear":
      return withFilter(s, Object.fromEntries(s.filters.map((f) => [f.key, null])));
  }
}

function withFilter(s: ReplayState, filter: ReplayFilter): ReplayState {
  return {
    ...s,
    filter,
    items: [],
    cursor: 0,
    screen: "list",
    open: null,
    request: { kind: "first" },
    pendingMove: 0,
  };
}

export function replayReducer(s: ReplayState, a: ReplayAction): ReplayState {
  switch (a.type) {
    case "key":
      return onKey(s, a.key);
    case "cycle": {
      const f = s.filters.find((x) => x.hotkey === a.hotkey);
      if (!f) return s;
      const i = f.values.indexOf(s.filter[f.key] ?? null);
      return withFilter(s, { ...s.filter, [f.key]: f.values[(i + 1) % f.values.length] ?? null });
    }
    case "loaded":
      // A page for a request the state no longer makes (the filter changed meanwhile) is stale.
      return a.request === s.request ? loaded(s, a.request, a.page) : s;
    case "tick": {
      const o = s.open;
      if (!o?.playing) return s;
      if (o.step < o.steps) return { ...s, open: { ...o, step: o.step + 1 } };
      // Auto-play goes on to the next episode of the list.
      const next = move(s, 1);
      if (next.open && next.open.seq !== o.seq)
        return { ...next, open: { ...next.open, step: 0, playing: true } };
      return next.request ? next : { ...s, open: { ...o, playing: false } };
    }
  }
}
