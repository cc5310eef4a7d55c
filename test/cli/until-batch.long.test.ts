/**
 * A `--until` run through the provider's batch API (serve-sim's `/v1/batches`): each block's calls go
 * as batches of their own, and the run stops at the look and stores the trials the same run made
 * live does.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSimServer } from "../../agents/serve-sim/index.ts";
import { trialRecords } from "../../environments/runner/records.ts";
import { Store } from "../../environments/store/index.ts";
import { runCli, tempDir } from "../helpers/cli.ts";

function args(url: string, store: string, extra: string[] = []): string[] {
  return [
    "run",
    "choice",
    "--agent",
    "openai:sim-steep",
    "--base-url",
    url,
    "--pairs",
    "150",
    "--triples",
    "0",
    "--fives",
    "0",
    "--until",
    "beta-lnp±2",
    "--store",
    store,
    "--json",
    ...extra,
  ];
}

function records(file: string): string[] {
  const s = Store.open(file, { create: false, readonly: true });
  try {
    const id = s.listRuns()[0]!.id;
    return [...trialRecords(s, id)].map((r) => JSON.stringify({ ...r, usage: undefined }));
  } finally {
    s.close();
  }
}

interface RunJson {
  runId: string;
  stored: number;
  until: unknown;
  headline: { targets: unknown };
}

describe("--until with --batch", () => {
  it("stops where the live run stops, on the same trials", async () => {
    const dir = tempDir();
    const server = await startSimServer();
    try {
      const live = await runCli(args(server.url, path.join(dir, "live.db")), {
        env: { OPENAI_API_KEY: "x" },
      });
      expect(live.code, live.stderr).toBe(0);
      const batch = await runCli(args(server.url, path.join(dir, "batch.db"), ["--batch"]), {
        env: { OPENAI_API_KEY: "x" },
      });
      expect(batch.code, batch.stderr).toBe(0);
      const a = JSON.parse(live.stdout) as RunJson;
      const b = JSON.parse(batch.stdout) as RunJson;
      expect(b.runId).toBe(a.runId);
      expect(b.stored).toBe(a.stored);
      expect(b.stored).toBeLessThan(1200);
      expect(b.until).toEqual(a.until);
      expect(b.headline.targets).toEqual(a.headline.targets);
      expect(records(path.join(dir, "batch.db"))).toEqual(records(path.join(dir, "live.db")));
    } finally {
      await server.close();
    }
  });
});
