/**
 * Simulated clients (`--client sim:<persona>`, and `sim-client-<persona>` behind serve-sim): each
 * plays a persona of `environments/shop/client/personas.ts` from the task's profile by the
 * documented rule of `answer.ts`; `sim:faulty` is the terse persona with planted faults
 * (`faults.ts`). Deterministic: a reply is a function of the profile, the conversation and the
 * message alone.
 */
import type { Acted, Agent, Observation } from "../../../environments/kernel/types.ts";
import { PERSONAS, type Persona, personaRef } from "../../../environments/shop/client/personas.ts";
import type { ClientAction, ClientView } from "../../../environments/shop/client/types.ts";
import { openingText } from "../../../environments/shop/client/wording.ts";
import { clientReply } from "./answer.ts";
import { plantFault } from "./faults.ts";

export class SimClient implements Agent<ClientView, ClientAction> {
  /** A simulated policy: what it throws is bazaar's bug, never its answer. */
  readonly errorsAreBugs = true;
  constructor(
    /** Its spec, as records name who played the client (`sim:terse`). */
    readonly id: string,
    readonly persona: Persona,
    readonly faulty = false,
  ) {}

  act(observation: Observation<ClientView>): Acted<ClientAction> {
    return { action: this.decide(observation.view) };
  }

  decide(view: ClientView): ClientAction {
    if (view.message === null) {
      return {
        type: "open",
        persona: personaRef(this.persona),
        by: this.id,
        text: openingText(this.persona, view.requirements, view.wishes),
      };
    }
    const honest = clientReply(view, this.persona);
    return { type: "say", text: this.faulty ? plantFault(view, this.persona, honest).text : honest };
  }
}

export interface ClientPreset {
  description: string;
  persona: Persona;
  faulty: boolean;
}

/** The simulated clients by name (`sim:<name>`). */
export const CLIENT_PRESETS: Readonly<Record<string, ClientPreset>> = {
  complete: {
    description: "states every requirement at once (the shop's request, word for word: the control)",
    persona: PERSONAS.complete,
    faulty: false,
  },
  partial: {
    description: "states its price cap and area; the rest only when asked",
    persona: PERSONAS.partial,
    faulty: false,
  },
  terse: {
    description: "says only that it needs a room; an open question draws out its price cap",
    persona: PERSONAS.terse,
    faulty: false,
  },
  faulty: {
    description: "terse, and commits each kind of client fault in 10% of its replies",
    persona: PERSONAS.terse,
    faulty: true,
  },
};

export function simClient(name: string): SimClient | null {
  const p = CLIENT_PRESETS[name];
  return p ? new SimClient(`sim:${name}`, p.persona, p.faulty) : null;
}

export { answeredTopics, clientReply } from "./answer.ts";
export { AS_ASSISTANT, ENDS_EARLY, FAULT_RATE, faultDraw, INVENTED, PLANTED, plantFault } from "./faults.ts";
