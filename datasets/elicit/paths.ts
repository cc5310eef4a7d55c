import type { ElicitDomain, ElicitItem, FeatureSpec, PathSpec } from "./schema.ts";

/** An item at a listed price, with the item itself (features included). */
export interface PricedItem {
  item: ElicitItem;
  price: number;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** `fp1@0`, `fp1@1/2`, `fp1@3/16`, `fp1@1`: the point j/k of a path, as a reduced fraction. */
export function pathItemId(pathId: string, j: number, k: number): string {
  if (j === 0) return `${pathId}@0`;
  if (j === k) return `${pathId}@1`;
  const g = gcd(j, k);
  return `${pathId}@${j / g}/${k / g}`;
}

function grainOf(domain: ElicitDomain, key: string): number {
  const spec = domain.features.find((f) => f.key === key) as FeatureSpec | undefined;
  return spec?.kind === "continuous" ? spec.grain : 1;
}

/**
 * The offers b₀ = a, b₁, …, b_k = c along a smooth single-feature path cut into k equal steps: the
 * moving feature and the listed price are interpolated linearly (the feature rounded to its grain,
 * the price to whole dollars). Points shared by several k (1/2 is on the k = 2, 8 and 16 paths) are
 * the same item at the same price.
 */
export function pathOffers(domain: ElicitDomain, path: PathSpec, k: number): PricedItem[] {
  const grain = grainOf(domain, path.feature);
  const out: PricedItem[] = [];
  for (let j = 0; j <= k; j++) {
    const t = j / k;
    const value = Math.round((path.from + (path.to - path.from) * t) / grain) * grain;
    const price = Math.round(path.fromPrice + (path.toPrice - path.fromPrice) * t);
    out.push({
      item: { id: pathItemId(path.id, j, k), features: { ...path.base, [path.feature]: value } },
      price,
    });
  }
  return out;
}
