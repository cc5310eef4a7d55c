/**
 * A seller's conversation read back into its observation: the exact inverse of `prompt.ts` and the
 * machine's result messages, for simulated sellers behind serve-sim, which see only the messages a
 * client sends. Strict: anything that is not exactly what the environment writes makes the
 * conversation unreadable (null), never half-read.
 */
import { CHAINS } from "../../datasets/hotels/schema.ts";
import type { Message, Observation } from "../kernel/types.ts";
import { REPORT_CLOSING, SELLER_SYSTEM_INTRO } from "./prompt.ts";
import type {
  CompetitorCard,
  HistoryEntry,
  ListingView,
  MarketListing,
  RoundReport,
  SellerRules,
  SellerView,
} from "./types.ts";

const MONEY = String.raw`-?\$\d+(?:\.\d{2})?`;
const RATING = String.raw`(\d{1,2}\.\d)/10 from (\d+) reviews?`;

function money(text: string): number {
  const negative = text.startsWith("-");
  const n = Number(text.replace(/^-?\$/, ""));
  return negative ? -n : n;
}

function readRules(system: string): SellerRules | null {
  if (!system.startsWith(`${SELLER_SYSTEM_INTRO}\n`)) return null;
  const chars = /plain text, at most (\d+) characters;/.exec(system);
  const invalid = /after (\d+) messages? without a valid call your turn ends/.exec(system);
  if (!chars || !invalid) return null;
  return { maxChars: Number(chars[1]), maxInvalid: Number(invalid[1]) };
}

/** "Midtown East (Midtown)" or "Midtown". */
function readPlace(text: string): { neighborhood: string; area: string } {
  const m = /^(.*) \(([^()]*)\)$/.exec(text);
  return m ? { neighborhood: m[1] as string, area: m[2] as string } : { neighborhood: text, area: text };
}

class Lines {
  private i = 0;
  constructor(private readonly lines: readonly string[]) {}
  peek(): string | undefined {
    return this.lines[this.i];
  }
  next(): string | null {
    return this.i < this.lines.length ? (this.lines[this.i++] as string) : null;
  }
  /** The rest of the line after `prefix`, or null when the line does not start with it. */
  field(prefix: string): string | null {
    const line = this.peek();
    if (line === undefined || !line.startsWith(prefix)) return null;
    this.i++;
    return line.slice(prefix.length);
  }
  blank(): boolean {
    if (this.peek() !== "") return false;
    this.i++;
    return true;
  }
  get done(): boolean {
    return this.i >= this.lines.length;
  }
}

function readListing(l: Lines): ListingView | null {
  const head = /^Your listing \(id (.+)\)$/.exec(l.next() ?? "");
  const name = l.field("Name: ");
  const place = l.field("Place: ");
  const stars = l.field("Stars: ");
  const chain = l.field("Brand: ");
  const room = l.field("Room: ");
  const cancel = l.field("Free cancellation: ");
  const breakfast = l.field("Breakfast included: ");
  const reviews = l.field("Reviews: ");
  const price = l.field("Price: ");
  const description = l.field("Description: ");
  if (!head || name === null || place === null || stars === null || chain === null || room === null)
    return null;
  if (cancel === null || breakfast === null || reviews === null || price === null || description === null)
    return null;
  if (!(CHAINS as readonly string[]).includes(chain)) return null;
  const r = new RegExp(`^${RATING}$`).exec(reviews);
  const p = new RegExp(`^(${MONEY}) a night$`).exec(price);
  if (!r || !p || !/^[1-5]$/.test(stars)) return null;
  if (!/^(yes|no)$/.test(cancel) || !/^(yes|no)$/.test(breakfast)) return null;
  return {
    id: head[1] as string,
    name,
    ...readPlace(place),
    stars: Number(stars),
    chain: chain as MarketListing["chain"],
    roomType: room,
    freeCancellation: cancel === "yes",
    breakfast: breakfast === "yes",
    reviewScore: Number(r[1]),
    reviewCount: Number(r[2]),
    price: money(p[1] as string),
    description,
  };
}

function readPositions(text: string): number[] | null {
  if (text === "") return [];
  const m = /^ \(first shown at position (.*)\)$/.exec(text);
  if (!m) return null;
  const out: number[] = [];
  for (const part of (m[1] as string).split(", ")) {
    const pm = /^(\d+): (\d+)$/.exec(part);
    if (!pm) return null;
    const at = Number(pm[1]);
    while (out.length < at) out.push(0);
    out[at - 1] = Number(pm[2]);
  }
  return out;
}

