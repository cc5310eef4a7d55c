/**
 * One episode's page: the terminal's view model of it (cli/tui/records), the export record, and
 * what the browser shows beyond the terminal — a shop call's results as the agent read them (the
 * cards of a search, the detail of a view: the environment's own search and renderers run again on
 * the episode's catalog, so the page shows the text the agent had) and a market seller's turn.
 */
import type { SellerTurnRecord } from "../../environments/market/record.ts";
import { SearchActionSchema } from "../../environments/shop/actions.ts";
import { detailLines, resultText, tagsOf } from "../../environments/shop/results.ts";
import { cardOf, detailOf, runSearch, searchQuery } from "../../environments/shop/search.ts";
import type { Card, ShopTask } from "../../environments/shop/types.ts";
import type { Store } from "../../environments/store/index.ts";
import { trialAt, trialsAfter, trialsBefore } from "../../environments/store/trial-pages.ts";
import { episodeModel } from "../tui/records/index.ts";
import type { TrialRecord } from "../tui/records/types.ts";
import type { EpisodePageData, SellerTurnView, ShopCallResult, ShopCardView } from "./api-types.ts";
import { ViewRequestError } from "./episodes.ts";
import { type RecordContext, recordOf } from "./records.ts";

function cardView(c: Card, position: number): ShopCardView {
  return {
    position,
    id: c.id,
    name: c.name,
    neighborhood: `${c.neighborhood} (${c.area})`,
    stars: c.stars,
    price: c.price,
    wasPrice: c.wasPrice,
    reviewScore: c.reviewScore,
    reviewCount: c.reviewCount,
    tags: tagsOf(c),
    snippet: c.snippet,
  };
}

function isShopTask(task: unknown): task is ShopTask {
  const t = task as Partial<ShopTask> | null;
  return typeof t === "object" && t !== null && Array.isArray(t.listings) && typeof t.rules === "object";
}

/** Each search and view of a shop episode with what it returned, from the episode's own catalog. */
export function shopResults(record: TrialRecord, task: unknown): ShopCallResult[] {
  if (!isShopTask(task) || !Array.isArray(record.trajectory)) return [];
  const byId = new Map(task.listings.map((l) => [l.id, l]));
  const out: ShopCallResult[] = [];
  for (const t of record.trajectory as { step: number | null; tool: string; args: unknown; ok: boolean }[]) {
    if (!t.ok || t.step === null) continue;
    if (t.tool === "search") {
      const parsed = SearchActionSchema.safeParse({ ...(t.args as object), type: "search" });
      if (!parsed.success) continue;
      const { type: _, ...args } = parsed.data;
      const query = searchQuery(args);
      const page = runSearch(task.listings, query, task.rules.pageSize);
      const cards = page.listings.map(cardOf);
      out.push({
        step: t.step,
        text: resultText(
          { kind: "results", query, total: page.total, pages: page.pages, cards },
          task.rules.pageSize,
        ),
        cards: cards.map((c, i) => cardView(c, i + 1)),
        listing: null,
      });
    } else if (t.tool === "view") {
      const id = (t.args as { id?: unknown } | null)?.id;
      const l = typeof id === "string" ? byId.get(id) : undefined;
      if (!l) continue;
      const d = detailOf(l);
      out.push({
        step: t.step,
        text: detailLines(d),
        cards: null,
        listing: {
          ...cardView(d, 0),
          roomType: d.roomType,
          freeCancellation: d.freeCancellation,
          breakfast: d.breakfast,
          description: d.description,
        },
      });
    }
  }
  return out;
}

function oneLine(v: unknown): string {
  try {
    return JSON.stringify(v) ?? "";
  } catch {
    return String(v);
  }
}

/** A market seller's turn from its record. */
export function sellerTurn(record: TrialRecord): SellerTurnView | null {
  const r = record as unknown as Partial<SellerTurnRecord>;
  if (r.env !== "market" || !r.before || typeof r.round !== "number") return null;
  return {
    market: String(r.market ?? ""),
    instance: String(r.instance ?? ""),
    round: r.round,
    seller: Number(r.seller ?? 0),
    name: String(r.name ?? ""),
    player: String(r.player ?? r.agent ?? ""),
    adopter: r.adopter === true,
    cost: Number(r.cost ?? 0),
    before: { price: r.before.price, description: r.before.description, arm: r.before.arm },
    after: {
      price: Number(r.price ?? 0),
      description: String(r.description ?? ""),
      arm: String(r.arm ?? ""),
    },
    action: String(r.action ?? ""),
    calls: (r.calls ?? []).map((c) => ({
      tool: c.tool,
      args: oneLine(c.args),
      ok: c.ok,
      error: c.ok ? null : c.result,
    })),
    endReason: String(r.endReason ?? ""),
    invalidCalls: Number(r.invalidCalls ?? 0),
    observation: (r.observation ?? {}) as unknown as Record<string, unknown>,
  };
}

/** The page of episode `seq` of a run. */
export function episodePage(store: Store, run: RecordContext, seq: number): EpisodePageData {
  const t = trialAt(store, run.id, seq);
  if (!t) throw new ViewRequestError(`run ${run.id} has no stored episode ${seq}`, 404);
  const record = recordOf(run, t);
  const model = episodeModel(record, t.task);
  return {
    runId: run.id,
    env: run.env,
    seq,
    model,
    results: run.env === "shop" ? shopResults(record, t.task) : null,
    sellerTurn: run.env === "market" ? sellerTurn(record) : null,
    record: record as Record<string, unknown>,
    prev: trialsBefore(store, run.id, seq, 1)[0]?.seq ?? null,
    next: trialsAfter(store, run.id, seq, 1)[0]?.seq ?? null,
  };
}
