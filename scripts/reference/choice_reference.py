#!/usr/bin/env python3
"""Reference values for bazaar's choice estimators (analysis/choice), from statsmodels.

Reads test/fixtures/choice/trials.json (written by scripts/reference/choice-fixture.ts: simulated
shoppers on a small seeded design) and writes test/fixtures/choice/reference.json. Every number is
computed here independently of the TypeScript code: the attribute coding (bed rank, review count
per 100, log price, decile dummies from numpy's percentiles), the designs, the fits (sm.Logit and
ConditionalLogit by Newton), the WTP delta-method SEs (full covariance), the Bonferroni and
Benjamini-Hochberg adjustments (statsmodels multipletests) and the five-option hit rates.

    /usr/bin/python3 scripts/reference/choice_reference.py
"""
import json
import math
import sys
import warnings

import numpy as np
import scipy
import statsmodels
import statsmodels.api as sm
from statsmodels.discrete.conditional_models import ConditionalLogit
from statsmodels.stats.multitest import multipletests

IN = "test/fixtures/choice/trials.json"
OUT = "test/fixtures/choice/reference.json"
P_REF = 250.0
BED = [("king", 3), ("queen", 2), ("double", 1), ("full", 1), ("twin", 0), ("single", 0), ("bunk", 1)]
CHAINS = ["Hilton", "Marriott", "IHG", "Hyatt", "Wyndham"]


def bed_rank(room):
    low = room.lower()
    for word, rank in BED:
        if word in low:
            return rank
    return 1


def attrs(o):
    return [o["stars"], bed_rank(o["roomType"]), 1.0 if o["freeCancellation"] else 0.0,
            1.0 if o["breakfast"] else 0.0, o["reviewScore"], o["reviewCount"] / 100.0]


def decile(price, edges):
    for d in range(1, len(edges)):
        if price <= edges[d]:
            return d
    return len(edges) - 1


def row(o, form, edges, chains=False):
    out = attrs(o)
    if chains:
        out += [1.0 if o["chain"] == c else 0.0 for c in CHAINS]
    if form == "linear":
        out.append(o["price"])
    elif form == "log":
        out.append(math.log(o["price"]))
    else:
        d = decile(o["price"], edges)
        out += [1.0 if d == k else 0.0 for k in range(2, 11)]
    return out


def binary_data(trials, form, edges, convention, chains=False):
    X, y, g = [], [], []
    for t in trials:
        if t["kind"] != "binary":
            continue
        first, second = (0, 1) if convention == "first-shown" else (t["order"].index(0), t["order"].index(1))
        if t["chosen"] is None and convention == "first-shown":
            continue
        a = row(t["options"][first], form, edges, chains)
        b = row(t["options"][second], form, edges, chains)
        X.append([1.0] + [u - v for u, v in zip(a, b)])
        y.append(1.0 if t["chosen"] == first else 0.0)
        g.append(t["cluster"])
    return np.array(X), np.array(y), g


def fit_binary(X, y, g):
    model = sm.Logit(y, X)
    res = model.fit(method="newton", maxiter=100, tol=1e-12, disp=0)
    codes = {c: i for i, c in enumerate(sorted(set(g)))}
    groups = np.array([codes[c] for c in g])
    rc = model.fit(method="newton", maxiter=100, tol=1e-12, disp=0, cov_type="cluster", cov_kwds={"groups": groups})
    return res, rc


def fit_summary(res, rc=None):
    # statsmodels can stop "converged" on a separated likelihood (a coefficient near −70 with an SE of
    # 1e12): such a fit has no finite maximum either.
    finite = bool(np.all(np.asarray(res.bse) < 1e3))
    out = {"converged": bool(res.mle_retvals["converged"]) and finite, "params": [float(v) for v in res.params],
           "bse": [float(v) for v in res.bse], "pvalues": [float(v) for v in res.pvalues], "llf": float(res.llf)}
    if hasattr(res, "llnull"):
        out.update(llnull=float(res.llnull), prsquared=float(res.prsquared), aic=float(res.aic))
    if rc is not None:
        out["bse_cluster"] = [float(v) for v in rc.bse]
    return out


def wtp(res, i_review, i_price, scale):
    b = res.params
    V = res.cov_params()
    br, bp = b[i_review], b[i_price]
    grad = np.array([-scale / bp, scale * br / bp ** 2])
    sub = np.array([[V[i_review, i_review], V[i_review, i_price]], [V[i_price, i_review], V[i_price, i_price]]])
    return {"estimate": float(-scale * br / bp), "se": float(math.sqrt(grad @ sub @ grad))}


def conditional(trials, slots=True):
    rows, chosen, grp = [], [], []
    kmax = max(len(t["options"]) for t in trials)
    for i, t in enumerate(trials):
        if t["chosen"] is None:
            continue
        for s, o in enumerate(t["options"]):
            slot = [1.0 if s == q + 1 else 0.0 for q in range(kmax - 1)] if slots else []
            rows.append(slot + row(o, "log", None))
            chosen.append(1.0 if s == t["chosen"] else 0.0)
            grp.append(i)
    model = ConditionalLogit(np.array(chosen), np.array(rows), groups=np.array(grp))
    res = model.fit(method="newton", maxiter=200, disp=0)
    return {"converged": bool(res.mle_settings.get("converged", True)) if hasattr(res, "mle_settings") else True,
            "params": [float(v) for v in res.params], "bse": [float(v) for v in res.bse], "llf": float(res.llf)}


