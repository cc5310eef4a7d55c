import { createHash } from "node:crypto";

/** JSON with object keys sorted at every level: equal values ⇒ equal text ⇒ equal hashes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
      );
    }
    return v;
  });
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Hash of anything serialisable, stable across processes and key order. */
export function stableHash(value: unknown, length = 16): string {
  return sha256Hex(canonicalJson(value)).slice(0, length);
}
