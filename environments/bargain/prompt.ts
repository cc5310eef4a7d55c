/**
 * What each side is told. The wording follows the reference prompts (a system prompt with the rules
 * and the Thought/Talk/Action format, then an inventory list, and for the buyer a shopping list),
 * rewritten, with one added sentence for tools mode. The seller sees the cost and never the budget;
 * the buyer the budget and never the cost. `observe.ts` reads these messages back; change a format
 * in both places.
 */
import { formatUsd } from "../kernel/money.ts";
import type { Message } from "../kernel/types.ts";
import type { BargainRole } from "./types.ts";

const FORMAT_RULES = (role: BargainRole) => {
  const other = role === "buyer" ? "seller" : "buyer";
  const offer = role === "buyer" ? "BUY" : "SELL";
  const counter = role === "buyer" ? "SELL" : "BUY";
  const offerLine =
    role === "buyer"
      ? `[BUY] $M (1x codename) — offer to pay $M in total for 1 unit of the item with that codename.`
      : `[SELL] $M (1x codename) — ask $M in total for 1 unit of the item with that codename.`;
  return [
    "Each reply has three lines: Thought, Talk and Action.",
    `Thought: your private reasoning about this negotiation (the ${other} never sees it).`,
    `Talk: what you say to the ${other}: short, to the point, and not repeating earlier sentences.`,
    "Action: exactly one of",
    offerLine,
    `[REJECT] — reject the ${other}'s offer and wait for a new one.`,
    `[DEAL] $M (1x codename) — accept the ${other}'s earlier offer [${counter}] $M (1x codename), copied exactly. ` +
      "This ends the negotiation with a deal; never use it to propose a new price.",
    "[QUIT] — end the negotiation without a deal.",
    `[DEAL] is valid only for a price the ${other} offered with [${counter}]; otherwise use [${offer}], [REJECT] or [QUIT].`,
  ].join("\n");
};

const TOOLS_NOTE =
  "If you are given the tools offer, deal, reject and quit, call exactly one of them instead of writing " +
  "the Action line, with your Talk as its talk argument.";

export const BUYER_SYSTEM_PROMPT = [
  "You are a buyer who wants to buy the item on your Shopping List from me, the seller.",
  "You can see the seller's Inventory List, and you can bargain over the price.",
  "Your goal is a deal at a price as low as possible within the limited number of turns.",
  "Buy only the item on your Shopping List, in the quantity listed, and name it by its codename, not its title.",
  "Buy only at a price within your budget; otherwise quit the negotiation.",
  "",
  FORMAT_RULES("buyer"),
  "Open with [BUY] or [REJECT].",
  "",
  "For example:",
  "Thought: The listed price of apple_1 is $15, which is too much, so I will offer $10.",
  "Talk: Hi, I'm on a tight budget. Would you take $10 for it?",
  "Action: [BUY] $10 (1x apple_1)",
  "",
  TOOLS_NOTE,
].join("\n");

export const SELLER_SYSTEM_PROMPT = [
  "You are a seller who wants to sell the item on your Inventory List to me, the buyer.",
  "Your goal is a deal at a price as high as possible within the limited number of turns.",
  "Sell only the item on your Inventory List and name it by its codename, not its title.",
  "You know the item's cost, which is private: never tell it to the buyer.",
  "Agree to a deal only at a price above your cost; otherwise quit the negotiation.",
  "",
  FORMAT_RULES("seller"),
  "",
  "For example:",
  "Thought: I must sell apple_1 above its cost, and the buyer's offer is too low.",
  "Talk: That is below what I can accept, but I can do $15.",
  "Action: [SELL] $15 (1x apple_1)",
  "",
  TOOLS_NOTE,
].join("\n");

export function systemPrompt(role: BargainRole): string {
  return role === "buyer" ? BUYER_SYSTEM_PROMPT : SELLER_SYSTEM_PROMPT;
}

export interface PromptItem {
  codename: string;
  title: string;
  description: string;
  listedPrice: number;
}

/** The inventory list; the seller's has the cost line. */
export function inventoryList(item: PromptItem, cost: number | null): string {
  return (
    "Inventory List:\n" +
    `Product 1 (codename: ${item.codename})\n` +
    `Title: "${item.title}"\n` +
    `Description: "${item.description}"\n` +
    `Listed price: ${formatUsd(item.listedPrice)}` +
    (cost === null ? "" : `\nCost: ${formatUsd(cost)}`)
  );
}

/** The buyer's first user message: inventory, shopping list with the budget, the turn limit. */
export function buyerIntro(item: PromptItem, budget: number, maxTurns: number): string {
  return (
    inventoryList(item, null) +
    "\n\nShopping List:\n" +
    `codename: ${item.codename}\nquantity: 1\nbudget: ${formatUsd(budget)}\n\n` +
    `I am the seller and you are the buyer. We negotiate over at most ${maxTurns} turns, and you make the first offer.`
  );
}

/** The seller's first user message: inventory with the cost, the turn limit. */
export function sellerIntro(item: PromptItem, cost: number, maxTurns: number): string {
  return (
    inventoryList(item, cost) +
    `\n\nI am the buyer and you are the seller. We negotiate over at most ${maxTurns} turns; ` +
    "I open, and you answer each of my messages."
  );
}

export function openingMessages(role: BargainRole, intro: string): Message[] {
  return [
    { role: "system", content: systemPrompt(role) },
    { role: "user", content: intro },
  ];
}
