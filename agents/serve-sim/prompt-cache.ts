/**
 * A provider's prompt cache, as serve-sim reports it: a request whose leading messages an earlier
 * request already sent has those tokens "cached" (`usage.prompt_tokens_details.cached_tokens`), as
 * OpenAI reports a prefix it has seen (a multi-turn episode's every turn after the first, mostly).
 * Simplified: whole messages, no minimum length, no expiry but a bounded memory of prefixes.
 */
import { createHash } from "node:crypto";
import { messageText, type WireMessage } from "./request.ts";

/** Prefixes remembered at most (the oldest are forgotten first). */
const MAX_PREFIXES = 200_000;

export class PromptCache {
  private readonly seen = new Set<string>();

  /**
   * Characters of the longest run of leading messages (all but the last) sent before, and
   * remembers this request's prefixes.
   */
  cachedChars(model: string, messages: readonly WireMessage[]): number {
    const h = createHash("sha256").update(model);
    let chars = 0;
    let cached = 0;
    let hit = true;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      h.update("\0").update(
        JSON.stringify([m.role, m.content ?? null, m.tool_calls ?? null, m.tool_call_id ?? null]),
      );
      chars += messageText(m).length;
      const key = h.copy().digest("base64");
      if (hit && i < messages.length - 1 && this.seen.has(key)) cached = chars;
      else hit = false;
      this.remember(key);
    }
    return cached;
  }

  private remember(key: string): void {
    if (this.seen.has(key)) return;
    if (this.seen.size >= MAX_PREFIXES) this.seen.delete(this.seen.values().next().value!);
    this.seen.add(key);
  }
}
