/**
 * `bazaar serve-assessor`: bazaar as an A2A assessor (cli/assessor/serve.ts). Registering it loads
 * commander alone; the A2A SDK and the environments load when it runs.
 */
import type { Command } from "commander";
import type { ServeAssessorOptions } from "../assessor/serve.ts";
import type { Output } from "../output.ts";
import { storeOption } from "../store-option.ts";

export function registerServeAssessor(program: Command, out: Output): void {
  program
    .command("serve-assessor")
    .description(
      "serve bazaar as an A2A assessor: a message naming an environment, its options and an agent's A2A URL audits that agent (status updates while it runs; the headline and the --json documents as the task's artifact)",
    )
    .option("--host <address>", "address to listen on (off loopback only with --token)", "127.0.0.1")
    .option("--port <n>", "port to listen on (0 picks a free one)", "9009")
    .option(
      "--card-url <url>",
      "the URL the Agent Card gives as the assessor's endpoint, where clients reach it at another address (a container's, a proxy's); default where it listens",
    )
    .option(
      "--token <secret>",
      "a bearer token every JSON-RPC request must carry (Authorization: Bearer <secret>); required off loopback",
    )
    .addOption(storeOption())
    .option("--max-queued <n>", "audits that may wait while one runs (one more is rejected as busy)", "8")
    .optionsGroup("where participants reach their episodes' MCP endpoints:")
    .option("--mcp-host <address>", "address the endpoints listen on", "127.0.0.1")
    .option("--mcp-port <n>", "port the endpoints listen on (0 picks a free one)", "0")
    .option(
      "--mcp-public-url <origin>",
      "the origin participants on other machines reach --mcp-host:--mcp-port at (e.g. http://assessor.internal:9100): the URLs handed to them are under it",
    )
    .option(
      "--a2a-header <name=value>",
      "an HTTP header every request to a participant carries (repeatable); $VAR in the value is read from the environment; never stored, exported or logged",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (o: ServeAssessorOptions) => {
      const { serveAssessor } = await import("../assessor/serve.ts");
      await serveAssessor(o, out);
    });
}
