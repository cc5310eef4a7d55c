/**
 * What the run summary and `bazaar runs` say failed (cli/actions/failure-lines.ts over
 * environments/kernel/failures.ts): each failed trial by its agent and its label — an outside
 * agent's own ("the MCP session closed mid-episode", "the process exited 3"), a model call's when it
 * has none — and never a model call for an outside agent, records stored before labels included.
 */
import { describe, expect, it } from "vitest";
import { causeLines, leftLine } from "../../cli/actions/failure-lines.ts";
import {
  AgentFailure,
  encodeFailure,
  type FailureRecord,
  failureCauses,
  failureLabel,
  failureOf,
} from "../../environments/kernel/failures.ts";

const infra = (message: string, label?: string): FailureRecord => ({
  kind: "infrastructure",
  message,
  ...(label ? { label } : {}),
});

describe("what failed", () => {
  it("a failure keeps its label through the record and across a thread (by its shape)", () => {
    const f = new AgentFailure("infrastructure", "outside agent: …", undefined, "the process exited 3");
    expect(encodeFailure(f)).toEqual({
      kind: "infrastructure",
      message: "outside agent: …",
      label: "the process exited 3",
    });
    const crossed = failureOf(JSON.parse(JSON.stringify({ ...encodeFailure(f), name: "AgentFailure" })));
    expect(crossed?.label).toBe("the process exited 3");
    expect(encodeFailure(new AgentFailure("infrastructure", "m"))).toEqual({
      kind: "infrastructure",
      message: "m",
    });
  });

  it("labels: its own; a model call's when it has none; an old outside agent's record never a model call", () => {
    expect(failureLabel(infra("x", "the MCP session closed mid-episode"))).toBe(
      "the MCP session closed mid-episode",
    );
    expect(failureLabel(infra("gpt-x: 503 (after 6 attempts)"))).toBe(
      "a model call failed after every retry (timeouts, 5xx, rate limits)",
    );
    expect(failureLabel(infra("outside agent: the MCP session closed before the episode ended"))).toBe(
      "the outside agent went away",
    );
  });

  it("counts by agent and label, one line per agent, most first", () => {
    const causes = failureCauses([
      { agent: "mcp:a", failure: infra("…", "idle past --episode-timeout (600 s)") },
      { agent: "openai:m", failure: infra("m: 503 (after 6 attempts)") },
      { agent: "mcp:a", failure: infra("…", "the MCP session closed mid-episode") },
      { agent: "mcp:a", failure: infra("…", "the MCP session closed mid-episode") },
    ]);
    expect(causes).toEqual([
      { agent: "mcp:a", label: "the MCP session closed mid-episode", trials: 2 },
      { agent: "mcp:a", label: "idle past --episode-timeout (600 s)", trials: 1 },
      {
        agent: "openai:m",
        label: "a model call failed after every retry (timeouts, 5xx, rate limits)",
        trials: 1,
      },
    ]);
    expect(causeLines(causes)).toEqual([
      "  mcp:a: the MCP session closed mid-episode (2), idle past --episode-timeout (600 s) (1)",
      "  openai:m: a model call failed after every retry (timeouts, 5xx, rate limits) (1)",
    ]);
    expect(
      leftLine([
        { agent: "mcp:a", trials: 1 },
        { agent: "mcp:b", trials: 1_200 },
      ]),
    ).toBe("1 trial of mcp:a, 1,200 trials of mcp:b");
  });
});
