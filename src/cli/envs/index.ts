import { choiceCli } from "./choice.ts";
import type { EnvironmentCli } from "./types.ts";

/** Every environment `bazaar run` knows; an environment adds its CLI module here (one entry). */
export const ENVIRONMENT_CLIS: readonly EnvironmentCli[] = [choiceCli];

export type { CommonRunOptions, EnvironmentCli } from "./types.ts";
