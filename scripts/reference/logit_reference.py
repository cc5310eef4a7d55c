#!/usr/bin/env python3
"""Reference values for bazaar's logit core (analysis/logit), from statsmodels.

Writes, into test/fixtures/logit/:
  binary.csv, binary.json                 statsmodels Logit: default and cov_type="cluster" SEs
  conditional_k3.csv, conditional_k3.json statsmodels ConditionalLogit, 3 alternatives
  conditional_k5.csv, conditional_k5.json statsmodels ConditionalLogit, 5 alternatives

The data are synthetic, drawn here from numpy's PCG64 with fixed seeds, and written with repr() so
that the TypeScript tests read exactly the doubles statsmodels saw. Run from the repository root:

    /usr/bin/python3 scripts/reference/logit_reference.py

(Debian's python3-statsmodels; the pyenv `python3` on PATH may not have it.)
"""
import json
import os
import sys

import numpy as np
import scipy
import statsmodels
import statsmodels.api as sm
from statsmodels.discrete.conditional_models import ConditionalLogit
from statsmodels.tools.numdiff import approx_fprime

OUT = os.path.join("test", "fixtures", "logit")
COMMAND = "/usr/bin/python3 scripts/reference/logit_reference.py"
VERSIONS = (
    f"statsmodels {statsmodels.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
    f"python {sys.version.split()[0]}"
)


def write_csv(path, header, rows):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(repr(v) if isinstance(v, float) else str(v) for v in row) + "\n")


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


def floats(a):
    return [float(v) for v in np.asarray(a).ravel()]


def binary_fixture():
    """600 observations in 150 clusters of 4 (a pair shown 4 times, both orders, like PriceBench).

    Within a cluster the attribute differences are the pair's, with the sign flipped when the order
    is swapped; a shared cluster shock makes answers within a pair correlated, so cluster-robust SEs
    differ from the model-based ones.
    """
    rng = np.random.default_rng(20260401)
    names = ["intercept", "dlogprice", "dstars", "dreview", "dbreakfast"]
    beta = np.array([0.4, -2.0, 0.35, 0.6, 0.5])
    rows = []
    for g in range(150):
        base = np.array([
            round(float(rng.normal(0, 0.5)), 4),
            float(rng.integers(-2, 3)),
            round(float(rng.normal(0, 1.0)), 1),
            float(rng.integers(-1, 2)),
        ])
        shock = rng.normal(0, 1.2)
        for rep in range(4):
            sign = 1.0 if rep % 2 == 0 else -1.0
            x = np.concatenate([[1.0], sign * base])
            eta = x @ beta + sign * shock
            y = int(rng.random() < 1 / (1 + np.exp(-eta)))
            rows.append((g, y, *[float(v) + 0.0 for v in x]))
    write_csv(os.path.join(OUT, "binary.csv"), ["cluster", "y", *names], rows)

    data = np.array([r[2:] for r in rows])
    y = np.array([r[1] for r in rows])
    groups = np.array([r[0] for r in rows])
    model = sm.Logit(y, data)
    res = model.fit(method="newton", maxiter=100, tol=1e-12, disp=0)
    assert res.mle_retvals["converged"]
    res_cl = model.fit(method="newton", maxiter=100, tol=1e-12, disp=0,
                       cov_type="cluster", cov_kwds={"groups": groups})
    g_count = len(np.unique(groups))
    n, k = data.shape
    write_json(os.path.join(OUT, "binary.json"), {
        "note": (
            "Produced by `" + COMMAND + "` with " + VERSIONS + ". Data: binary.csv (seeded numpy "
            "draws, see the script). Fit: sm.Logit(y, X).fit(method='newton', tol=1e-12); "
            "bse = default (inverse Hessian) SEs; bse_cluster = fit(cov_type='cluster', "
            "cov_kwds={'groups': cluster}) with statsmodels' default use_correction=True, i.e. the "
            "sandwich times G/(G-1)*(N-1)/(N-K) (statsmodels.stats.sandwich_covariance.cov_cluster); "
            "llnull = statsmodels' intercept-only log-likelihood."
        ),
        "names": names,
        "n": n,
        "clusters": g_count,
        "cluster_correction": g_count / (g_count - 1) * (n - 1) / (n - k),
        "params": floats(res.params),
        "bse": floats(res.bse),
        "bse_cluster": floats(res_cl.bse),
        "cov_cluster": [floats(r) for r in res_cl.cov_params()],
        "pvalues": floats(res.pvalues),
        "llf": float(res.llf),
        "llnull": float(res.llnull),
        "prsquared": float(res.prsquared),
        "aic": float(res.aic),
    })


