/** Ranks 1..n, ties sharing the average of the ranks they span (as R's `rank`, ties "average"). */
export function averageRanks(xs: readonly number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => (xs[a] as number) - (xs[b] as number));
  const ranks = new Array<number>(xs.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && xs[order[end + 1] as number] === xs[order[start] as number]) end++;
    const rank = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) ranks[order[i] as number] = rank;
    start = end + 1;
  }
  return ranks;
}

/** Pearson correlation; NaN when either variable is constant. */
export function pearson(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new RangeError(`pearson: lengths differ (${x.length} vs ${y.length})`);
  if (x.length < 2) throw new RangeError(`pearson needs at least 2 pairs, got ${x.length}`);
  let mx = 0;
  let my = 0;
  for (let i = 0; i < x.length; i++) {
    mx += x[i] as number;
    my += y[i] as number;
  }
  mx /= x.length;
  my /= y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/** Spearman's ρ: the Pearson correlation of average ranks (so ties are handled as R's `cor`). */
export function spearman(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new RangeError(`spearman: lengths differ (${x.length} vs ${y.length})`);
  return pearson(averageRanks(x), averageRanks(y));
}
