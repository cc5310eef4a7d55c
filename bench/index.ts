/**
 * `npm run bench`: every benchmark, each printing its own figures and ratios measured in one run.
 *   npm run bench -- --million     also the 1,000,000-trial memory check
 */
import { benchChoice } from "./choice.ts";

await benchChoice();
try {
  // The logit benchmark lands with the choice-analysis work; skip it quietly until then.
  const logit = (await import("./logit.ts")) as { benchLogit?: () => Promise<void> };
  if (logit.benchLogit) await logit.benchLogit();
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw err;
}
