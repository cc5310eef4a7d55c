/** The multiplicity audit: which coefficient tests survive Bonferroni and Benjamini–Hochberg. */
import { adjustPValues } from "../stats/index.ts";

export interface CoefficientTest {
  agent: string;
  /** Which coefficient of which fit, e.g. "lnPrice (log form)". */
  test: string;
  p: number;
  bonferroni: number;
  bh: number;
}

export interface MultiplicityAudit {
  alpha: number;
  tests: CoefficientTest[];
  significant: number;
  survivesBonferroni: number;
  survivesBh: number;
  /** Tests at p < 0.001 (the level the paper's claims use), and how many of them each correction loses. */
  strongClaims: number;
  strongLostBonferroni: number;
  strongLostBh: number;
}

export function multiplicityAudit(
  tests: readonly { agent: string; test: string; p: number }[],
  alpha = 0.05,
  strong = 0.001,
): MultiplicityAudit {
  const ps = tests.map((t) => t.p);
  const bonf = adjustPValues(ps, "bonferroni");
  const bh = adjustPValues(ps, "bh");
  const rows = tests.map((t, i) => ({ ...t, bonferroni: bonf[i] as number, bh: bh[i] as number }));
  const strongRows = rows.filter((r) => r.p < strong);
  return {
    alpha,
    tests: rows,
    significant: rows.filter((r) => r.p < alpha).length,
    survivesBonferroni: rows.filter((r) => r.bonferroni <= alpha).length,
    survivesBh: rows.filter((r) => r.bh <= alpha).length,
    strongClaims: strongRows.length,
    strongLostBonferroni: strongRows.filter((r) => r.bonferroni > alpha).length,
    strongLostBh: strongRows.filter((r) => r.bh > alpha).length,
  };
}
