/**
 * Derived attributes of an option that agents and estimators share, so a simulated chooser and
 * the logit that recovers it code the same thing the same way.
 */

const BED_KEYWORDS: readonly [string, number][] = [
  ["king", 3],
  ["queen", 2],
  ["double", 1],
  ["full", 1],
  ["twin", 0],
  ["single", 0],
  ["bunk", 1],
];

/**
 * Bed rank of a room type, the PriceBench reference coding: the lower-cased room type's first
 * keyword found in the order king 3, queen 2, double 1, full 1, twin 0, single 0, bunk 1; none ⇒ 1.
 */
export function bedRank(roomType: string): number {
  const lower = roomType.toLowerCase();
  for (const [word, rank] of BED_KEYWORDS) if (lower.includes(word)) return rank;
  return 1;
}
