import { readFileSync } from "node:fs";
import { InvalidFileError, type Problem, UserError } from "../../environments/kernel/errors.ts";
import { pathOffers } from "./paths.ts";
import { type ElicitDomain, ElicitDomainSchema, type FeatureValue, type OfferRef } from "./schema.ts";

const HINT = "An elicit domain file is JSON in the shape of datasets/elicit/flights.json; see its README.";

function offerKey(o: OfferRef): string {
  return `${o.item}@${o.price}`;
}

/** Every problem of a parsed domain that its zod schema cannot see: references, levels, paths. */
export function domainProblems(d: ElicitDomain, file: string): Problem[] {
  const problems: Problem[] = [];
  const add = (field: string, message: string) => problems.push({ file, field, message });
  const dupes = (ids: string[], what: string) => {
    const seen = new Set<string>();
    for (const x of ids) {
      if (seen.has(x)) add(what, `${what} id "${x}" is used twice`);
      seen.add(x);
    }
  };
  dupes(
    d.features.map((f) => f.key),
    "features",
  );
  dupes(
    d.items.map((i) => i.id),
    "items",
  );
  dupes(
    d.utterances.map((u) => u.id),
    "utterances",
  );
  dupes(
    d.comparisons.map((c) => c.id),
    "comparisons",
  );
  dupes(
    d.paths.map((p) => p.id),
    "paths",
  );

  const checkFeatures = (where: string, features: Record<string, FeatureValue>, except?: string) => {
    for (const spec of d.features) {
      if (spec.key === except) continue;
      const v = features[spec.key];
      if (v === undefined) add(where, `missing feature "${spec.key}"`);
      else if (spec.kind === "continuous" && (typeof v !== "number" || !Number.isFinite(v)))
        add(where, `feature "${spec.key}" must be a number, got ${JSON.stringify(v)}`);
      else if (spec.kind !== "continuous" && !spec.levels.includes(String(v)))
        add(where, `feature "${spec.key}" is "${v}", not one of ${spec.levels.join(" | ")}`);
    }
    for (const key of Object.keys(features)) {
      if (key === except || !d.features.some((f) => f.key === key)) add(where, `unknown feature "${key}"`);
    }
  };
  d.items.forEach((item, i) => {
    checkFeatures(`items[${i}] (${item.id})`, item.features);
  });

  const itemIds = new Set(d.items.map((i) => i.id));
  const pairs = new Set<string>();
  d.comparisons.forEach((c, i) => {
    const where = `comparisons[${i}] (${c.id})`;
    const offers = [c.source, c.target, ...c.via];
    for (const o of offers) {
      if (!itemIds.has(o.item)) add(where, `unknown item "${o.item}"`);
      if (d.priceGrid && !d.priceGrid.includes(o.price))
        add(where, `price ${o.price} of ${o.item} is not on the price grid ${d.priceGrid.join(", ")}`);
    }
    const steps: [OfferRef, OfferRef][] = [[c.source, c.target]];
    for (const v of c.via) steps.push([c.source, v], [v, c.target]);
    for (const [a, b] of steps) {
      const key = `${offerKey(a)}>${offerKey(b)}`;
      if (offerKey(a) === offerKey(b)) add(where, `an offer-pair query from ${offerKey(a)} to itself`);
      else if (pairs.has(key)) add(where, `the offer pair ${key} already belongs to another comparison`);
      pairs.add(key);
    }
  });

  if (d.pathUtterance !== undefined && !d.utterances.some((u) => u.id === d.pathUtterance))
    add("pathUtterance", `unknown utterance "${d.pathUtterance}"`);
  if (d.paths.length > 0 && d.pathUtterance === undefined)
    add("pathUtterance", "paths need a pathUtterance to be asked under");
  d.paths.forEach((p, i) => {
    const where = `paths[${i}] (${p.id})`;
    const spec = d.features.find((f) => f.key === p.feature);
    if (spec?.kind !== "continuous") {
      add(where, `feature "${p.feature}" must be a continuous feature of the domain`);
      return;
    }
    checkFeatures(where, p.base, p.feature);
    if (p.from === p.to) add(where, "from and to are equal: the path does not move");
    for (const k of p.steps) {
      const offers = pathOffers(d, p, k);
      for (let j = 1; j < offers.length; j++) {
        const a = offers[j - 1]!;
        const b = offers[j]!;
        if (a.item.features[p.feature] === b.item.features[p.feature] && a.price === b.price)
          add(where, `with k = ${k}, step ${j} does not move after rounding to the grain`);
      }
    }
  });
  return problems;
}

/** Parses and checks one domain's JSON; every problem is reported at once. */
export function parseElicitDomain(text: string, file: string): ElicitDomain {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new InvalidFileError(file, [{ file, message: `not JSON: ${(err as Error).message}` }], HINT);
  }
  const parsed = ElicitDomainSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => ({
      file,
      field: issue.path.join("."),
      message: issue.message,
    }));
    throw new InvalidFileError(file, problems, HINT);
  }
  const problems = domainProblems(parsed.data, file);
  if (problems.length > 0) throw new InvalidFileError(file, problems, HINT);
  return parsed.data;
}

/** Reads one elicit domain file (JSON). */
export function loadElicitDomain(path: string): ElicitDomain {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(
      code === "ENOENT" ? `elicit domain file ${path} does not exist` : `cannot read ${path}`,
      "check the path",
    );
  }
  return parseElicitDomain(text, path);
}
