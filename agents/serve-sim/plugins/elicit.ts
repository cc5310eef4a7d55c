import type { ElicitAction } from "../../../environments/elicit/actions.ts";
import type { ElicitView } from "../../../environments/elicit/machine.ts";
import { parseDollarAmount } from "../../../environments/elicit/number.ts";
import { observeElicit } from "../../../environments/elicit/observe.ts";
import { RESPONDENT_PRESETS } from "../../sim/respondent.ts";
import type { SimPlugin } from "../plugin.ts";

/** serve-sim models `sim-elicit-<preset>`: the simulated respondents behind an OpenAI-compatible API. */
export const ELICIT_MODEL_PREFIX = "sim-elicit-";

/**
 * The respondent's text answer, said as a call to the `answer` tool when the request offers it (its
 * amount read back with the strict parser), else as the text; an answer with no finite number stays
 * text either way, as a real model's unusable answer would.
 */
export const elicitSimPlugin: SimPlugin = {
  models: Object.fromEntries(
    Object.entries(RESPONDENT_PRESETS).map(([name, p]) => [
      ELICIT_MODEL_PREFIX + name,
      p.make(`sim:${name}`),
    ]),
  ) as SimPlugin["models"],
  observe: (messages) => observeElicit(messages),
  reply(action, observation) {
    const a = action as ElicitAction;
    if (a.type === "answer")
      return { kind: "action", tool: "answer", args: { amount: a.amount }, text: String(a.amount) };
    const signed = (observation.view as ElicitView).queryType === "offer-pair";
    const read = parseDollarAmount(a.text, { signed });
    return read.ok
      ? { kind: "action", tool: "answer", args: { amount: read.value }, text: a.text }
      : { kind: "text", text: a.text };
  },
};
