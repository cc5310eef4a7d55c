/**
 * Keys come from the environment (or a .env file the user names) and live only in memory: they never
 * enter the store, exports, logs or error messages. `redact` is applied to every error text that
 * leaves the LLM layer, in case a server echoes a key back.
 */
const secrets = new Set<string>();

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 8) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join("[redacted]");
  return out.replace(/\b(sk-[A-Za-z0-9_-]{8,})\b/g, "[redacted]");
}