function readReport(l: Lines): { round: number; rounds: number; report: RoundReport } | null {
  const head = /^Round (\d+) of (\d+): (\d+) buyers?; (\d+) bookings? across the market\.$/.exec(
    l.next() ?? "",
  );
  const shown = /^Shown: (\d+) buyers?(.*)$/.exec(l.next() ?? "");
  const views = l.field("Opened: ");
  const bookings = l.field("Booked: ");
  const revenue = l.field("Revenue: ");
  const profit = l.field("Profit: ");
  if (!head || !shown || views === null || bookings === null || revenue === null || profit === null)
    return null;
  const positions = readPositions(shown[2] as string);
  const m = new RegExp(`^${MONEY}$`);
  if (positions === null || !m.test(revenue) || !m.test(profit)) return null;
  return {
    round: Number(head[1]),
    rounds: Number(head[2]),
    report: {
      buyers: Number(head[3]),
      marketBookings: Number(head[4]),
      stats: {
        shown: Number(shown[1]),
        positions,
        views: Number(views),
        bookings: Number(bookings),
        revenue: money(revenue),
        profit: money(profit),
      },
    },
  };
}

const HISTORY = new RegExp(
  `^Round (\\d+): price (${MONEY}) · shown (\\d+) · opened (\\d+) · booked (\\d+) · revenue (${MONEY}) · profit (${MONEY}) · description: (.*)$`,
);

function readHistory(line: string): HistoryEntry | null {
  const m = HISTORY.exec(line);
  if (!m) return null;
  return {
    round: Number(m[1]),
    price: money(m[2] as string),
    shown: Number(m[3]),
    views: Number(m[4]),
    bookings: Number(m[5]),
    revenue: money(m[6] as string),
    profit: money(m[7] as string),
    description: m[8] as string,
  };
}

function readCompetitor(head: string, description: string | null): CompetitorCard | null {
  if (description === null || !head.startsWith("- ")) return null;
  const parts = head.slice(2).split(" · ");
  if (parts.length !== 6) return null;
  const [id, name, place, stars, price, reviews] = parts as [string, string, string, string, string, string];
  const s = /^([1-5]) stars$/.exec(stars);
  const p = new RegExp(`^(${MONEY}) a night$`).exec(price);
  const r = new RegExp(`^${RATING}$`).exec(reviews);
  if (!s || !p || !r) return null;
  return {
    id,
    name,
    ...readPlace(place),
    stars: Number(s[1]),
    price: money(p[1] as string),
    reviewScore: Number(r[1]),
    reviewCount: Number(r[2]),
    description,
  };
}

/** The report message read back into the task's view (without rules and refusals), or null. */
export function readSellerReport(text: string): Omit<SellerView, "rules" | "refused"> | null {
  const l = new Lines(text.split("\n"));
  const intro =
    /^Round (\d+) of (\d+) is over\. Here is how your listing did, and what the other sellers offer\.$/.exec(
      l.next() ?? "",
    );
  if (!intro || !l.blank()) return null;
  const listing = readListing(l);
  if (!listing || !l.blank()) return null;
  const cost = new RegExp(
    `^Your cost: (${MONEY}) a night\\. You may set a price from (${MONEY}) \\(your cost\\) to (${MONEY}) \\(the price cap\\)\\.$`,
  ).exec(l.next() ?? "");
  if (!cost || !l.blank()) return null;
  const report = readReport(l);
  if (!report || !l.blank()) return null;
  const historyHead = l.next();
  const history: HistoryEntry[] = [];
  if (historyHead === "Your earlier rounds, oldest first:") {
    while (!l.done && l.peek() !== "") {
      const h = readHistory(l.next() as string);
      if (!h) return null;
      history.push(h);
    }
  } else if (historyHead !== "Your earlier rounds: none") return null;
  if (!l.blank()) return null;
  const competitorsHead = l.next();
  const competitors: CompetitorCard[] = [];
  if (competitorsHead === "The other sellers' listings as buyers see them:") {
    while (!l.done && l.peek() !== "") {
      const c = readCompetitor(l.next() as string, l.field("  Description: "));
      if (!c) return null;
      competitors.push(c);
    }
  } else if (competitorsHead !== "The other sellers: none") return null;
  if (!l.blank() || l.next() !== REPORT_CLOSING || !l.done) return null;
  if (Number(intro[1]) !== report.round || Number(intro[2]) !== report.rounds) return null;
  return {
    round: report.round,
    rounds: report.rounds,
    listing,
    cost: money(cost[1] as string),
    cap: money(cost[3] as string),
    report: report.report,
    competitors,
    history,
  };
}

/**
 * A seller's conversation read back into its observation, or null when it is not one. After the
 * opening, each of the seller's earlier messages (an `assistant` turn) is followed by its results:
 * one user message per call, or one with a line per call.
 */
export function observeSeller(messages: readonly Message[]): Observation<SellerView> | null {
  const [system, user, ...rest] = messages;
  if (system?.role !== "system" || user?.role !== "user") return null;
  const rules = readRules(system.content);
  const report = readSellerReport(user.content);
  if (!rules || !report) return null;
  const refused: string[][] = [];
  for (const m of rest) {
    if (m.role === "system") return null;
    if (m.role === "assistant") refused.push([]);
    else if (refused.length === 0) return null;
    else refused[refused.length - 1]!.push(...m.content.split("\n"));
  }
  return { messages: messages.slice(), view: { ...report, rules, refused } };
}