def conditional_fixture(k_alt, situations, per_cluster, seed):
    """Choice situations with k_alt alternatives; a cluster is one option set shown per_cluster times
    in rotated display orders. Covariates: slot constants (reference slot 0), log price, review
    score, stars, breakfast. Choices from Gumbel utilities plus a shared cluster taste shock on
    the review score, so cluster-robust SEs differ from model-based ones."""
    rng = np.random.default_rng(seed)
    slot_names = [f"slot{s}" for s in range(1, k_alt)]
    attr_names = ["logprice", "review", "stars", "breakfast"]
    names = slot_names + attr_names
    beta_slots = np.array([-0.3, -0.5, -0.2, -0.4][: k_alt - 1])
    beta_attr = np.array([-1.8, 0.5, 0.3, 0.4])
    rows = []
    situation = 0
    for g in range(situations // per_cluster):
        attrs = np.column_stack([
            np.round(np.log(rng.uniform(80, 600, k_alt)), 6),
            np.round(rng.uniform(6.0, 9.8, k_alt), 1),
            rng.integers(1, 6, k_alt).astype(float),
            rng.integers(0, 2, k_alt).astype(float),
        ])
        shock = rng.normal(0, 0.6)
        for rep in range(per_cluster):
            order = np.roll(np.arange(k_alt), rep)  # rotation: each option visits each slot
            shown = attrs[order]
            slots = np.zeros((k_alt, k_alt - 1))
            for s in range(1, k_alt):
                slots[s, s - 1] = 1.0
            x = np.column_stack([slots, shown])
            u = x @ np.concatenate([beta_slots, beta_attr]) + shock * shown[:, 1] + rng.gumbel(size=k_alt)
            chosen = int(np.argmax(u))
            for j in range(k_alt):
                rows.append((situation, g, j, int(j == chosen), *[float(v) for v in x[j]]))
            situation += 1
    tag = f"conditional_k{k_alt}"
    write_csv(os.path.join(OUT, tag + ".csv"), ["situation", "cluster", "alternative", "chosen", *names], rows)

    exog = np.array([r[4:] for r in rows])
    endog = np.array([r[3] for r in rows])
    grp = np.array([r[0] for r in rows])
    clus_of_situation = {r[0]: r[1] for r in rows}
    model = ConditionalLogit(endog, exog, groups=grp)
    res = model.fit(method="newton", maxiter=200)
    params = np.asarray(res.params)
    score_norm = float(np.max(np.abs(model.score(params))))
    assert score_norm < 1e-8, score_norm
    # Observed information: centred differences of statsmodels' analytic score (its own hessian()
    # uses forward differences, good to ~1e-7 only).
    hess = approx_fprime(params, model.score, centered=True)
    hess = (hess + hess.T) / 2
    cov = np.linalg.inv(-hess)
    # Cluster-robust sandwich from statsmodels' per-situation scores, summed within clusters, with
    # the same small-sample factor statsmodels' Logit uses, N = choice situations.
    n = model._n_groups
    k = exog.shape[1]
    ids = sorted(set(clus_of_situation.values()))
    scores = {c: np.zeros(k) for c in ids}
    # model._endog_grp keeps the groups in first-appearance order, i.e. situation order here.
    for gi in range(n):
        scores[clus_of_situation[gi]] += model.score_grp(gi, params)
    meat = sum(np.outer(s, s) for s in scores.values())
    g_count = len(ids)
    factor = g_count / (g_count - 1) * (n - 1) / (n - k)
    cov_cl = factor * cov @ meat @ cov
    llf = float(model.loglike(params))
    llnull = float(model.loglike(np.zeros(k)))
    write_json(os.path.join(OUT, tag + ".json"), {
        "note": (
            "Produced by `" + COMMAND + "` with " + VERSIONS + f". Data: {tag}.csv (seeded numpy "
            "draws, see the script), one row per alternative. Fit: statsmodels.discrete."
            "conditional_models.ConditionalLogit(chosen, X, groups=situation).fit(method='newton'); "
            "with one chosen alternative per group its conditional likelihood is McFadden's "
            "conditional logit. bse = sqrt(diag(inv(-H))) with H the centred-difference Jacobian "
            "(statsmodels.tools.numdiff.approx_fprime, centered=True) of ConditionalLogit.score at the "
            "estimate. ConditionalLogit has no cluster-robust option, so bse_cluster is computed in "
            "the script: sandwich inv(-H) M inv(-H) with M the sum over clusters of outer products of "
            "the clusters' summed ConditionalLogit.score_grp, times G/(G-1)*(N-1)/(N-K) with N = "
            "choice situations (the factor statsmodels' Logit cov_type='cluster' applies). llnull = "
            "loglike at all-zero coefficients (equal shares)."
        ),
        "names": names,
        "alternatives": k_alt,
        "n": n,
        "clusters": g_count,
        "params": floats(params),
        "bse": floats(np.sqrt(np.diag(cov))),
        "bse_cluster": floats(np.sqrt(np.diag(cov_cl))),
        "llf": llf,
        "llnull": llnull,
        "max_abs_score": score_norm,
    })


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    binary_fixture()
    conditional_fixture(3, 600, 6, 20260402)
    conditional_fixture(5, 300, 5, 20260403)
    print("wrote", sorted(os.listdir(OUT)))
