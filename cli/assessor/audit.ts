/**
 * One audit: the run a checked request names (options.ts), run by `bazaar run`'s own code
 * (`runEnvironment`) into the assessor's store with the participant in its slot as an `a2a:` agent,
 * then analysed by `bazaar analyze --json`'s own command. What comes back is what those commands
 * print for the same run — the run's `--json` document (its counts, its headline) and the analysis's
 * — so the artifact a platform keeps is the one a user gets at a terminal.
 *
 * A run is found again by what defines it: the same request against the same participant (its card's
 * name and version) resumes the run in the store rather than starting over, as the same command does.
 */
import { Command } from "commander";
import type { EpisodeHost } from "../../agents/outside/a2a-endpoint.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import type { RunProgress } from "../../environments/runner/execute.ts";
import { type RunEnded, runEnvironment } from "../actions/run.ts";
import { registerAnalyze } from "../commands/analyze.ts";
import type { Output } from "../output.ts";
import type { CheckedAudit } from "./options.ts";

/** What the assessor's operator decides for every audit. */
export interface AuditSettings {
  store: string;
  /** `--a2a-header` as given to serve-assessor (read from its environment when a run starts). */
  a2aHeader: string[];
  /** Where the participants' episode endpoints listen and are reached. */
  episodes: EpisodeHost;
}

export interface AuditHooks {
  signal: AbortSignal;
  onProgress(p: RunProgress): void;
  /** A line the run says on the way (a note, a retry, what failed). */
  onNote(line: string): void;
}

export interface AuditOutcome {
  runId: string;
  /** Every trial of the run is stored. */
  complete: boolean;
  interrupted: boolean;
  /** The participant's identity (`a2a:<card name>@<card version>`), as the run stored it. */
  agent: string | null;
  /** What `bazaar run` would print as its headline (empty when there is none). */
  headline: string[];
  /** `bazaar run <env> … --json`'s document. */
  run: Record<string, unknown>;
  /** `bazaar analyze <run> --json`'s document, or null with why (too few trials for an estimate). */
  analysis: unknown;
  analysisNote: string | null;
}

/** The `a2a:` agent an entry's identity names (an entry crossed with a client nests it). */
function a2aAgentOf(identity: unknown): string | null {
  if (identity === null || typeof identity !== "object") return null;
  const o = identity as Record<string, unknown>;
  if (o.kind === "a2a" && typeof o.agent === "string") return o.agent;
  for (const v of Object.values(o)) {
    const found = a2aAgentOf(v);
    if (found) return found;
  }
  return null;
}

/** `bazaar analyze <run> --store <store> --json`, through the command itself. */
async function analyzeJson(runId: string, store: string): Promise<unknown> {
  const printed: string[] = [];
  const program = new Command().exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  registerAnalyze(program, { log: (l) => printed.push(l), error: () => {} });
  await program.parseAsync(["analyze", runId, "--store", store, "--json"], { from: "user" });
  return JSON.parse(printed.join("\n")) as unknown;
}

export async function runAudit(
  audit: CheckedAudit,
  settings: AuditSettings,
  hooks: AuditHooks,
): Promise<AuditOutcome> {
  const printed: string[] = [];
  const out: Output = { log: (l) => printed.push(l), error: (l) => hooks.onNote(l) };
  const o = {
    ...audit.options,
    store: settings.store,
    json: true,
    watch: false,
    a2aHeader: settings.a2aHeader,
    a2aEpisodes: settings.episodes,
  };
  // `run` says how a run ended in the process's exit code; the assessor's process outlives its runs.
  const exitCode = process.exitCode;
  let ended: RunEnded;
  try {
    ended = await runEnvironment(audit.envCli, o, out, undefined, {
      signal: hooks.signal,
      onProgress: hooks.onProgress,
    });
  } finally {
    process.exitCode = exitCode;
  }
  const run = JSON.parse(printed.join("\n")) as Record<string, unknown>;
  const { result, plan } = ended;
  let analysis: unknown = null;
  let analysisNote: string | null = null;
  if (result.stored > 0 && !result.interrupted) {
    try {
      analysis = await analyzeJson(plan.runId, settings.store);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      analysisNote = `no analysis yet: ${err.message}`;
    }
  }
  const agent = plan.agents.map((a) => a2aAgentOf(a.identity)).find((a) => a !== null) ?? null;
  return {
    runId: plan.runId,
    // What the request asked for (the whole run, or its --limit) is stored: nothing failed or was cut.
    complete: !result.interrupted && result.stored >= result.target,
    interrupted: result.interrupted,
    agent,
    headline: ended.headline?.lines ?? [],
    run,
    analysis,
    analysisNote,
  };
}
