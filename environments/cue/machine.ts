import { type ForcedChoiceOutcome, forcedChoiceMachine } from "../choice/forced-choice.ts";
import { renderCueMessages } from "./prompt.ts";
import { CUE_LETTERS, type CueCard, type CueOption, type CueTask } from "./types.ts";

/** The shopper's single role in a cue episode. */
export const CUE_SHOPPER = "shopper";

/**
 * What the shopper observes besides the messages: the two cards as shown (never which one is cued),
 * what it is buying, and which ask this is.
 */
export interface CueView {
  cards: [CueCard, CueCard];
  letters: readonly string[];
  category: string;
  item: string;
  /** 0 on the first ask, then 1, 2, … on re-asks after unusable answers. */
  attempt: number;
}

export type CueOutcome = ForcedChoiceOutcome;

export interface CueEpisodeInput {
  task: CueTask;
  /** Re-asks after an unusable answer before it counts as a non-response. */
  maxReasks: number;
}

/** A card as shown: the task's option without the fields the shopper must not see. */
export function shownCard(o: CueOption): CueCard {
  return {
    name: o.name,
    price: o.price,
    rating: o.rating,
    ratingCount: o.ratingCount,
    specs: o.specs,
    description: o.description,
  };
}

/**
 * One cue episode, a two-card forced choice judged by catalog choice's strict rules: show the cards,
 * await an answer; an unusable answer is re-asked at most `maxReasks` times, then recorded as a
 * non-response with its raw text and reason.
 */
export const cueMachine = forcedChoiceMachine<CueEpisodeInput, CueView>({
  id: "cue",
  role: CUE_SHOPPER,
  letters: () => CUE_LETTERS,
  variant: () => "plain",
  messages: ({ task }) => renderCueMessages(cueCards(task), task.item, task.instruction),
  view: ({ task }) => ({
    cards: cueCards(task),
    letters: CUE_LETTERS,
    category: task.category,
    item: task.item,
  }),
});

function cueCards(task: CueTask): [CueCard, CueCard] {
  return [shownCard(task.options[0]), shownCard(task.options[1])];
}
