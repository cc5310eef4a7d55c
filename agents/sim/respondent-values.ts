import type { ElicitDomainName, FeatureValue } from "../../datasets/elicit/schema.ts";

/**
 * The simulated people's true valuations: U(x), in dollars, of getting item x rather than nothing,
 * for the person each utterance describes. A value is `base` plus a dollar amount per unit of each
 * continuous feature (per minute, per square foot) and per level of each ordinal or categorical one,
 * floored at `floor` so no item is worth less than nothing. The audit itself assumes no such feature
 * model: these are only the ground truth a consistent respondent answers from.
 */
export interface ValueModel {
  base: number;
  floor: number;
  perUnit: Record<string, number>;
  levels: Record<string, Record<string, number>>;
}

const FLIGHTS: Record<string, ValueModel> = {
  student: {
    base: 560,
    floor: 40,
    perUnit: { "travel-time": -12 / 60 },
    levels: {
      stops: { "2 stops": -50, "1 stop": -20, nonstop: 0 },
      departure: { morning: 0, afternoon: 0, evening: -5, "red-eye (overnight)": -60 },
      seat: { "basic economy (no seat choice)": -15, economy: 0, "economy plus (extra legroom)": 10 },
      bag: { "not included": 0, "1 checked bag included": 30 },
    },
  },
  consultant: {
    base: 1100,
    floor: 40,
    perUnit: { "travel-time": -50 / 60 },
    levels: {
      airline: { "Northstar Airways": 30, "Cascade Air": 0, "Atlantic Coast Airlines": -20 },
      stops: { "2 stops": -180, "1 stop": -90, nonstop: 0 },
      departure: { morning: 60, afternoon: 20, evening: -20, "red-eye (overnight)": -180 },
      seat: { "basic economy (no seat choice)": -60, economy: 0, "economy plus (extra legroom)": 50 },
    },
  },
  "family-visit": {
    base: 760,
    floor: 40,
    perUnit: { "travel-time": -30 / 60 },
    levels: {
      stops: { "2 stops": -110, "1 stop": -50, nonstop: 0 },
      departure: { morning: 10, afternoon: 15, evening: 0, "red-eye (overnight)": -120 },
      seat: { "basic economy (no seat choice)": -40, economy: 0, "economy plus (extra legroom)": 55 },
      bag: { "not included": 0, "1 checked bag included": 45 },
    },
  },
};

const APARTMENTS: Record<string, ValueModel> = {
  "first-job": {
    base: 1900,
    floor: 200,
    perUnit: { size: 0.8, commute: -4 },
    levels: {
      bedrooms: { studio: 0, "1 bedroom": 80, "2 bedrooms": 150 },
      laundry: { "none on site": -40, "shared in the building": 0, "in-unit washer and dryer": 60 },
      building: { "older walk-up": 0, renovated: 40, "new construction": 70 },
      parking: { "street only": 0, "garage space included": 40 },
    },
  },
  "home-office": {
    base: 1500,
    floor: 200,
    perUnit: { size: 1.8, commute: -1 },
    levels: {
      bedrooms: { studio: -150, "1 bedroom": 0, "2 bedrooms": 450 },
      laundry: { "none on site": -80, "shared in the building": 0, "in-unit washer and dryer": 100 },
      building: { "older walk-up": 0, renovated: 60, "new construction": 100 },
      parking: { "street only": 0, "garage space included": 50 },
    },
  },
  commuter: {
    base: 2300,
    floor: 200,
    perUnit: { size: 1.2, commute: -14 },
    levels: {
      bedrooms: { studio: -50, "1 bedroom": 0, "2 bedrooms": 200 },
      laundry: { "none on site": -100, "shared in the building": 0, "in-unit washer and dryer": 150 },
      building: { "older walk-up": -60, renovated: 40, "new construction": 120 },
      parking: { "street only": 0, "garage space included": 60 },
    },
  },
};

const HOTELS: Record<string, ValueModel> = {
  "early-meeting": {
    base: 260,
    floor: 20,
    perUnit: { size: 0.1 },
    levels: {
      room: { "standard room": 0, "deluxe room": 15, "junior suite": 30 },
      bed: { "1 queen bed": 0, "1 king bed": 10, "1 king bed and a sofa bed": 10 },
      view: { "city street": 0, skyline: 10, lake: 15 },
      breakfast: { "not included": 0, "buffet breakfast for two included": 20 },
    },
  },
  anniversary: {
    base: 280,
    floor: 20,
    perUnit: { size: 0.4 },
    levels: {
      room: { "standard room": 0, "deluxe room": 60, "junior suite": 140 },
      bed: { "1 queen bed": 0, "1 king bed": 30, "1 king bed and a sofa bed": 30 },
      view: { "city street": 0, skyline: 60, lake: 140 },
      breakfast: { "not included": 0, "buffet breakfast for two included": 70 },
    },
  },
  conference: {
    base: 270,
    floor: 20,
    perUnit: { size: 0.2 },
    levels: {
      room: { "standard room": 0, "deluxe room": 25, "junior suite": 50 },
      bed: { "1 queen bed": 0, "1 king bed": 15, "1 king bed and a sofa bed": 15 },
      view: { "city street": 0, skyline: 15, lake: 30 },
      breakfast: { "not included": 0, "buffet breakfast for two included": 45 },
    },
  },
};

export const PERSON_VALUES: Readonly<Record<ElicitDomainName, Readonly<Record<string, ValueModel>>>> = {
  flights: FLIGHTS,
  apartments: APARTMENTS,
  hotels: HOTELS,
};

/** U(x) under a value model. */
export function itemValue(model: ValueModel, features: Record<string, FeatureValue>): number {
  let u = model.base;
  for (const [key, perUnit] of Object.entries(model.perUnit)) u += perUnit * Number(features[key] ?? 0);
  for (const [key, levels] of Object.entries(model.levels)) u += levels[String(features[key])] ?? 0;
  return Math.max(model.floor, u);
}
