import { type ForcedChoiceOutcome, forcedChoiceMachine } from "./forced-choice.ts";
import { renderChoiceMessages } from "./prompt.ts";
import { type PromptTemplate, renderTemplateMessages, templateReask } from "./template.ts";
import { type ChoiceOption, type ChoiceTask, slotLetters } from "./types.ts";

/** The shopper's single role in a catalog-choice episode. */
export const SHOPPER = "shopper";

/** What the shopper observes besides the messages: the cards in display order. */
export interface ChoiceView {
  options: ChoiceOption[];
  letters: string[];
  /** 0 on the first ask, then 1, 2, … on re-asks after unusable answers. */
  attempt: number;
}

export type ChoiceOutcome = ForcedChoiceOutcome;

export interface ChoiceEpisodeInput {
  task: ChoiceTask;
  /** How many times an unusable answer is followed by a re-ask before it counts as a non-response. */
  maxReasks: number;
  /** The wording of the ask and the re-ask, when the run has a prompt template (else bazaar's). */
  template?: PromptTemplate | null;
}

/**
 * One catalog-choice episode: present the cards, await an answer, judge it strictly; an unusable
 * answer is re-asked at most `maxReasks` times, then recorded as a non-response with its raw text.
 */
export const choiceMachine = forcedChoiceMachine<ChoiceEpisodeInput, ChoiceView>({
  id: "choice",
  role: SHOPPER,
  letters: (input) => slotLetters(input.task.options.length),
  variant: (input) => input.task.variant,
  messages: (input) =>
    input.template
      ? renderTemplateMessages(input.template, input.task.options, input.task.variant)
      : renderChoiceMessages(input.task.options, input.task.variant),
  reask: (input) =>
    input.template
      ? templateReask(input.template, slotLetters(input.task.options.length), input.task.variant)
      : null,
  view: (input) => ({ options: input.task.options, letters: slotLetters(input.task.options.length) }),
});
