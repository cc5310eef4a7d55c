/**
 * The LLM client (`--client openai:<model>`): a model plays the persona from a prompt holding the
 * profile (environments/shop/client/prompt.ts), through the same caller as any LLM agent (cache,
 * retries, rate limits, batch, pools). Its opening is the persona's fixed opening, so every client
 * of a persona starts an episode alike and client models differ only in their answers; every reply
 * it writes is checked by the client auditor. It answers in text only, whatever the shopper's
 * answer mode.
 */
import type { Acted, Agent, AgentContext, Observation } from "../../environments/kernel/types.ts";
import { type Persona, personaRef } from "../../environments/shop/client/personas.ts";
import type { ClientAction, ClientView } from "../../environments/shop/client/types.ts";
import { openingText } from "../../environments/shop/client/wording.ts";
import type { LlmAgent } from "../llm/agent.ts";
import type { ModelEndpoint } from "../llm/preflight.ts";

export class LlmClient implements Agent<ClientView, ClientAction> {
  constructor(
    readonly id: string,
    readonly persona: Persona,
    /** The model's agent (named `inner`, as the batch host finds wrapped LLM agents). */
    readonly inner: LlmAgent,
  ) {}

  async act(observation: Observation<ClientView>, ctx: AgentContext): Promise<Acted<ClientAction>> {
    const view = observation.view;
    if (view.message === null) {
      return {
        action: {
          type: "open",
          persona: personaRef(this.persona),
          by: this.id,
          text: openingText(this.persona, view.requirements, view.wishes),
        },
      };
    }
    const acted = await this.inner.act(observation, ctx);
    const a = acted.action as { type?: unknown; text?: unknown };
    const text = a.type === "reply" && typeof a.text === "string" ? a.text : "";
    return {
      action: { type: "say", text },
      ...(acted.usage ? { usage: acted.usage } : {}),
      ...(acted.cutAt !== undefined ? { cutAt: acted.cutAt } : {}),
    };
  }

  endEpisode(ctx: AgentContext): void {
    this.inner.endEpisode(ctx);
  }

  /** The endpoints preflight checks before the run spends anything. */
  modelEndpoints(): ModelEndpoint[] {
    const spec = this.inner.spec();
    const urls = spec.settings.replicas ?? [spec.settings.baseURL];
    return urls.map((baseURL) => ({ baseURL, model: spec.settings.model, apiKey: spec.apiKey }));
  }
}
