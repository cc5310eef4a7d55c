/** The multiplicity audit: which coefficient tests survive Bonferroni and Benjamini–Hochberg. */
import { adjustPValues } from "../stats/index.ts";

export interface CoefficientTest {
  agent: string;
  /** Which coefficient of which fit, e.g. "lnPrice (log form)". */
  test: string;
  p: number;
  /** One of the coefficients a finding rests on (the paper: β ln p and β review of the well-identified). */
  claimed?: boolean;
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
  /** Tests marked `claimed`, and how many of them each correction loses. */
  claimed: number;
  claimedLostBonferroni: number;
  claimedLostBh: number;
}

export function multiplicityAudit(
  tests: readonly { agent: string; test: string; p: number; claimed?: boolean }[],
  alpha = 0.05,
  strong = 0.001,
): MultiplicityAudit {
  const ps = tests.map((t) => t.p);
  const bonf = adjustPValues(ps, "bonferroni");
  const bh = adjustPValues(ps, "bh");
  const rows = tests.map((t, i) => ({ ...t, bonferroni: bonf[i] as number, bh: bh[i] as number }));
  const strongRows = rows.filter((r) => r.p < strong);
  const claimedRows = rows.filter((r) => r.claimed === true);
  return {
    alpha,
    tests: rows,
    significant: rows.filter((r) => r.p < alpha).length,
    survivesBonferroni: rows.filter((r) => r.bonferroni <= alpha).length,
    survivesBh: rows.filter((r) => r.bh <= alpha).length,
    strongClaims: strongRows.length,
    strongLostBonferroni: strongRows.filter((r) => r.bonferroni > alpha).length,
    strongLostBh: strongRows.filter((r) => r.bh > alpha).length,
    claimed: claimedRows.length,
    claimedLostBonferroni: claimedRows.filter((r) => r.bonferroni > alpha).length,
    claimedLostBh: claimedRows.filter((r) => r.bh > alpha).length,
  };
}
