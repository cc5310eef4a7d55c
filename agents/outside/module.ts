import { UserError } from "../../environments/kernel/errors.ts";
import type { ToolSurface } from "../../environments/kernel/surface.ts";
import type { OutsideOptions, OutsidePlayer } from "./registry.ts";

/** `module:<file>[#export]`: a JS/TS module run in process. */
export function modulePlayer(
  spec: string,
  _file: string,
  _surface: ToolSurface,
  _options: OutsideOptions,
): OutsidePlayer {
  throw new UserError(`agent "${spec}": module: agents are not built yet`);
}
