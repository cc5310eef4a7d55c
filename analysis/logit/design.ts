/** Building and checking design matrices. Shape errors are caller bugs and throw RangeError. */

/** The rows with a leading 1: the intercept column of a binary logit (name it yourself, e.g. "intercept"). */
export function withIntercept(rows: readonly (readonly number[])[]): number[][] {
  return rows.map((r) => [1, ...r]);
}

/**
 * Slot (display-position) constants for a conditional logit with k alternatives: row s is the
 * covariate row of slot s (0-based, as `chosenSlot`), with a 1 in the column of that slot and no
 * column for the reference slot. Append these to each alternative's attribute row.
 */
export function slotConstants(k: number, reference = 0): number[][] {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`slotConstants needs k ≥ 2 alternatives, got ${k}`);
  if (!Number.isInteger(reference) || reference < 0 || reference >= k) {
    throw new RangeError(`slotConstants: reference slot ${reference} is not in 0..${k - 1}`);
  }
  return Array.from({ length: k }, (_, s) => {
    const row = new Array<number>(k - 1).fill(0);
    if (s !== reference) row[s < reference ? s : s - 1] = 1;
    return row;
  });
}

/** Names matching `slotConstants(k, reference)`: `${prefix}${s}` for each non-reference 0-based slot s. */
export function slotConstantNames(k: number, reference = 0, prefix = "slot"): string[] {
  slotConstants(k, reference);
  return Array.from({ length: k }, (_, s) => s).flatMap((s) => (s === reference ? [] : [`${prefix}${s}`]));
}

export function checkNames(names: readonly string[], what: string): void {
  if (names.length === 0) throw new RangeError(`${what}: names is empty; give one name per covariate column`);
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new RangeError(`${what}: covariate name "${n}" appears twice`);
    seen.add(n);
  }
}

/** k columns stored one after another in `data`, column j starting at j · stride. */
export interface ColumnBlock {
  data: Float64Array;
  stride: number;
}

/**
 * Copies rows into k columns (column-major, for fast dot products), checking widths and
 * finiteness; into `block` (e.g. a workspace's columns) when given. Returns the columns as views
 * of length n into the block.
 */
export function columnsFromRows(
  rows: readonly (readonly number[])[],
  k: number,
  names: readonly string[],
  where: (i: number) => string,
  block: ColumnBlock = { data: new Float64Array(k * rows.length), stride: rows.length },
): Float64Array[] {
  const n = rows.length;
  const { data, stride } = block;
  // Finiteness is checked once on the running sum (NaN or ±∞ anywhere makes it non-finite), not
  // per value; only then are the rows searched for the culprit to name it. One flat array with a
  // stride, rather than k arrays, spares an indirection per value.
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i] as readonly number[];
    if (row.length !== k)
      throw new RangeError(`${where(i)} has ${row.length} values but there are ${k} names`);
    let at = i;
    for (let j = 0; j < k; j++) {
      const v = row[j] as number;
      sum += v;
      data[at] = v;
      at += stride;
    }
  }
  if (!Number.isFinite(sum)) {
    for (let i = 0; i < n; i++) {
      const row = rows[i] as readonly number[];
      for (let j = 0; j < k; j++) {
        const v = row[j] as number;
        if (!Number.isFinite(v))
          throw new RangeError(`${where(i)}, covariate "${names[j]}" is ${v}; covariates must be finite`);
      }
    }
    // Every value is finite and only the sum overflowed: covariates this large are an error too.
    throw new RangeError(
      `${where(0)} onwards: the covariates sum to ${sum}; rescale them (e.g. price in $100s)`,
    );
  }
  return Array.from({ length: k }, (_, j) => data.subarray(j * stride, j * stride + n));
}
