/**
 * No secret leaves the viewer: keys are never stored (DESIGN.md § Models), but a run's identity or a
 * record may still hold a header, a URL with a password, or a key an agent echoed. Every JSON the
 * server sends or a bundle writes goes through here: values under secret-looking keys, URL
 * passwords, bearer tokens and provider key shapes are replaced, and the secrets of this process's
 * own environment (OPENAI_API_KEY and the like) wherever they appear in any text.
 */

const SECRET_KEY =
  /(^|[_-])(api[_-]?key|apikey|token|secret|password|passwd|authorization|auth|cookie|credentials?)$/i;
const KEY_SHAPES: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\b(?:xox[abp]|ghp|gho|github_pat|glpat|hf)_[A-Za-z0-9_]{8,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):[^\s@/]+@/gi;
const ENV_SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;
export const REDACTED = "[redacted]";

/** Values of this process's environment that name secrets (at least 8 characters: never a word). */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([k, v]) => ENV_SECRET_NAME.test(k) && typeof v === "string" && v.length >= 8)
    .map(([, v]) => v as string);
}

export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: readonly string[] = environmentSecrets()) {
    // Longest first: a secret that contains another is replaced whole.
    this.secrets = [...new Set(secrets)].filter((s) => s.length >= 8).sort((a, b) => b.length - a.length);
  }

  text(s: string): string {
    let out = s;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    for (const shape of KEY_SHAPES) out = out.replace(shape, REDACTED);
    return out.replace(URL_PASSWORD, `$1:${REDACTED}@`);
  }

  /** A copy of a JSON value with every secret replaced (the input is not changed). */
  value<T>(v: T): T {
    return this.walk(v, null) as T;
  }

  private walk(v: unknown, key: string | null): unknown {
    if (typeof v === "string")
      return key !== null && SECRET_KEY.test(key) && v !== "" ? REDACTED : this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.walk(x, null));
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = this.walk(x, k);
      return out;
    }
    return v;
  }
}
