import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every level: equal values ⇒ equal text ⇒ equal hashes. Written
 * out by hand rather than through a JSON.stringify replacer, which would copy every object.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      const v: unknown = value[i];
      out += v === undefined || typeof v === "function" ? "null" : canonicalJson(v);
    }
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  if (typeof (obj as { toJSON?: unknown }).toJSON === "function")
    return canonicalJson(JSON.parse(JSON.stringify(obj)));
  let out = "{";
  let first = true;
  for (const key of Object.keys(obj).sort()) {
    const v = obj[key];
    if (v === undefined || typeof v === "function") continue;
    out += `${first ? "" : ","}${JSON.stringify(key)}:${canonicalJson(v)}`;
    first = false;
  }
  return `${out}}`;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Hash of anything serialisable, stable across processes and key order. */
export function stableHash(value: unknown, length = 16): string {
  return sha256Hex(canonicalJson(value)).slice(0, length);
}
