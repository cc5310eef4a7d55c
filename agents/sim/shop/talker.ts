/**
 * Simulated shoppers that talk to their client (specs/client.md), with exact policies for recovery
 * tests: before shopping they ask, one question a message, in fixed wordings — `asks-first` one
 * open question and then each requirement topic the client has not spoken to (price, stars, area,
 * free cancellation, breakfast, in that order), `asks-price` only the budget — then shop as the
 * careful shopper does on what the client said. A topic is asked once (an unclear answer is not
 * asked again), nothing is asked once every requirement topic is known or the client has asked to
 * just book, and without a client they are the careful shopper. Stateless: the questions are read
 * off the conversation in the view, so they play the same behind serve-sim.
 */
import type { Rng } from "../../../environments/kernel/rng.ts";
import type { Acted, AgentContext, Observation } from "../../../environments/kernel/types.ts";
import { MESSAGE_CLIENT, toolCalls } from "../../../environments/shop/actions.ts";
import { REQUIREMENT_TOPICS, type RequirementTopic } from "../../../environments/shop/client/types.ts";
import type { ShopView } from "../../../environments/shop/types.ts";
import type { ShopSim } from "./haggler.ts";
import { ShopShopper, type ShopShopperParams } from "./shopper.ts";

/** The open question, and one question per requirement topic. */
export const OPEN_QUESTION = "What matters most to you for this stay?";
export const TOPIC_QUESTIONS: Readonly<Record<RequirementTopic, string>> = {
  price: "What is the most you want to pay per night?",
  stars: "How many stars does the hotel need to have at least?",
  area: "Which area of New York should it be in?",
  free_cancellation: "Do you need free cancellation?",
  breakfast: "Do you need breakfast included?",
};

export type AskPolicy = "first" | "price";

/** The next question of a policy, or null when it asks nothing more. */
export function nextQuestion(view: ShopView, policy: AskPolicy): string | null {
  const c = view.client;
  if (!c || c.patienceOut) return null;
  const known = new Set(c.stated.known);
  const sent = c.conversation.filter((e) => e.from === "agent");
  const asked = new Set(sent.flatMap((e) => e.topics));
  const topics: readonly RequirementTopic[] = policy === "price" ? ["price"] : REQUIREMENT_TOPICS;
  const open = topics.filter((t) => !known.has(t) && !asked.has(t));
  if (open.length === 0) return null;
  if (policy === "first" && sent.length === 0) return OPEN_QUESTION;
  return TOPIC_QUESTIONS[open[0]!];
}

export class TalkingShopper implements ShopSim {
  private readonly shopper: ShopShopper;

  constructor(
    readonly id: string,
    readonly params: ShopShopperParams,
    readonly policy: AskPolicy,
  ) {
    this.shopper = new ShopShopper(id, params);
  }

  act(observation: Observation<ShopView>, ctx: AgentContext): Acted<unknown> {
    return { action: this.decide(observation.view, ctx.rng) };
  }

  decide(view: ShopView, rng: Rng): unknown {
    const q = nextQuestion(view, this.policy);
    if (q !== null) return toolCalls([{ name: MESSAGE_CLIENT, args: { text: q } }]);
    return this.shopper.decide(view, rng);
  }
}
