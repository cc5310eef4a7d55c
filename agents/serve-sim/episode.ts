/**
 * Finding the episode in a conversation however a framework framed it. bazaar's own agents send
 * the environment's opening as it is written — the system prompt as the system message, the request
 * as the first user message — and each plugin's reader (`environments/<env>/observe.ts`) is strict
 * about exactly that. Outside agents frame the same task their own way: the whole `get_task` text as
 * the user's input under the framework's own instructions, the MCP prompt's messages all as user
 * messages, content parts, the framework's system text before or after the environment's, the task
 * handed over in a tool result. This module puts the conversation back into the environment's own
 * shape — [system prompt, request, …turns] — before the strict reader runs, so the readers stay
 * exact and nothing is half-read: a shape counts only when the reader reads all of it.
 *
 * The search: an opening region is a run of non-assistant messages (the first one, or one after a
 * later assistant turn, where a framework that called `get_task` itself gets the task as a tool
 * result). Each text part in it is split into paragraphs; the system prompt is a run of paragraphs
 * of one part, and the request a run of paragraphs of the same part after it or of a later non-system
 * part. The region's later messages stay the episode's (a seller's opening holds the buyer's first
 * move); the rest of the region, anything before it, and system messages among the turns (no
 * environment writes one mid-episode) are the framework's and are dropped. The opening found is
 * remembered, so an episode's later requests, which repeat it, are not searched again.
 *
 * A conversation whose episode is over (a result says so: a framework asks its model once more after
 * the call that ended the episode) is answered with a short closing line.
 */
import type { Message } from "../../environments/kernel/types.ts";
import type { SimPlugin } from "./plugin.ts";
import { type WireMessage, wireTexts } from "./request.ts";

type Observation = NonNullable<ReturnType<SimPlugin["observe"]>>;

/** What the conversation came to for one plugin. */
export type EpisodeReading =
  /** The episode, in the environment's own shape, and the observation read from it. */
  | { kind: "read"; messages: Message[]; observation: Observation }
  /** The episode is over: what to say instead of acting. */
  | { kind: "over"; closing: string }
  /** Not this environment's conversation (the messages as sent, roles mapped). */
  | { kind: "unread"; messages: Message[] };

/**
 * How the environments' last results open (`outcomeText` of each environment's surface hooks): the
 * result of the call that ended the episode. `test/agents/serve-sim/episode.test.ts` checks every
 * environment's wording against it.
 */
const OVER = /^(?:The task|The negotiation|Your turn) is over: [^\n]+$/;

/** A framework's preamble turns before the task (a `get_task` call, a greeting) are few. */
const MAX_REGIONS = 4;
/**
 * Beyond this many paragraphs a region is not an opening anyone writes (the longest environment
 * opening has about ten): not searched, which bounds the work on any request (5–7 ms a region at 32,
 * once: a region where nothing reads is remembered as such).
 */
const MAX_PARAGRAPHS = 32;
/** Openings remembered per plugin: an episode's later requests repeat its opening. */
const CACHE_SIZE = 512;

interface Part {
  /** The message it is part of (its index in the region). */
  message: number;
  /** From a system or developer message: framework text or the system prompt, never the request. */
  system: boolean;
  paragraphs: string[];
}

/** An opening found: the system prompt, the request, and the region's message that holds the request. */
interface Opening {
  system: string;
  request: string;
  /** Messages of the region after this one are the episode's (a seller's opening has the buyer's move). */
  message: number;
}

function roleOf(m: WireMessage): Message["role"] {
  if (m.role === "assistant") return "assistant";
  return m.role === "system" || m.role === "developer" ? "system" : "user";
}

/**
 * A wire message as the kernel's Message type shows it: tool results read as user turns, an
 * assistant turn that only called tools as its `name(arguments)` lines (serve-sim's echo of a call).
 */
export function kernelMessage(m: WireMessage): Message {
  const role = roleOf(m);
  let content = wireTexts(m).join("");
  if (role === "assistant" && content === "" && Array.isArray(m.tool_calls)) {
    content = m.tool_calls
      .map((t) => `${t.function?.name ?? "tool"}(${t.function?.arguments ?? ""})`)
      .join("\n");
  }
  return { role, content };
}

