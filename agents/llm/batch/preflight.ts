/**
 * Before a batch run spends anything: every endpoint its LLM agents call must have the batch API.
 * One list request each (`GET <base>/batches?limit=1`, free): a 404 means the server has none (vLLM's
 * and Ollama's OpenAI servers, for one), a 401 a rejected key — both stop the run with one line.
 */
import { AgentFailure } from "../../../environments/kernel/failures.ts";
import type { AgentEntry } from "../../../environments/kernel/types.ts";
import { modelEndpointsOf } from "../preflight.ts";
import { classifyError } from "../resilience.ts";
import { redact } from "../secrets.ts";
import { type BatchApiClient, OpenAIBatchClient } from "./client.ts";

export async function preflightBatchApi(
  entries: readonly AgentEntry[],
  client: (baseURL: string, apiKey: string | undefined) => BatchApiClient = (url, key) =>
    new OpenAIBatchClient(url, key),
): Promise<void> {
  const seen = new Set<string>();
  for (const e of modelEndpointsOf(entries)) {
    const id = `${e.baseURL}\u0000${e.apiKey ?? ""}`;
    if (seen.has(id)) continue;
    seen.add(id);
    try {
      for await (const _ of client(e.baseURL, e.apiKey).list()) break;
    } catch (err) {
      const c = classifyError(err);
      const reason = redact(c.summary);
      if (c.status === 401 || c.status === 403)
        throw new AgentFailure(
          "configuration",
          `${e.baseURL} rejected the API key for its batch API (${reason})`,
          "set OPENAI_API_KEY (or --env-file) to a key this endpoint accepts",
        );
      if (c.status === 404 || c.status === 405)
        throw new AgentFailure(
          "configuration",
          `${e.baseURL} has no batch API (GET /batches: ${reason})`,
          "run without --batch, or point --base-url at a server with /v1/files and /v1/batches",
        );
      throw new AgentFailure(
        "configuration",
        `the batch API at ${e.baseURL} does not answer (${reason})`,
        "check --base-url and that the server is up, or run without --batch",
      );
    }
  }
}
