/**
 * What the viewer's server sends the browser app (and what a bundle holds as files): one JSON
 * shape per page, written by the server (cli/view) and read by the app (cli/view/ui/). Types only — the
 * app imports nothing else from the CLI, so no rule or estimator reaches the browser.
 */
import type { EpisodeModel } from "../tui/records/index.ts";
import type { LiveTurn } from "../tui/records/types.ts";

export type { EpisodeModel };

/** A part of an analysis' text: lines as they are, or a table read back from its columns. */
export type Block =
  | { kind: "text"; lines: string[] }
  | { kind: "table"; header: string[]; rows: string[][]; numeric: boolean[] };

/** One run (or market) in the runs list and at the top of its pages. */
export interface RunRow {
  id: string;
  env: string;
  agents: string[];
  total: number;
  done: number;
  failed: number;
  nonResponses: number;
  createdAt: string;
  updatedAt: string;
  /** A process runs it now (a runner's heartbeat is fresh). */
  active: boolean;
  /** The market run this run is a round of (its rows are under the market's). */
  market: string | null;
  /** A market: its rounds' runs. */
  parts: { runId: string; round: number; part: "buyers" | "sellers" }[] | null;
  /** The headline of its latest analysis, once one was computed. */
  headline: Block[] | null;
}

export interface RunsPage {
  /** Where the store is (a PostgreSQL URL without its password). */
  store: string;
  runs: RunRow[];
  /** Whether this page comes from a bundle (no live updates, no compare across other runs). */
  bundle: boolean;
}

/** A figure of the run's report: a Vega-Lite spec drawn in the browser, or an SVG drawn as an image. */
export interface FigureView {
  file: string;
  title: string;
  spec?: Record<string, unknown>;
  svg?: string;
}

export interface AnalysisView {
  /** `running`: being computed (the last result, if any, is shown meanwhile). */
  status: "running" | "ready" | "failed" | "none";
  /** The stored trials the result is of. */
  trials: number;
  /** The run has more trials than the result is of (a new computation is on its way). */
  stale: boolean;
  progress: { phase: string; read: number; total: number; elapsedMs: number } | null;
  headline: Block[];
  blocks: Block[];
  figures: FigureView[];
  notes: string[];
  error: string | null;
  /** How long the last computation took. */
  tookMs: number | null;
}

export interface FacetView {
  key: string;
  label: string;
  values: { value: string; label: string }[];
}

export interface RunPage {
  run: RunRow;
  /** The run's identity: design, agents, replicates (secrets redacted). */
  config: unknown;
  facets: FacetView[];
  sorts: { key: string; label: string }[];
}

export interface EpisodeRow {
  seq: number;
  agent: string;
  outcome: string;
  detail: string;
  nonResponse: boolean;
  error: string | null;
}

export interface EpisodePage {
  items: EpisodeRow[];
  /** Episodes matching the filters, when known (a filter read record by record needs a full pass). */
  matched: number | null;
  /** Query strings of the next and previous pages (null at an end). */
  next: string | null;
  prev: string | null;
  /** A sorted or record-filtered list is being indexed (the list shows when it is done). */
  indexing: { done: number; total: number } | null;
  /** Position of the page's first item among the matches (sorted lists). */
  offset: number | null;
  /** Failed trials (missing data): listed apart from the stored ones. */
  failed: FailedRow[] | null;
}

export interface FailedRow {
  seq: number;
  agent: string;
  kind: string;
  message: string;
  turns: number;
}

/** A shop call's result as the agent read it: the cards of a search, the detail of a view. */
export interface ShopCallResult {
  step: number;
  /** The text the agent read, exactly. */
  text: string;
  cards: ShopCardView[] | null;
  listing: ShopListingView | null;
}

export interface ShopCardView {
  position: number;
  id: string;
  name: string;
  neighborhood: string;
  stars: number;
  price: number;
  wasPrice: number | null;
  reviewScore: number;
  reviewCount: number;
  tags: string[];
  snippet: string;
}

export interface ShopListingView extends ShopCardView {
  roomType: string;
  freeCancellation: boolean;
  breakfast: boolean;
  description: string;
}

/** A market seller's turn, as its record holds it. */
export interface SellerTurnView {
  market: string;
  instance: string;
  round: number;
  seller: number;
  name: string;
  player: string;
  adopter: boolean;
  cost: number;
  before: { price: number; description: string; arm: string };
  after: { price: number; description: string; arm: string };
  action: string;
  calls: { tool: string; args: string; ok: boolean; error: string | null }[];
  endReason: string;
  invalidCalls: number;
  observation: Record<string, unknown>;
}

export interface EpisodePageData {
  runId: string;
  env: string;
  seq: number;
  model: EpisodeModel;
  /** Shop: every call's result as the agent saw it (by step). */
  results: ShopCallResult[] | null;
  /** Market seller runs: the turn. */
  sellerTurn: SellerTurnView | null;
  /** The export record of the episode (what `bazaar export` writes), secrets redacted. */
  record: Record<string, unknown>;
  prev: number | null;
  next: number | null;
}

export interface LiveEpisodeView {
  seq: number;
  agent: string;
  startedAt: number;
  turns: LiveTurn[];
  model: EpisodeModel;
}

export interface LivePage {
  run: RunRow;
  inFlight: LiveEpisodeView[];
  runners: { runner: string; status: string; heartbeatAt: number; endedAt: number | null }[];
}

/** A market's rounds: per market (instance) and round, each seller's listing and what it did. */
export interface MarketPage {
  id: string;
  rounds: number;
  sellersPerMarket: number;
  markets: MarketInstanceView[];
}

export interface MarketInstanceView {
  key: string;
  rounds: MarketRoundView[];
  /** Shares over rounds, per seller (for the chart). */
  shares: { round: number; seller: string; share: number | null; price: number | null }[];
}

export interface MarketRoundView {
  round: number;
  summary: string;
  buyersRun: string | null;
  sellersRun: string | null;
  sellers: {
    seller: number;
    name: string;
    agent: string;
    adopter: boolean;
    price: number | null;
    priceChange: number | null;
    arm: string | null;
    bookings: number;
    share: number | null;
    turn: string;
    /** The seller's turn after the round (its episode in the sellers' run). */
    turnSeq: number | null;
    wrote: { arm: string; text: string } | null;
    seen: string | null;
  }[];
}

/** Two sides compared on the same tasks: a run, or one agent of a run. */
export interface CompareSide {
  run: string;
  agent: string | null;
  env: string;
  label: string;
}

export interface ComparePage {
  a: CompareSide;
  b: CompareSide;
  /** Tasks (with replicate) both sides played. */
  paired: number;
  onlyA: number;
  onlyB: number;
  metrics: {
    name: string;
    a: number | null;
    b: number | null;
    /** B − A over the paired tasks, with a 95% interval (t, clustered by task). */
    difference: number | null;
    low: number | null;
    high: number | null;
    n: number;
    unit: "share" | "dollars" | "number";
  }[];
  /** Paired tasks where the two sides' outcomes differ, a page of them. */
  differ: { task: string; a: EpisodeRow; b: EpisodeRow }[];
  differing: number;
  next: string | null;
  prev: string | null;
  status: "ready" | "running";
  progress: { read: number; total: number } | null;
}
