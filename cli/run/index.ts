import { bargainCli } from "./bargain.ts";
import { choiceCli } from "./choice.ts";
import { cueCli } from "./cue.ts";
import { elicitCli } from "./elicit.ts";
import { shopCli } from "./shop.ts";
import type { EnvironmentCli } from "./types.ts";

/** Every environment `bazaar run` knows; an environment adds its CLI module here (one entry). */
export const ENVIRONMENT_CLIS: readonly EnvironmentCli[] = [
  choiceCli,
  elicitCli,
  bargainCli,
  cueCli,
  shopCli,
];

export type { CommonRunOptions, EnvironmentCli } from "./types.ts";
