/** Readers for the statsmodels reference fixtures in test/fixtures/logit (see scripts/reference). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../../fixtures/logit/", import.meta.url));

export interface ReferenceValues {
  note: string;
  names: string[];
  n: number;
  clusters: number;
  params: number[];
  bse: number[];
  bse_cluster: number[];
  pvalues?: number[];
  llf: number;
  llnull: number;
  prsquared?: number;
  aic?: number;
}

export function readReference(name: string): ReferenceValues {
  return JSON.parse(readFileSync(`${dir}${name}.json`, "utf8")) as ReferenceValues;
}

export function readCsv(name: string): { header: string[]; rows: number[][] } {
  const [head, ...lines] = readFileSync(`${dir}${name}.csv`, "utf8").trim().split("\n");
  return { header: (head as string).split(","), rows: lines.map((l) => l.split(",").map(Number)) };
}
