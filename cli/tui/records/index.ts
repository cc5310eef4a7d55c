import { type BargainEpisodeModel, bargainAdapter } from "./bargain.ts";
import { type ChoiceEpisodeModel, choiceAdapter } from "./choice.ts";
import { type CueEpisodeModel, cueAdapter } from "./cue.ts";
import { type ElicitEpisodeModel, elicitAdapter } from "./elicit.ts";
import { type GenericEpisodeModel, genericAdapter, genericModel } from "./generic.ts";
import { marketAdapter } from "./market.ts";
import { type ShopEpisodeModel, shopAdapter } from "./shop.ts";
import type { EnvAdapter, EpisodeBase, EpisodeSummary, TrialRecord } from "./types.ts";

export type EpisodeModel =
  | ChoiceEpisodeModel
  | BargainEpisodeModel
  | CueEpisodeModel
  | ElicitEpisodeModel
  | ShopEpisodeModel
  | GenericEpisodeModel;

// biome-ignore lint/suspicious/noExplicitAny: one table holds every environment's adapter
export type AnyAdapter = EnvAdapter<EpisodeBase, any>;

/** The terminal's adapter per environment name; an environment without one gets the generic view. */
export const ADAPTERS: Readonly<Record<string, AnyAdapter>> = {
  choice: choiceAdapter,
  bargain: bargainAdapter,
  cue: cueAdapter,
  elicit: elicitAdapter,
  shop: shopAdapter,
  market: marketAdapter,
};

export function adapterFor(env: string): AnyAdapter {
  return ADAPTERS[env] ?? genericAdapter;
}

/** The view model of a record, chosen by its `env`; the generic one when its adapter cannot read it. */
export function episodeModel(record: TrialRecord, task?: unknown): EpisodeModel {
  const m = adapterFor(String(record.env ?? "")).model(record, task);
  return "mismatch" in m ? genericModel(record, m.mismatch as string) : (m as EpisodeModel);
}

export function episodeSummary(record: TrialRecord): EpisodeSummary {
  return adapterFor(String(record.env ?? "")).summary(record);
}

export type { BargainEpisodeModel, BargainMessage, BargainProfits } from "./bargain.ts";
export { bargainProfits } from "./bargain.ts";
export type { ChoiceCard, ChoiceEpisodeModel } from "./choice.ts";
export type { CueCard, CueEpisodeModel } from "./cue.ts";
export type { ElicitEpisodeModel } from "./elicit.ts";
export type { GenericEpisodeModel } from "./generic.ts";
export type { ShopCallLine, ShopEpisodeModel } from "./shop.ts";
export type {
  EnvAdapter,
  EpisodeSummary,
  FacetValue,
  FilterFacet,
  StatLine,
  StatsView,
  TrialRecord,
} from "./types.ts";