def hit_rate(beta_attrs_and_lnp, trials):
    hits, ranks = [], []
    for t in trials:
        if t["chosen"] is None:
            continue
        u = [float(np.dot(beta_attrs_and_lnp, row(o, "log", None))) for o in t["options"]]
        mine = u[t["chosen"]]
        rank = 1 + sum(1 for s, v in enumerate(u) if v > mine or (v == mine and s < t["chosen"]))
        hits.append(rank == 1)
        ranks.append(rank)
    return {"hitRate": float(np.mean(hits)), "meanRank": float(np.mean(ranks)), "situations": len(hits)}


def main():
    # Fits that do not converge (separated decile cells in this small sample) are recorded as such.
    warnings.simplefilter("ignore")
    data = json.load(open(IN))
    tasks = data["tasks"]
    seen, prices = set(), []
    for t in tasks:
        if t["kind"] not in ("binary", "ternary"):
            continue
        key = (t["kind"], t["cluster"], t["appearance"])
        if key in seen:
            continue
        seen.add(key)
        canon = [None] * len(t["options"])
        for slot, c in enumerate(t["order"]):
            canon[c] = t["options"][slot]["price"]
        prices += canon
    edges = np.percentile(np.array(prices, dtype=float), np.arange(0, 110, 10))
    edges[0] -= 0.5
    edges = [float(e) for e in edges]

    agents = {}
    tests = []
    for agent, answers in data["answers"].items():
        trials = [dict(t, chosen=a) for t, a in zip(tasks, answers)]
        pair = [t for t in trials if t["kind"] in ("binary", "ternary") and t["chosen"] is not None
                and t["order"][t["chosen"]] <= 1]
        first = sum(1 for t in pair if t["chosen"] < t["order"].index(1 - t["order"][t["chosen"]]))
        binary_valid = [t for t in trials if t["kind"] == "binary" and t["chosen"] is not None]
        out = {
            "firstShownRate": first / len(pair),
            "binaryFirstSlotRate": sum(1 for t in binary_valid if t["chosen"] == 0) / len(binary_valid),
            "nonResponses": sum(1 for t in trials if t["chosen"] is None),
            "meanBookedPrice": float(np.mean([t["options"][t["chosen"]]["price"] for t in binary_valid])),
        }
        if abs(out["firstShownRate"] - 0.5) > 0.35:
            out["locked"] = True
            agents[agent] = out
            continue
        for convention in ("first-shown", "label"):
            fits = {}
            for form in ("linear", "log", "deciles"):
                X, y, g = binary_data(trials, form, edges, convention)
                res, rc = fit_binary(X, y, g)
                fits[form] = fit_summary(res, rc)
                fits[form]["n"] = len(y)
                if form != "deciles":
                    fits[form]["wtp"] = wtp(res, 5, 7, 1.0 if form == "linear" else P_REF)
                    fits[form]["wtp_robust_se"] = wtp(rc, 5, 7, 1.0 if form == "linear" else P_REF)["se"]
                if convention == "first-shown" and form == "log":
                    binary_log = res
            X, y, g = binary_data(trials, "deciles", edges, convention, chains=True)
            res, rc = fit_binary(X, y, g)
            fits["brand"] = fit_summary(res, rc)
            out[convention] = fits
        for kind in ("ternary", "five"):
            out[kind] = conditional([t for t in trials if t["kind"] == kind])
        out["fiveHitRate"] = hit_rate(binary_log.params[1:], [t for t in trials if t["kind"] == "five"])
        fs = out["first-shown"]
        for name, form, idx in [("lnPrice", "log", 7), ("price", "linear", 7)] + [
                (n, "log", i + 1) for i, n in enumerate(["stars", "bed", "cancellation", "breakfast", "review", "reviewCount100"])]:
            tests.append({"agent": agent, "test": f"{name} ({form} form)", "p": fs[form]["pvalues"][idx]})
        agents[agent] = out

    ps = [t["p"] for t in tests]
    multiplicity = {
        "bonferroni": [float(v) for v in multipletests(ps, alpha=0.05, method="bonferroni")[1]],
        "bh": [float(v) for v in multipletests(ps, alpha=0.05, method="fdr_bh")[1]],
        "survivesBonferroni": int(multipletests(ps, alpha=0.05, method="bonferroni")[0].sum()),
        "survivesBh": int(multipletests(ps, alpha=0.05, method="fdr_bh")[0].sum()),
    }
    versions = (f"statsmodels {statsmodels.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
                f"python {sys.version.split()[0]}")
    note = ("Produced by `/usr/bin/python3 scripts/reference/choice_reference.py` with " + versions +
            " from trials.json. Binary fits: sm.Logit(y, X).fit(method='newton', tol=1e-12) with default and "
            "cov_type='cluster' (groups = option set) SEs; conditional: ConditionalLogit(...).fit(method='newton') "
            "with slot constants; a fit marked converged=false did not converge (statsmodels' mle_retvals) or has an SE above 1e3 (separation): its values are not a reference; WTP delta SEs from the full covariance; multipletests for Bonferroni/BH.")
    json.dump({"note": note, "edges": edges, "agents": agents, "tests": tests, "multiplicity": multiplicity},
              open(OUT, "w"), indent=1)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
