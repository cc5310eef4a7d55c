import type { QueryType, QueryUse } from "../../environments/elicit/types.ts";

/** An offer: an item at a listed price in dollars. */
export interface Offer {
  item: string;
  price: number;
}

/** One query of an audit group with its finite completions (non-finite ones only counted). */
export interface QueryData {
  queryId: string;
  queryType: QueryType;
  /** Item queries: the item. */
  item?: string;
  /** Offer-pair queries: source offer a and target offer b. */
  source?: Offer;
  target?: Offer;
  uses: QueryUse[];
  /** The finite parsed answers, in completion order. */
  values: number[];
  /** Completions without a finite number. */
  nonFinite: number;
}

/** An audit group's queries: one domain × utterance × item set × query collection, for one agent. */
export interface GroupData {
  group: string;
  domain: string;
  utterance: string;
  itemSet: string;
  collection: string;
  queries: QueryData[];
}

/** A query mean with its sampling uncertainty: SE = s/√n (NaN when fewer than 2 finite completions). */
export interface QueryStats {
  mean: number;
  sd: number;
  n: number;
  se: number;
}

/** A 95% (by default) Wald interval estimate ± z·SE. */
export interface WaldEstimate {
  estimate: number;
  se: number;
  low: number;
  high: number;
}
