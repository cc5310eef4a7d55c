/**
 * `--a2a-header name=value`: HTTP headers every request to an `a2a:` agent carries (its Agent Card
 * and its JSON-RPC or REST endpoint), typically a credential: `Authorization=Bearer $TOKEN`. `$NAME`
 * or `${NAME}` anywhere in a value is read from bazaar's environment when the run starts (`$$` is a
 * literal `$`), so the secret never has to be typed on a command line that shells keep in history.
 *
 * The values are secrets: they live in this process's memory only. They never enter an agent's
 * identity (a changed token is not a new run, as a changed API key is not), and every text bazaar
 * keeps from an A2A exchange — a failed trial's message, a non-answer's reason, the agent's own words
 * to the client — goes through `redact` first, so an agent that echoes its credential back (in an
 * error page, say) does not put it into the store, an export or a log line.
 */
import { UserError } from "../../environments/kernel/errors.ts";

/** One header as the user gave it, its value read from the environment. */
export interface A2aHeader {
  name: string;
  value: string;
}

/** An HTTP header name (RFC 9110 `token`). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VAR = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*)|(\$))/g;
/**
 * Headers the A2A client sets itself (the protocol version, the body's type): a user's value would
 * be overwritten, or would break the request.
 */
const RESERVED = new Set(["a2a-version", "content-type", "accept", "content-length", "host"]);

const EXAMPLE = "e.g. --a2a-header 'Authorization=Bearer $AGENT_TOKEN'";

/** Parses the `--a2a-header` values, reading `$VAR`s from `env`; a UserError for anything malformed. */
export function parseA2aHeaders(
  values: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): A2aHeader[] {
  const out: A2aHeader[] = [];
  const seen = new Set<string>();
  for (const raw of values) {
    const i = raw.indexOf("=");
    // Only the name is quoted back: the value may already hold a secret typed out.
    const name = (i < 0 ? raw : raw.slice(0, i)).trim();
    if (i < 0) throw new UserError(`--a2a-header "${name}": expected name=value`, EXAMPLE);
    if (!TOKEN.test(name)) throw new UserError(`--a2a-header: "${name}" is not an HTTP header name`, EXAMPLE);
    if (RESERVED.has(name.toLowerCase()))
      throw new UserError(
        `--a2a-header ${name}: bazaar's A2A client sets this header itself`,
        "give only headers the agent needs of you, such as Authorization or an API key header",
      );
    if (seen.has(name.toLowerCase())) throw new UserError(`--a2a-header ${name} is given twice`);
    seen.add(name.toLowerCase());
    const value = raw.slice(i + 1).replace(VAR, (_m, braced?: string, bare?: string, dollar?: string) => {
      if (dollar) return "$";
      const variable = (braced ?? bare) as string;
      const v = env[variable];
      if (v === undefined)
        throw new UserError(
          `--a2a-header ${name}: $${variable} is not set in bazaar's environment`,
          `export ${variable}=… before running bazaar, or write $$ for a literal $`,
        );
      return v;
    });
    if (/[\r\n\0]/.test(value))
      throw new UserError(`--a2a-header ${name}: the value holds a line break or a NUL, which no header may`);
    out.push({ name, value });
  }
  return out;
}

/** Shorter values are not secrets worth the search (and would blank common words in real text). */
const MIN_SECRET_CHARS = 4;

/**
 * The text with every header value (and, for `Scheme credentials` values such as `Bearer xyz`, the
 * credentials alone) replaced by `[redacted]`.
 */
export function redactor(headers: readonly A2aHeader[]): (text: string) => string {
  const secrets = new Set<string>();
  for (const { value } of headers) {
    const v = value.trim();
    if (v.length >= MIN_SECRET_CHARS) secrets.add(v);
    const credentials = /^\S+\s+(\S.*)$/.exec(v)?.[1];
    if (credentials && credentials.length >= MIN_SECRET_CHARS) secrets.add(credentials);
  }
  // Longest first: a value that contains another is replaced whole.
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const s of ordered) if (out.includes(s)) out = out.split(s).join("[redacted]");
    return out;
  };
}
