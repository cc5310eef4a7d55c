import type { BargainAction } from "../../environments/bargain/actions.ts";
import type { BargainView } from "../../environments/bargain/types.ts";
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import type { ModelEndpoint } from "../llm/preflight.ts";
import type { Narration, Narrator } from "./narrator.ts";
import { type OfferSchedule, type OgDecision, ogDecision } from "./offer-generator.ts";

/**
 * The OG-Narrator buyer: the Offer Generator decides the move and its price, then the Narrator
 * writes the message. The action is built from the generator's decision alone, so nothing the
 * narrator says can change the move or its price.
 */
export class OgNarratorBuyer implements Agent<BargainView, BargainAction> {
  constructor(
    readonly id: string,
    readonly schedule: OfferSchedule,
    readonly narrator: Narrator,
  ) {}

  /** The models its narrator calls (none for the template narrator), for the run's preflight. */
  modelEndpoints(): ModelEndpoint[] {
    const n = this.narrator as Partial<{ modelEndpoints(): ModelEndpoint[] }>;
    return n.modelEndpoints ? n.modelEndpoints() : [];
  }

  act(
    { view }: Observation<BargainView>,
    ctx: AgentContext,
  ): Acted<BargainAction> | Promise<Acted<BargainAction>> {
    if (view.role !== "buyer") throw new Error(`${this.id} plays only the buyer, not the ${view.role}`);
    const decision = ogDecision(view, this.schedule);
    const narration = this.narrator.narrate({ view, decision }, ctx);
    return narration instanceof Promise
      ? narration.then((n) => acted(decision, n))
      : acted(decision, narration);
  }
}

function acted(decision: OgDecision, narration: Narration): Acted<BargainAction> {
  const meta = narration.note ? { meta: { note: narration.note } } : {};
  const action: BargainAction =
    decision.type === "quit"
      ? { type: "quit", talk: narration.talk }
      : { type: decision.type, price: decision.price, talk: narration.talk };
  return { action: { ...action, ...meta } as BargainAction, usage: narration.usage };
}