/**
 * The text trimmed and, when it differs, as written: the environments write no text with space at
 * either end, and a framework may add a newline.
 */
function variants(text: string): string[] {
  const trimmed = text.trim();
  return trimmed === text || trimmed === "" ? [text] : [trimmed, text];
}

/**
 * The request candidates after a system prompt that ends at paragraph `end` of part `at`: a run of
 * paragraphs that ends its part (what a framework adds beside the request is its system text, or
 * comes before it), longest first, so a request of several paragraphs is read whole before any
 * shorter run of it. Fixing the end keeps the search cubic in the region's paragraphs.
 */
function* requests(parts: readonly Part[], at: number, end: number): Generator<[string, number]> {
  for (let p = at; p < parts.length; p++) {
    const part = parts[p] as Part;
    if (p > at && part.system) continue;
    for (let start = p === at ? end : 0; start < part.paragraphs.length; start++)
      yield [part.paragraphs.slice(start).join("\n\n"), part.message];
  }
}

/** Every [system prompt, request] in the region's parts that `reads` accepts, in order of preference. */
function* openingsIn(
  parts: readonly Part[],
  reads: (system: string, request: string) => boolean,
): Generator<Opening> {
  for (let at = 0; at < parts.length; at++) {
    const { paragraphs } = parts[at] as Part;
    for (let start = 0; start < paragraphs.length; start++)
      for (let end = paragraphs.length; end > start; end--) {
        const systems = variants(paragraphs.slice(start, end).join("\n\n"));
        for (const [request, message] of requests(parts, at, end))
          for (const r of variants(request))
            for (const s of systems) if (reads(s, r)) yield { system: s, request: r, message };
      }
  }
}

/** A region's parts: every text part of its messages, split into paragraphs. */
function partsOf(region: readonly WireMessage[]): Part[] {
  const parts: Part[] = [];
  for (const [message, m] of region.entries()) {
    const system = roleOf(m) === "system";
    for (const text of wireTexts(m))
      if (text !== "") parts.push({ message, system, paragraphs: text.split("\n\n") });
  }
  return parts;
}

/** The closing line when a result in the conversation says the episode is over; null otherwise. */
export function closingLine(messages: readonly WireMessage[]): string | null {
  let acted = false;
  for (const m of messages) {
    if (m.role === "assistant") {
      acted = true;
      continue;
    }
    if (!acted || roleOf(m) === "system") continue;
    const text = wireTexts(m).join("").trim();
    if (OVER.test(text)) return `Done. ${text}`;
  }
  return null;
}

/**
 * The opening of a conversation framed as bazaar's own agent frames it — a system message and a user
 * message, each one text with nothing around it, then the rest — or null. It is the first opening
 * the search would find, without splitting anything.
 */
function nativeOpening(wire: readonly WireMessage[]): Opening | null {
  const [system, request] = wire;
  if (!system || !request || roleOf(system) !== "system" || request.role !== "user") return null;
  const [s, ...moreS] = wireTexts(system);
  const [r, ...moreR] = wireTexts(request);
  if (s === undefined || r === undefined || moreS.length > 0 || moreR.length > 0) return null;
  if (s !== s.trim() || r !== r.trim() || s === "" || r === "") return null;
  return { system: s, request: r, message: 1 };
}

/** A run of non-assistant messages where an episode may open: `wire[from..to)`. */
class Region {
  private split: { parts: Part[]; key: string } | undefined;

  constructor(
    private readonly wire: readonly WireMessage[],
    readonly from: number,
    readonly to: number,
  ) {}

  /** Its text parts, split into paragraphs on first use (most requests need only the first region's). */
  get parts(): Part[] {
    this.split ??= this.splitParts();
    return this.split.parts;
  }

  /** What identifies it in the finder's memory: its parts, message by message. */
  get key(): string {
    this.split ??= this.splitParts();
    return this.split.key;
  }

  private splitParts() {
    const parts = partsOf(this.wire.slice(this.from, this.to));
    return { parts, key: JSON.stringify(parts) };
  }
}

