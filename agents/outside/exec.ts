import { UserError } from "../../environments/kernel/errors.ts";
import type { ToolSurface } from "../../environments/kernel/surface.ts";
import type { OutsideOptions, OutsidePlayer } from "./registry.ts";

/** `exec:<command>`: a program started once per episode with a private MCP endpoint. */
export function execPlayer(
  spec: string,
  _command: string,
  _surface: ToolSurface,
  _options: OutsideOptions,
): OutsidePlayer {
  throw new UserError(`agent "${spec}": exec: agents are not built yet`);
}
