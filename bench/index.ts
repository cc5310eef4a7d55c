/**
 * `npm run bench`: every benchmark, each printing its own figures and ratios measured in one run.
 *   npm run bench -- --million     also the 1,000,000-trial memory check
 */
import { benchA2a } from "./a2a.ts";
import { benchBargain } from "./bargain.ts";
import { benchBatch } from "./batch.ts";
import { benchChoice } from "./choice.ts";
import { benchChoiceAnalysis } from "./choice-analysis.ts";
import { benchCliLlm } from "./cli-llm.ts";
import { benchClient } from "./client.ts";
import { benchLlm } from "./llm.ts";
import { benchLogit } from "./logit.ts";
import { benchMarket } from "./market.ts";
import { benchMcp } from "./mcp.ts";
import { benchNegotiation } from "./negotiation.ts";
import { benchPool } from "./pool.ts";
import { benchRateLimit } from "./rate-limit.ts";
import { benchRunners } from "./runners.ts";
import { benchShop } from "./shop.ts";
import { benchStartup } from "./startup.ts";
import { benchStore } from "./store.ts";
import { benchTui } from "./tui.ts";

benchStartup();
await benchChoice();
await benchLogit();
await benchChoiceAnalysis();
await benchLlm();
await benchCliLlm(undefined);
await benchBargain();
await benchShop();
await benchClient();
await benchMarket();
await benchNegotiation();
await benchMcp();
await benchA2a();
await benchTui();
await benchBatch();
await benchRunners();
await benchPool();
await benchRateLimit();
await benchStore();
