/**
 * Help that fits the command (issue 32, item 6): `serve <env> --help` lists only what applies to a
 * served run — not the served role's agent option (the outside agent is the one under test), not the
 * options that only set that agent, not the model options where no LLM plays beside it, not
 * `--pass-env` where no exec: program does, not `--batch`; `run market --help` not what a market
 * refuses. What is hidden is refused when given, saying why. The commands are built in process
 * (commander only, no CLI process), as cli/main.ts builds them.
 */
import { Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { registerRun } from "../../cli/commands/run.ts";
import { registerServe } from "../../cli/commands/serve.ts";
import { SERVED } from "../../cli/commands/served.ts";
import { ENVIRONMENT_CLIS } from "../../cli/run/index.ts";
import { UserError } from "../../environments/kernel/errors.ts";
import { environmentNamed } from "../../environments/registry.ts";
import { sellerRole } from "../../environments/shop/types.ts";

/** Runs `args` through a fresh `run` + `serve` command tree; what it printed, or what it threw. */
async function cli(args: string[]): Promise<{ help: string; error: unknown }> {
  let help = "";
  const output = { log: () => {}, error: () => {} };
  const program = new Command()
    .exitOverride()
    .configureOutput({ writeOut: (s) => (help += s), writeErr: () => {} });
  registerRun(program, output);
  registerServe(program, output);
  try {
    await program.parseAsync(args, { from: "user" });
    return { help, error: null };
  } catch (error) {
    if (error instanceof CommanderError && error.code === "commander.helpDisplayed")
      return { help, error: null };
    return { help, error };
  }
}

/** The long flags a help text lists. */
async function flagsOf(args: string[]): Promise<Set<string>> {
  const { help, error } = await cli([...args, "--help"]);
  expect(error).toBeNull();
  return new Set([...help.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!));
}

const MODEL = ["--base-url", "--temperature", "--answer-mode", "--no-cache", "--workers", "--prices"];

describe("serve <env> --help lists what applies to a served run", () => {
  it("never the served role's agent, its own options or --batch; always --max-abandons and the design", async () => {
    for (const env of Object.keys(SERVED)) {
      const flags = await flagsOf(["serve", env]);
      expect(flags.has("--agent"), env).toBe(false);
      expect(flags.has("--batch") || flags.has("--batch-size"), env).toBe(false);
      for (const kept of [
        "--agent-name",
        "--max-abandons",
        "--episode-timeout",
        "--store",
        // A market is rounds of runs, each built on the last: it takes no --limit, served or not.
        ...(env === "market" ? [] : ["--limit"]),
        "--seed",
      ])
        expect(flags.has(kept), `${env} ${kept}`).toBe(true);
    }
  });

  it("serve --help says what --max-abandons does", async () => {
    const { help, error } = await cli(["serve", "--help"]);
    expect(error).toBeNull();
    expect(help).toMatch(
      /without a single step by --max-abandons sessions in a row \(default 3\) is the agent's non-answer/,
    );
  });

  it("no model options, --pass-env or --role where the outside agent is the only agent", async () => {
    for (const env of ["choice", "cue", "elicit"]) {
      const flags = await flagsOf(["serve", env]);
      for (const gone of [...MODEL, "--pass-env", "--role"])
        expect(flags.has(gone), `${env} ${gone}`).toBe(false);
    }
    // A shop's clients may be LLMs, its seller negotiators LLMs or exec: programs; its og-narrator
    // schedule is the shopper's, and the outside agent is the shopper (the default role).
    const shop = await flagsOf(["serve", "shop"]);
    for (const kept of [...MODEL, "--client", "--seller-negotiator", "--pass-env", "--role"])
      expect(shop.has(kept), kept).toBe(true);
    for (const gone of ["--og-schedule", "--agent"]) expect(shop.has(gone), gone).toBe(false);
    // As the seller, the shoppers are the run's own: --agent and --og-schedule set them.
    const seller = await flagsOf(["serve", "shop", "--role", "seller"]);
    for (const kept of ["--agent", "--og-schedule", "--negotiable", "--pass-env"])
      expect(seller.has(kept), kept).toBe(true);
    expect(seller.has("--seller-negotiator")).toBe(false);
    // A market's seller: its buyers and their offers' sellers are the run's own; no --limit.
    const market = await flagsOf(["serve", "market"]);
    for (const kept of [...MODEL.filter((f) => f !== "--prices"), "--buyer", "--seller-negotiator", "--role"])
      expect(market.has(kept), kept).toBe(true);
    for (const gone of ["--seller", "--limit", "--retry-errors", "--prices"])
      expect(market.has(gone), gone).toBe(false);
  });

  it("--role names each role and what it is, and one that cannot be served says why", async () => {
    const { help } = await cli(["serve", "shop", "--help"]);
    expect(help.replace(/\s+/g, " ")).toMatch(
      /--role <role> .*shopper, or seller \(the seller of every listing that takes offers/,
    );
    const refusal = async (args: string[]) => {
      const { error } = await cli(args);
      expect(error, args.join(" ")).toBeInstanceOf(UserError);
      return error as UserError;
    };
    const buyer = await refusal(["serve", "market", "--agent-name", "x", "--role", "buyer"]);
    expect(buyer.message).toMatch(
      /^--role buyer: a market's buyers are shop episodes: serve a shopper with bazaar serve shop/,
    );
    expect((await refusal(["serve", "shop", "--agent-name", "x", "--role", "client"])).message).toBe(
      '--role: shop has no role "client"',
    );
    expect((await refusal(["serve", "shop", "--agent-name", "x", "--role", "seller"])).message).toMatch(
      /^serve shop --role seller: the outside agent answers offers, and no listing takes them/,
    );
    expect(
      (
        await refusal([
          "serve",
          "shop",
          "--agent-name",
          "x",
          "--role",
          "seller",
          "--negotiable",
          "0.5",
          "--stdio",
        ])
      ).message,
    ).toMatch(/^serve shop --role seller cannot use --stdio/);
    expect(
      (
        await refusal([
          "serve",
          "shop",
          "--agent-name",
          "x",
          "--negotiable",
          "0.5",
          "--seller-negotiator",
          "mcp:y",
        ])
      ).message,
    ).toBe("--seller-negotiator mcp:y: an mcp: agent is the one served, named by --agent-name");
    expect(
      (await refusal(["serve", "market", "--agent-name", "x", "--seller", "sim:undercut"])).message,
    ).toBe("--seller is the outside agent in serve: it is named by --agent-name");
  });

  it("bargain shows the other role's agents, by --role", async () => {
    const asBuyer = await flagsOf(["serve", "bargain"]);
    expect([asBuyer.has("--buyer"), asBuyer.has("--seller"), asBuyer.has("--og-schedule")]).toEqual([
      false,
      true,
      false,
    ]);
    const asSeller = await flagsOf(["serve", "bargain", "--role", "seller"]);
    expect([asSeller.has("--buyer"), asSeller.has("--seller"), asSeller.has("--og-schedule")]).toEqual([
      true,
      false,
      true,
    ]);
    for (const kept of [...MODEL, "--pass-env", "--role"]) expect(asSeller.has(kept), kept).toBe(true);
  });

  it("an option it does not list is refused when given, saying why", async () => {
    const refusal = async (args: string[]) => {
      const { error } = await cli(args);
      expect(error, args.join(" ")).toBeInstanceOf(UserError);
      return (error as UserError).message;
    };
    expect(await refusal(["serve", "choice", "--agent-name", "x", "--temperature", "0.2"])).toBe(
      "--temperature does not apply to `serve choice`: a served choice run has no LLM agent: the outside agent is its only agent",
    );
    expect(await refusal(["serve", "shop", "--agent-name", "x", "--batch"])).toMatch(
      /^--batch does not apply to `serve shop`: the outside agent plays live/,
    );
    expect(await refusal(["serve", "shop", "--agent-name", "x", "--og-schedule", "exp"])).toMatch(
      /^--og-schedule does not apply to `serve shop`: it sets only --agent agents/,
    );
    expect(await refusal(["serve", "shop", "--agent-name", "x", "--agent", "sim:careful"])).toBe(
      "--agent is the outside agent in serve: it is named by --agent-name",
    );
    expect(
      await refusal(["serve", "bargain", "--agent-name", "x", "--role", "seller", "--seller", "rule:linear"]),
    ).toBe("--seller is the outside agent in serve: it is named by --agent-name");
    expect(await refusal(["serve", "shop", "--agent-name", "x", "--pairs", "3"])).toBe(
      "--pairs is an option of `serve choice` and `serve cue`, not of `serve shop`",
    );
    expect(await refusal(["serve", "shop", "--agent-name", "x", "--max-abandons", "0"])).toMatch(
      /^--max-abandons: /,
    );
    expect(await refusal(["run", "market", "--prices", "p.json"])).toMatch(
      /^--prices does not apply to `run market`/,
    );
  });

  it("its table of roles and options agrees with the environments and their run options", async () => {
    for (const [env, served] of Object.entries(SERVED)) {
      // Every role served is one the environment has (a shop's seller negotiators: seller-1, …),
      // and every role it has is served or said why not.
      const roles = [...environmentNamed(env).roles, ...(env === "shop" ? [sellerRole(1)] : [])];
      for (const [name, role] of Object.entries(served.roles))
        expect(roles, `${env} ${name}`).toContain(role.plays ?? name);
      const plays = Object.entries(served.roles).map(([name, role]) => role.plays ?? name);
      for (const role of environmentNamed(env).roles)
        if (!plays.includes(role) && !(env === "market" && role === "static"))
          expect(Object.keys(served.unserved ?? {}), `${env} ${role}`).toContain(role);
      const envCli = ENVIRONMENT_CLIS.find((e) => e.name === env)!;
      const own = new Set((await envCli.options())(new Command()).options.map((o) => o.long));
      for (const role of Object.values(served.roles))
        for (const flag of [role.option, ...role.own]) expect(own.has(flag), `${env} ${flag}`).toBe(true);
    }
  });
});

describe("run <env> --help lists what applies to the run", () => {
  it("run market: not --limit, --retry-errors or --prices (a market refuses them); run shop: all of them", async () => {
    const market = await flagsOf(["run", "market"]);
    for (const gone of ["--limit", "--retry-errors", "--prices"]) expect(market.has(gone), gone).toBe(false);
    const shop = await flagsOf(["run", "shop"]);
    for (const kept of ["--limit", "--retry-errors", "--prices", "--agent", "--batch", "--pass-env"])
      expect(shop.has(kept), kept).toBe(true);
    // --max-abandons is serve's: a failed exec: trial is never replayed within one run (agents/outside/exec.ts).
    expect(shop.has("--max-abandons")).toBe(false);
  });
});