/** The conversation's first regions: before the first assistant turn, and after each later one. */
function regionsOf(wire: readonly WireMessage[]): Region[] {
  const regions: Region[] = [];
  for (let i = 0; i < wire.length && regions.length < MAX_REGIONS; ) {
    if (wire[i]?.role === "assistant") {
      i++;
      continue;
    }
    let j = i;
    while (j < wire.length && wire[j]?.role !== "assistant") j++;
    regions.push(new Region(wire, i, j));
    i = j;
  }
  return regions;
}

/** One plugin's episode finder, with the openings it has found (or not) remembered. */
export class EpisodeFinder {
  /** Region (its parts) → the opening found in it, or null when nothing in it reads as one. */
  private readonly openings = new Map<string, Opening | null>();

  constructor(private readonly plugin: Pick<SimPlugin, "observe">) {}

  read(wire: readonly WireMessage[]): EpisodeReading {
    const asSent = wire.map(kernelMessage);
    const regions = regionsOf(wire);
    /** The episode with `opening` and the turns after it; `alone`: its reading without the turns. */
    const attempt = (region: Region, opening: Opening, alone?: Observation): EpisodeReading | null => {
      const turns = asSent.slice(region.from + opening.message + 1).filter((m) => m.role !== "system");
      const messages: Message[] = [
        { role: "system", content: opening.system },
        { role: "user", content: opening.request },
        ...turns,
      ];
      const observation = alone && turns.length === 0 ? alone : this.plugin.observe(messages);
      return observation ? { kind: "read", messages, observation } : null;
    };
    // bazaar's own framing, as most requests come: the search's first candidate, tried as it is.
    const native = nativeOpening(wire);
    if (native) {
      const alone = this.openingAlone(native.system, native.request);
      const read = alone ? attempt(regions[0] as Region, native, alone) : null;
      if (read) return read;
    }
    // An episode's later requests repeat its opening: the one found before is tried first.
    for (const region of regions) {
      const known = this.recall(region.key);
      const read = known ? attempt(region, known) : null;
      if (read) return read;
    }
    // Before any new search: an episode that is over is read no more, however it opened.
    const closing = closingLine(wire);
    if (closing !== null) return { kind: "over", closing };
    for (const region of regions) {
      if (this.openings.get(region.key) === null) continue;
      if (region.parts.reduce((n, p) => n + p.paragraphs.length, 0) > MAX_PARAGRAPHS) continue;
      let alone: Observation | null = null;
      let opens = false;
      // A candidate must read as an opening alone, then with the turns after it: a request a lenient
      // reader accepts (a client's words) may still be the framework's text before the real one.
      const candidates = openingsIn(region.parts, (system, request) => {
        alone = this.openingAlone(system, request);
        return alone !== null;
      });
      for (const opening of candidates) {
        opens = true;
        const read = attempt(region, opening, alone ?? undefined);
        if (read) {
          this.remember(region.key, opening);
          return read;
        }
      }
      if (!opens) this.remember(region.key, null);
    }
    // Last, the conversation as sent: a reader that needs no system prompt (catalog choice's cards)
    // reads a lone user message, which has no opening to find. Searched first, a framework's turns
    // (a `get_task` call) would read as the episode's own (a re-ask).
    const direct = this.plugin.observe(asSent);
    return direct
      ? { kind: "read", messages: asSent, observation: direct }
      : { kind: "unread", messages: asSent };
  }

  /** The reading of an opening alone: [system prompt, request]. */
  private openingAlone(system: string, request: string): Observation | null {
    return this.plugin.observe([
      { role: "system", content: system },
      { role: "user", content: request },
    ]);
  }

  private recall(key: string): Opening | null | undefined {
    const known = this.openings.get(key);
    // Refreshed as most recently used (a Map iterates in insertion order).
    if (known !== undefined) this.remember(key, known);
    return known;
  }

  private remember(key: string, opening: Opening | null): void {
    this.openings.delete(key);
    this.openings.set(key, opening);
    if (this.openings.size > CACHE_SIZE) this.openings.delete(this.openings.keys().next().value as string);
  }
}
