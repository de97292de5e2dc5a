# SPDX-License-Identifier: BSD-3-Clause
"""Reproduce the OTSL experiment (Chobtham & Constantinou, Tables 5 and 6) on skbn's learners.

For each learner family, each problem (network x sample size) and each data seed, the script
compares the accuracy (F1 of CPDAG edges, SHD) of

* the learner's default configuration,
* the configuration chosen by OTSLSearchCV (out-of-sample bootstrap),
* the configurations chosen by in-sample BIC and AIC, by StARS, and by OCT (Biza et al.'s
  out-of-sample causal tuning with Markov-blanket random forests, sparsity rule on),

and writes a markdown table and a figure (F1 against the penalty with the OTSL choices
marked, as the paper's Figure 1) to ``docs/``. Two settings can be run side by side:

``paper`` -- the setting as the paper states it (its Table 2 and Algorithms 2-3):

* HillClimb and FGES learn with ``EBIC(gamma)``, gamma = 0..19; MMHC with the chi-squared test
  at alpha in {0.05, 0.01} x gamma = 0..9. The default ("Default A") is gamma = 0, i.e. BIC,
  with alpha = 0.05.
* OTSL is scored three ways, from one search: Algorithm 2 read literally (held-out EBIC with
  the configuration's own gamma normalised to [0, 1], gamma' = gamma / 19, or / 9 for MMHC),
  and two scores common to every configuration, held-out BIC and held-out AIC.
* PCStable: test in {X2, G2, shrinkage MI} x alpha in {0.05, 0.01, 0.1}, scored by held-out
  BIC (Algorithm 2 without gamma) and by held-out AIC.
* OrderMCMC (hybrid order MCMC in a PC skeleton, BiDAG's role in the paper): BDeu iss 1..20,
  scored by Algorithm 3 (held-out BDeu with the configuration's own iss) and by held-out BIC
  and AIC;
  its default is iss = 1 ("Default B") and its paper row is Table 6. Networks with more than
  63 variables (hepar2) are skipped: OrderMCMC's parent sets are 64-bit masks.

A problem on which every OTSL fit fails is left out for every tuner and named on the page with
the first error (OrderMCMC on hailfinder: the PC skeleton of a bootstrap resample gives some
variable more than 16 possible parents).

``authors`` -- the authors' public code (seed notes, section 3.5): bnlearn's ``bic`` with
k = P, i.e. ``AIC(penalty_discount=P)``, P = 1..20 (1..10 for MMHC), so the default P = 1 is
AIC, scored by the normalised EBIC on the AIC scale, gamma = (P - 1) / 20 (or / 10); FGES
tunes its penalty discount with the same scorer; OrderMCMC is scored by held-out LL - |theta|
(which is held-out AIC). The common held-out BIC and AIC are reported here too.

The paper's figures are Table 5 (Default A: PC-Stable, HC, FGES, MMHC, OCT included) and
Table 6 (Default B, BDeu tuning: the only table with MCMC). PC-Stable and MMHC test
conditioning sets of at most ``MAX_COND`` variables.

Usage::

    python -m examples.reproduce_otsl                  # full run (many hours on 2 cores)
    python -m examples.reproduce_otsl --quick          # small check run

A run can be split: ``--families``, ``--settings``, ``--sizes``, ``--networks``, ``--seeds``
and ``--tuners`` choose a part, and ``--merge`` adds its rows to the CSV next to ``--out``
(replacing rows of the same setting, learner, network, sample size, seed and tuner); the page lists
every command that contributed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.base import clone  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402

from examples.benchmarks._results import result_path, write_manifest
from skbn.ci_tests import ChiSquare, GSquare, ShrinkageMI  # noqa: E402
from skbn.datasets import load_network  # noqa: E402
from skbn.learners import FGES, MMHC, HillClimb, OrderMCMC, PCStable  # noqa: E402
from skbn.metrics import precision_recall_f1, shd  # noqa: E402
from skbn.model_selection import (  # noqa: E402
    InSampleSearchCV,
    OCTSearchCV,
    OTSLSearchCV,
    StARSSearchCV,
    aic_scorer,
    bdeu_scorer,
    bic_scorer,
    make_normalised_ebic_scorer,
    make_structure_scorer,
)
from skbn.scores import AIC, BIC, EBIC, BDeu  # noqa: E402

NETWORKS = ["asia", "alarm", "insurance", "child", "hailfinder", "hepar2"]
#: Change of mean F1 relative to the default in the paper: Table 5 (Default A, EBIC tuning;
#: PC-Stable, HC, FGES, MMHC) and Table 6 (Default B, BDeu tuning; the only table with MCMC).
#: Both over the paper's six case studies at n = 1k and 10k.
PAPER_F1_CHANGE = {
    "PCStable": {"OTSL": -1.18, "OCT": 1.88, "BIC": 4.32, "AIC": 3.30, "StARS": 0.72},
    "HillClimb": {"OTSL": 12.96, "OCT": 6.23, "BIC": -0.65, "AIC": -1.60, "StARS": -3.62},
    "FGES": {"OTSL": -0.10, "OCT": 1.26, "BIC": -6.87, "AIC": -7.43, "StARS": 1.55},
    "MMHC": {"OTSL": 3.91, "OCT": 3.03, "BIC": 11.55, "AIC": 19.88, "StARS": 3.36},
    "OrderMCMC": {"OTSL": 2.51, "OCT": -2.39, "BIC": -0.93, "AIC": 0.18, "StARS": -0.15},
}
#: Conditioning sets of PC-Stable and MMHC are capped (our deviation from the paper's bnlearn
#: runs): on OTSL's bootstrap training sets repeated rows make tests reject more often, degrees
#: grow and unlimited conditioning-set enumeration takes minutes per fit on hailfinder.
MAX_COND = 3
#: Order-MCMC iterations per fit (BiDAG's default chain for order MCMC is of this order).
MCMC_ITER = 5000
#: Tuners compared with each learner's default.
TUNERS = ("OTSL", "BIC", "AIC", "StARS", "OCT")  # the default always runs
SETTINGS = ("paper", "authors")
SETTING_TITLE = {"paper": "paper as stated", "authors": "authors' code"}


class OwnGammaEBIC:
    """The paper's Algorithm 2 read literally: held-out EBIC with the configuration's own
    gamma, normalised to [0, 1] by the largest gamma of the grid."""

    def __init__(self, top: int) -> None:
        self.top = top

    def __call__(self, estimator, X, y=None) -> float:
        gamma = estimator.get_params()["criterion"].gamma / self.top
        return make_structure_scorer(EBIC(gamma=gamma))(estimator, X)

    def __repr__(self) -> str:
        return f"OwnGammaEBIC(top={self.top})"


#: Held-out scores common to every configuration, from the same search (AIC is skbn's
#: default on discrete data)
COMMON = {"OTSL (common BIC)": bic_scorer, "OTSL (common AIC)": aic_scorer}


@dataclass
class Family:
    name: str
    setting: str
    default: object
    base: object
    grid: dict
    #: OTSL tuner label -> held-out scorer; the first one refits the search
    scorers: dict
    #: grid key of the penalty drawn in the figure, and the normalising constant of its axis
    penalty: str | None = None
    penalty_top: float = 1.0


def families(quick: bool, setting: str, skeletons: str | None = None) -> list[Family]:
    """The learners of one setting; the searched MMHC caches its skeletons in ``skeletons``.

    MMHC's skeleton does not depend on the score, so with a cache directory MMPC runs once
    per resample and alpha, not once per gamma. On hailfinder n = 10,000 a bootstrap
    skeleton takes 30-120 s of tests, so the cache is what makes that problem affordable;
    the results are the same as without it.
    """
    step20, step10 = (4, 3) if quick else (1, 1)
    mcmc = dict(max_cond_size=MAX_COND, n_iter=MCMC_ITER, random_state=1)
    iss_grid = [float(v) for v in range(1, 21, step20)]
    pc = Family(
        "PCStable",
        setting,
        PCStable(ChiSquare(), max_cond_size=MAX_COND),
        PCStable(ChiSquare(), max_cond_size=MAX_COND),
        {"ci_test": [ChiSquare(), GSquare(), ShrinkageMI()], "alpha": [0.05, 0.01, 0.1]},
        # held-out BIC is Algorithm 2 for a configuration without gamma
        dict(COMMON),
    )
    if setting == "paper":
        gammas = [float(g) for g in range(0, 20, step20)]
        mm_gammas = [float(g) for g in range(0, 10, step10)]
        return [
            Family(
                "HillClimb",
                setting,
                HillClimb(BIC()),
                HillClimb(EBIC(gamma=0.0)),
                {"criterion__gamma": gammas},
                {**COMMON, "OTSL (Alg. 2, own gamma)": OwnGammaEBIC(19)},
                "criterion__gamma",
                19.0,
            ),
            Family(
                "FGES",
                setting,
                FGES(BIC()),
                FGES(EBIC(gamma=0.0)),
                {"criterion__gamma": gammas},
                {**COMMON, "OTSL (Alg. 2, own gamma)": OwnGammaEBIC(19)},
            ),
            Family(
                "MMHC",
                setting,
                MMHC(ChiSquare(), BIC(), max_cond_size=MAX_COND),
                MMHC(ChiSquare(), EBIC(gamma=0.0), max_cond_size=MAX_COND, memory=skeletons),
                {"alpha": [0.05, 0.01], "criterion__gamma": mm_gammas},
                {**COMMON, "OTSL (Alg. 2, own gamma)": OwnGammaEBIC(9)},
            ),
            pc,
            Family(
                "OrderMCMC",
                setting,
                OrderMCMC(BDeu(iss=1.0), **mcmc),
                OrderMCMC(BDeu(iss=1.0), **mcmc),
                {"criterion__iss": iss_grid},
                {**COMMON, "OTSL (Alg. 3, own iss)": bdeu_scorer},
            ),
        ]
    p_grid = list(range(1, 21, step20))
    m_grid = list(range(1, 11, step10))
    return [
        Family(
            "HillClimb",
            setting,
            HillClimb(AIC()),
            HillClimb(AIC()),
            {"criterion__penalty_discount": p_grid},
            {"OTSL (authors' scorer)": make_normalised_ebic_scorer(20), **COMMON},
            "criterion__penalty_discount",
            20.0,
        ),
        Family(
            "FGES",
            setting,
            FGES("bic"),
            FGES("bic"),
            {"penalty_discount": p_grid},
            {"OTSL (authors' scorer)": make_normalised_ebic_scorer(20), **COMMON},
        ),
        Family(
            "MMHC",
            setting,
            MMHC(ChiSquare(), AIC(), max_cond_size=MAX_COND),
            MMHC(ChiSquare(), AIC(), max_cond_size=MAX_COND, memory=skeletons),
            {"alpha": [0.05, 0.01], "criterion__penalty_discount": m_grid},
            {"OTSL (authors' scorer)": make_normalised_ebic_scorer(10), **COMMON},
        ),
        # PC-Stable is scored by held-out BIC in both: it runs under "paper" only
        Family(
            "OrderMCMC",
            setting,
            OrderMCMC(BDeu(iss=1.0), **mcmc),
            OrderMCMC(BDeu(iss=1.0), **mcmc),
            {"criterion__iss": iss_grid},
            {"OTSL (authors' scorer)": aic_scorer, "OTSL (common BIC)": bic_scorer},
        ),
    ]


def accuracy(truth, graph):
    return precision_recall_f1(truth, graph).f1, shd(truth, graph)


def _best_index(results: dict, key: str) -> int:
    """The search's rule for one metric: best mean, ties to the first configuration."""
    return int(np.flatnonzero(results[f"rank_test_{key}"] == 1)[0])


class ProblemLeftOut(Exception):
    """A problem on which a tuner could not fit one configuration on one resample."""


def _run_otsl(family: Family, X, seed: int, labels: list, add, args) -> dict:
    """One OTSL search scored by every scorer of the family; a row per scorer."""
    start = time.perf_counter()
    with warnings.catch_warnings():
        # configurations with too few finite splits are reported in the "finite" column
        warnings.simplefilter("ignore", UserWarning)
        otsl = OTSLSearchCV(
            family.base,
            family.grid,
            scoring=family.scorers,
            refit=labels[0],
            n_resamples=args.resamples,
            random_state=seed,
            n_jobs=args.jobs,
        )
        try:
            otsl.fit(X)
        except ValueError as err:
            # every fit failed: the problem is left out for all tuners, and the page says why
            failed = re.match(r"All (\d+) fits failed", str(err))
            if failed is None:
                raise
            first = str(err).strip().splitlines()[-1].removeprefix("ValueError: ")
            raise ProblemLeftOut(
                f"all {failed.group(1)} OTSL fits failed; the first error: {first}"
            ) from err
    search_seconds = time.perf_counter() - start
    results = otsl.cv_results_
    n_splits = args.resamples
    chosen_by = {}
    for label in labels:
        index = _best_index(results, label)
        params = results["params"][index]
        start = time.perf_counter()
        if label == labels[0]:
            graph = otsl.best_estimator_.graph_
        else:
            graph = clone(family.base).set_params(**params).fit(X).graph_
        ranked = int(np.isfinite(results[f"mean_test_{label}"]).sum())
        finite = (
            f"{int(results[f'n_finite_splits_{label}'][index])}/{n_splits} splits; "
            f"{ranked}/{len(results['params'])} configs ranked"
        )
        add(label, graph, search_seconds + time.perf_counter() - start, repr(params), finite)
        chosen_by[label] = params
    return chosen_by


def run_problem(family: Family, network: str, n: int, seed: int, args):
    bn = load_network(network)
    X = bn.sample(n, random_state=seed)
    truth = bn.graph
    rows = []

    def add(tuner, graph, seconds, chosen="", finite=""):
        f1, d = accuracy(truth, graph)
        rows.append(
            dict(
                setting=family.setting,
                family=family.name,
                network=network,
                n=n,
                seed=seed,
                tuner=tuner,
                f1=f1,
                shd=d,
                seconds=seconds,
                chosen=chosen,
                finite=finite,
            )
        )

    start = time.perf_counter()
    add("default", clone(family.default).fit(X).graph_, time.perf_counter() - start)
    labels = list(family.scorers) if "OTSL" in args.tuners else []
    chosen_by = {}
    if labels:
        chosen_by = _run_otsl(family, X, seed, labels, add, args)
    for crit in ("bic", "aic"):
        if crit.upper() not in args.tuners:
            continue
        start = time.perf_counter()
        ins = InSampleSearchCV(family.base, family.grid, scoring=crit, n_jobs=args.jobs).fit(X)
        add(
            f"in-sample {crit.upper()}",
            ins.best_estimator_.graph_,
            time.perf_counter() - start,
            repr(ins.best_params_),
        )
    if "StARS" in args.tuners:
        start = time.perf_counter()
        stars = StARSSearchCV(
            family.base,
            family.grid,
            n_subsamples=args.stars_subsamples,
            random_state=seed,
            n_jobs=args.jobs,
        ).fit(X)
        add(
            "StARS",
            stars.best_estimator_.graph_,
            time.perf_counter() - start,
            repr(stars.best_params_),
        )
    if "OCT" in args.tuners:
        start = time.perf_counter()
        oct_ = OCTSearchCV(
            family.base,
            family.grid,
            cv=args.oct_folds,
            predictor=args.oct_predictor,
            random_state=seed,
            n_jobs=args.jobs,
        ).fit(X)
        add(
            "OCT", oct_.best_estimator_.graph_, time.perf_counter() - start, repr(oct_.best_params_)
        )
    curve = None
    if family.penalty is not None and network == "alarm" and seed == args.seeds[0]:
        # F1 of every configuration on the full data, for the figure
        values = family.grid[family.penalty]
        f1s = [
            accuracy(truth, clone(family.base).set_params(**{family.penalty: v}).fit(X).graph_)[0]
            for v in values
        ]
        marks = {label: params[family.penalty] for label, params in chosen_by.items()}
        curve = {
            "setting": family.setting,
            "n": n,
            "seed": seed,
            "penalty": family.penalty,
            "top": family.penalty_top,
            "values": [float(v) for v in values],
            "f1": [float(v) for v in f1s],
            "marks": {k: float(v) for k, v in marks.items()},
        }
    return rows, curve


def keep_curve(curves: dict, curve: dict) -> None:
    """Record a figure curve under (setting, n), merging with the one a merged run left.

    A curve belongs to one data seed: a later run on another seed leaves the recorded curve
    alone, and a run of other tuners on the same seed adds its tuners' marks to it (a run of
    OCT alone must not wipe OTSL's marks).
    """
    key = (curve["setting"], curve["n"])
    old = curves.get(key)
    if old is None:
        curves[key] = curve
    elif old["seed"] == curve["seed"]:
        curves[key] = {**curve, "marks": {**old["marks"], **curve["marks"]}}


def figure(curves: list[dict], path: Path) -> None:
    """F1 of every configuration against its normalised penalty, one panel per curve."""
    curves = sorted(curves, key=lambda c: (SETTINGS.index(c["setting"]), c["n"]))
    columns = min(2, len(curves))
    rows = -(-len(curves) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 3.8 * rows), squeeze=False)
    styles = [("#c92a2a", "--"), ("#1864ab", ":"), ("#2b8a3e", "-."), ("#e67700", (0, (1, 3)))]
    # The common scores keep one look in every panel; the setting's own scorer
    # (Algorithm 2 or the authors' scorer) takes the next free one.
    fixed = dict(zip(COMMON, styles))
    for ax, curve in zip(axes.flat, curves):
        top, values = curve["top"], curve["values"]
        if curve["penalty"] == "criterion__gamma":
            xs = [v / top for v in values]
            label = f"normalised gamma' = gamma / {top:g}"
        else:
            xs = [(v - 1) / top for v in values]
            label = f"normalised gamma = (P - 1) / {top:g}"
        ax.plot(xs, curve["f1"], marker="o", color="#333333", label="F1 of the configuration")
        free = iter(styles[len(fixed) :])
        for tuner, value in curve["marks"].items():
            color, style = fixed[tuner] if tuner in fixed else next(free)
            k = values.index(value)
            ax.axvline(xs[k], color=color, linestyle=style, label=f"{tuner}'s choice")
        ax.set_xlabel(label)
        ax.set_ylabel("F1 against the true CPDAG")
        ax.set_title(
            f"HillClimb on alarm, n={curve['n']:,}, seed {curve['seed']} "
            f"({SETTING_TITLE[curve['setting']]})",
            fontsize=9,
        )
        ax.legend(fontsize=7, frameon=False)
    for ax in list(axes.flat)[len(curves) :]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _paper_change(family: str, tuner: str):
    key = "OTSL" if tuner.startswith("OTSL") else tuner.replace("in-sample ", "")
    value = PAPER_F1_CHANGE.get(family, {}).get(key)
    if value is None:
        return ""
    return f"{value:+.2f}% ({'T6' if family == 'OrderMCMC' else 'T5'})"


TUNER_ORDER = ("default", "OTSL", "in-sample BIC", "in-sample AIC", "StARS", "OCT")


def _order(results: pd.DataFrame) -> pd.DataFrame:
    """Rows in a stable reading order: setting, learner, problem, tuner as in TUNER_ORDER."""
    families = ["HillClimb", "FGES", "MMHC", "PCStable", "OrderMCMC"]
    key = pd.DataFrame(
        {
            "s": results.setting.map({s: i for i, s in enumerate(SETTINGS)}),
            "f": results.family.map({f: i for i, f in enumerate(families)}),
            "t": results.tuner.map(
                lambda t: next(i for i, p in enumerate(TUNER_ORDER) if t.startswith(p))
            ),
        },
        index=results.index,
    )
    order = np.lexsort(
        (results.tuner, key.t, results.seed, results.n, results.network, key.f, key.s)
    )
    return results.iloc[order]


def summarise(results: pd.DataFrame) -> pd.DataFrame:
    """Mean F1/SHD per (setting, learner, tuner) and the change of F1 against the default on
    the same problems and seeds, with the spread of that change over seeds."""
    problem = ["setting", "family", "network", "n", "seed"]
    default = results[results.tuner == "default"][[*problem, "f1"]]
    paired = results.merge(default, on=problem, suffixes=("", "_default"))
    rows = []
    for (setting, family, tuner), part in paired.groupby(
        ["setting", "family", "tuner"], sort=False
    ):
        by_seed = part.groupby("seed")[["f1", "f1_default"]].mean()
        change_by_seed = (by_seed.f1 - by_seed.f1_default) / by_seed.f1_default * 100
        rows.append(
            dict(
                setting=setting,
                family=family,
                tuner=tuner,
                f1=part.f1.mean(),
                change=(part.f1.mean() - part.f1_default.mean()) / part.f1_default.mean() * 100,
                spread=float(change_by_seed.std(ddof=1)) if len(by_seed) > 1 else float("nan"),
                shd=part.shd.mean(),
                seconds=part.seconds.mean(),
                seeds=len(by_seed),
            )
        )
    return pd.DataFrame(rows)


def problems(part: pd.DataFrame) -> pd.Series:
    """The (network, n, seed) problem of each row, aligned with the rows."""
    return pd.Series(list(zip(part.network, part.n, part.seed)), index=part.index, dtype=object)


def tuner_problems(part: pd.DataFrame) -> tuple[set, dict[str, set]]:
    """The core (network, n, seed) problems of one learner's rows, and those each tuner ran on.

    The core is the problem set that most tuners ran on (the larger one on a tie): the
    tuners are compared there. A tuner run on fewer problems (OCT, the slowest, added later)
    or on more (OCT alone on a network too slow for OTSL) is set apart.
    """
    keys = problems(part)
    by_tuner = {t: set(keys[part.tuner == t]) for t in part.tuner.unique()}
    sets = [frozenset(v) for t, v in by_tuner.items() if t != "default"] or [
        frozenset(v) for v in by_tuner.values()
    ]
    core = max(set(sets), key=lambda c: (sets.count(c), len(c)))
    return set(core), by_tuner


def comparable(results: pd.DataFrame) -> pd.DataFrame:
    """The rows the summary compares: the core problems of each learner, and all rows of a
    tuner that did not run on the whole core (it is compared on its own problems)."""
    keep = pd.Series(False, index=results.index)
    for _, part in results.groupby(["setting", "family"], sort=False):
        core, covers = tuner_problems(part)
        partial = part.tuner.isin([t for t in covers if not core <= covers[t]])
        keep[part.index] = problems(part).isin(core) | partial
    return results[keep]


def findings(results: pd.DataFrame) -> list[str]:
    """One sentence per (setting, learner): which tuner gained most, and where OTSL stands.

    Tuners are ranked on the problems they all cover; a tuner run on fewer problems (OCT,
    the slowest, added later) gets its own sentence that sets it beside the others on its
    problems only, so no ranking mixes problem sets.
    """
    out = []
    for (setting, family), part in results.groupby(["setting", "family"], sort=False):
        core, covers = tuner_problems(part)
        # set apart: tuners that missed part of the core, and those that ran beyond it
        partial = [t for t in covers if covers[t] != core and t != "default"]
        keys = problems(part)
        ranked = [t for t in covers if core <= covers[t]]
        main = summarise(part[keys.isin(core) & part.tuner.isin(ranked)])
        tuned = main[main.tuner != "default"].sort_values("change", ascending=False)
        if tuned.empty:
            continue
        best = tuned.iloc[0]
        otsl = tuned[tuned.tuner.str.startswith("OTSL")]
        spread = "" if np.isnan(best.spread) else f", sd {best.spread:.1f} over seeds"
        if best.change > 0:
            text = (
                f"- {family} ({SETTING_TITLE[setting]}): the largest gain of F1 comes from "
                f"{best.tuner} ({best.change:+.1f}%{spread})"
            )
        else:
            text = f"- {family} ({SETTING_TITLE[setting]}): no tuner improves on the default"
        for o in otsl.itertuples():
            beaten = tuned[(tuned.change > o.change) & ~tuned.tuner.str.startswith("OTSL")]
            text += f"; {o.tuner} {o.change:+.1f}%"
            if len(beaten):
                text += f", below {', '.join(beaten.tuner)}"
        paper = PAPER_F1_CHANGE.get(family, {}).get("OTSL")
        if paper is not None and len(otsl):
            signs = {
                "gain" if v >= 0.05 else "loss" if v <= -0.05 else "no change" for v in otsl.change
            }
            theirs = "gain" if paper > 0 else "loss"
            text += f". The paper reports a {theirs} for OTSL ({paper:+.2f}%); ours: " + (
                " and ".join(sorted(signs)) + "."
            )
        if partial and not text.endswith("."):
            text += "."
        for tuner in partial:
            on = keys.isin(covers[tuner])
            sub = summarise(
                part[on & part.tuner.isin([t for t in covers if covers[tuner] <= covers[t]])]
            )
            sub = sub[sub.tuner != "default"].sort_values("change", ascending=False)
            own = sub[sub.tuner == tuner].iloc[0]
            others = sub[sub.tuner != tuner]
            n_seeds = part.loc[on, "seed"].nunique()
            spread = "" if np.isnan(own.spread) else f", sd {own.spread:.1f} over seeds"
            text += (
                f" On the {len(covers[tuner])} problems {tuner} was run on "
                f"({n_seeds} seed{'s' if n_seeds > 1 else ''}), {tuner} changes F1 by "
                f"{own.change:+.1f}%{spread}"
            )
            if len(others):
                text += ", the others by " + ", ".join(
                    f"{o.tuner} {o.change:+.1f}%" for o in others.itertuples()
                )
            theirs = PAPER_F1_CHANGE.get(family, {}).get(tuner)
            if theirs is not None:
                text += f"; the paper reports {theirs:+.2f}% for {tuner}"
            text += "."
        out.append(text)
    return out


def _left_out(results: pd.DataFrame, runs: list) -> list[str]:
    """A paragraph on the problems a run left out because no fit succeeded, if any."""
    have = set(
        map(tuple, results[["setting", "family", "network", "n", "seed"]].to_numpy().tolist())
    )
    failed = [
        f
        for r in runs
        for f in r.get("failed", [])
        if (f["setting"], f["family"], f["network"], f["n"], f["seed"]) not in have
    ]
    if not failed:
        return []
    return [
        "Left out, because no configuration could be fitted on any resample (so OTSL has "
        "nothing to rank, and the problem is dropped for every tuner to keep the rows "
        "comparable): "
        + "; ".join(
            f"{f['family']} ({SETTING_TITLE[f['setting']]}) on {f['network']}, "
            f"n = {f['n']:,}, seed {f['seed']} ({f['reason']})"
            for f in failed
        )
        + ".",
        "",
    ]


def _seeds(seeds) -> str:
    """'seed 0' or 'seeds 0, 1, 2'."""
    return f"seed{'s' * (len(seeds) > 1)} " + ", ".join(str(s) for s in seeds)


def markdown(results: pd.DataFrame, args, figure_name: str | None, runs: list) -> str:
    results = _order(results)
    summary = summarise(comparable(results))
    networks = sorted(results["network"].unique())
    seeds = sorted(results["seed"].unique())
    commands = "; ".join(
        f"`{r['command']}` ({r['minutes']:.0f} min"
        + ("" if r.get("complete", True) else ", interrupted: its finished problems only")
        + ")"
        for r in runs
    )
    coverage = []
    for (setting, family), part in results.groupby(["setting", "family"], sort=False):
        core, covers = tuner_problems(part)
        on_core = part[problems(part).isin(core)]
        sizes = " and ".join(f"{v:,}" for v in sorted(on_core.n.unique()))
        nets = sorted(on_core.network.unique())
        missing = sorted(set(networks) - set(nets))
        family_seeds = sorted(on_core.seed.unique())
        # networks with fewer seeds at a size than the family (an interrupted run), said once
        # per size when every network lacks the same seeds
        short, thin = [], []
        for size in sorted(on_core.n.unique()):
            have = {
                net: [seed for seed in family_seeds if (net, size, seed) in core] for net in nets
            }
            for net, got in have.items():
                if not got:
                    short.append(f"{net} n = {size:,}")
                elif got != family_seeds:
                    thin.append(f"{net} n = {size:,} with {_seeds(got)}")
        # tuners run on fewer problems than the others (e.g. OCT, the slowest, added later),
        # or beyond them (OCT alone on a network too slow for the other tuners)
        partial = []
        for tuner, tpart in part.groupby("tuner", sort=False):
            if tuner == "default" or covers[tuner] == core:
                continue
            if not core <= covers[tuner]:
                inside = tpart[tpart.network.isin(nets)]
                present = sorted(set(inside.network))
                absent = sorted(set(nets) - set(present))
                # a size the tuner reached on some of its networks only (an interrupted run)
                # names them, so that no size claims more problems than were run
                at_sizes = []
                for size in sorted(inside.n.unique()):
                    got = sorted(inside[inside.n == size].network.unique())
                    at_sizes.append(
                        f"{size:,}" + ("" if got == present else f" (on {', '.join(got)})")
                    )
                partial.append(
                    f"{tuner} only at n = "
                    + " and ".join(at_sizes)
                    + f", {_seeds(sorted(inside.seed.unique()))}"
                    + (f", without {', '.join(absent)}" if absent else "")
                )
            beyond = tpart[~tpart.network.isin(nets)]
            if len(beyond):
                partial.append(
                    f"{tuner} also on {', '.join(sorted(beyond.network.unique()))} (n = "
                    + " and ".join(f"{v:,}" for v in sorted(beyond.n.unique()))
                    + f", {_seeds(sorted(beyond.seed.unique()))})"
                )
        coverage.append(
            f"{family} ({SETTING_TITLE[setting]}): n = {sizes}, {_seeds(family_seeds)}"
            + (f", without {', '.join(missing + short)}" if missing or short else "")
            + (f", and only {', '.join(thin)}" if thin else "")
            + (f" ({'; '.join(partial)})" if partial else "")
        )
    lines = [
        "# OTSL: out-of-sample tuning of structure learners"
        + (" (quick setting)" if args.quick else ", with the paper's grids"),
        "",
        f"Regenerate with {commands} (minutes each on a {os.cpu_count()}-core machine). "
        "Merged runs share one setting (the deviations below).",
        "",
        f"Problems: {', '.join(networks)}, discrete data sampled from the bundled networks with "
        f"random_state = seed ({len(seeds)} seed{'s' if len(seeds) > 1 else ''}); "
        + "; ".join(coverage)
        + ". Accuracy is the F1 of CPDAG edges (orientation included) and the SHD between "
        "CPDAGs, averaged over problems and seeds; the change is relative to the learner's "
        "default configuration on the same problems, and 'sd' is its standard deviation over "
        "seeds (each seed's change over its problems). The table compares the tuners on the "
        "problems most of them ran on; a tuner run beyond them is compared on all of its "
        "problems in the findings below it.",
        "",
        "Settings. *Paper as stated*: the default is the paper's Default A (EBIC with gamma = "
        "0, i.e. BIC; chi-squared at alpha = 0.05), the grids are the paper's Table 2 (gamma "
        "0..19, 0..9 for MMHC), and OTSL is scored three ways from one search: held-out BIC "
        "and held-out AIC, each common to all configurations, and the paper's Algorithm 2 read "
        "literally (each configuration's own gamma, normalised to [0, 1]); OrderMCMC uses "
        "Default B (BDeu, iss = 1) with Algorithm 3 (its own iss). *Authors' code*: bnlearn's "
        "'bic' with k = P, so the default P = 1 is AIC (LL - k), and the authors' normalised "
        "EBIC on that scale (P = 1..20, 1..10 for MMHC); this is the setting behind the "
        "paper's numbers as far as the public code shows. OrderMCMC keeps BDeu with iss 1..20 "
        "there and is scored by held-out LL - |theta|, which is the held-out AIC, so its "
        "other rows repeat those of the paper as stated. PC-Stable is the same in both and "
        "runs once.",
        "",
        "The paper's changes are over its own six case studies at n = 1k and 10k (T5: Table 5, "
        "Default A; T6: Table 6, Default B), so compare directions and orders of magnitude "
        "rather than values. Our deviations: these networks (four of the paper's six are not "
        f"bundled); PC-Stable and MMHC test conditioning sets of at most {MAX_COND} variables; "
        + (
            "the --quick setting (every 4th/3rd grid point, 3 resamples); "
            if args.quick
            else f"{args.resamples} resamples as in the paper; "
        )
        + "F1 over CPDAG edges; OCT uses "
        + (
            f"{args.oct_folds} folds and 30-tree forests"
            if args.oct_predictor is not None
            else f"{args.oct_folds} folds, 100 trees"
        )
        + "; OrderMCMC skips networks above 63 variables (hepar2).",
        "",
        *_left_out(results, runs),
        "| setting | learner | tuner | mean F1 | change vs default | sd | paper's change "
        "| mean SHD | mean time (s) |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in summary.itertuples():
        spread = "" if np.isnan(r.spread) or r.tuner == "default" else f"{r.spread:.1f}"
        lines.append(
            f"| {SETTING_TITLE[r.setting]} | {r.family} | {r.tuner} | {r.f1:.3f} | "
            f"{r.change:+.1f}% | {spread} | {_paper_change(r.family, r.tuner)} | "
            f"{r.shd:.1f} | {r.seconds:.1f} |"
        )
    lines += ["", "What the table shows (generated from it):", "", *findings(results)]
    if "finite" in results and results["finite"].astype(str).str.contains("configs").any():
        otsl = results[results.tuner.str.startswith("OTSL")]
        pc = otsl[(otsl.family == "PCStable") & (otsl.tuner == "OTSL (common BIC)")]
        if len(pc):
            parts = pc.finite.str.extract(r"(\d+)/(\d+) splits; (\d+)/(\d+) configs")
            chosen = parts[0].astype(int)
            ranked = parts[2].astype(int)
            lines += [
                "",
                "PC-Stable's OTSL choices (held-out BIC) rest on few finite splits: a bootstrap "
                "PDAG without a consistent extension scores NaN, and a configuration is ranked "
                "only when at "
                f"least half of its splits are finite. Over {len(pc)} PC-Stable problems, the "
                f"chosen configuration had {chosen.mean():.1f} finite splits of "
                f"{args.resamples} on average (minimum {chosen.min()}), and "
                f"{int((ranked == 0).sum())} problems had no ranked configuration at all, so "
                "the 'choice' there is the first configuration of the grid. The per-problem "
                "table gives the counts.",
            ]
    if figure_name:
        lines += ["", f"![F1 against the penalty, OTSL's choices marked]({figure_name})"]
    per = results.groupby(["setting", "family", "network", "n", "tuner"], sort=False)
    lines += [
        "",
        "Per problem (mean over seeds; the chosen configuration per seed):",
        "",
        "| setting | learner | network | n | tuner | F1 | SHD | chosen | finite (OTSL) |",
        "|---|---|---|---:|---|---:|---:|---|---|",
    ]
    for (setting, family, network, n, tuner), part in per:
        chosen = "; ".join(str(c) for c in part.chosen if isinstance(c, str) and c)
        finite = "; ".join(str(c) for c in part.finite if isinstance(c, str) and c)
        lines.append(
            f"| {SETTING_TITLE[setting]} | {family} | {network} | {n} | {tuner} | "
            f"{part.f1.mean():.3f} | {part.shd.mean():.1f} | {chosen} | {finite} |"
        )
    return "\n".join(lines) + "\n"


def read_results(out: Path) -> pd.DataFrame:
    """The rows of earlier runs, from the CSV next to the page."""
    return pd.read_csv(out.with_suffix(".csv"), dtype={"chosen": str, "finite": str})


def write_report(out: Path, results: pd.DataFrame, runs: list, curves: list, args) -> None:
    """Draw the figure (it needs HillClimb on alarm) and write the page."""
    figure_path = out.with_name(f"{out.stem}_f1_vs_gamma.png")
    if curves:
        figure(curves, figure_path)
    name = figure_path.name if figure_path.exists() else None
    out.write_text(markdown(results, args, name, runs), encoding="utf-8")
    write_manifest(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="coarser grids, 3 resamples, n = 1,000 only"
    )
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=None,
        help="sample sizes (default: 1000 10000; 1000 with --quick)",
    )
    parser.add_argument("--networks", nargs="+", default=NETWORKS)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="data seeds")
    parser.add_argument(
        "--settings",
        nargs="+",
        default=list(SETTINGS),
        choices=list(SETTINGS),
        help="the paper as stated, the authors' code, or both (default)",
    )
    parser.add_argument(
        "--families",
        nargs="+",
        default=None,
        help="learner families to run (default: all)",
    )
    parser.add_argument(
        "--tuners",
        nargs="+",
        default=list(TUNERS),
        choices=list(TUNERS),
        help="tuners to compare with the default (default: all)",
    )
    parser.add_argument(
        "--oct-quick",
        action="store_true",
        help="OCT with 5 folds and 30-tree forests (always so with --quick)",
    )
    parser.add_argument(
        "--merge",
        action="store_true",
        help="add to the rows already in the CSV next to --out instead of replacing them",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="rewrite the page from the CSV and run log next to --out, without running",
    )
    parser.add_argument("--out", default=result_path("otsl"))
    args = parser.parse_args()
    args.resamples = 3 if args.quick else 10
    args.stars_subsamples = 5 if args.quick else 10
    # OCT: the authors' 10 folds and 100-tree forests; --quick uses 5 folds and 30 trees
    light_oct = args.quick or args.oct_quick
    args.oct_folds = 5 if light_oct else 10
    args.oct_predictor = RandomForestClassifier(30, random_state=0) if light_oct else None
    if args.sizes is None:
        args.sizes = [1000] if args.quick else [1000, 10000]
    out = Path(args.out)
    start = time.perf_counter()
    command = "python -m examples.reproduce_otsl " + shlex.join(sys.argv[1:])
    earlier, earlier_runs = None, []
    log = out.with_suffix(".runs.json")
    if args.merge and out.with_suffix(".csv").exists():
        earlier = read_results(out)
        if log.exists():
            earlier_runs = json.loads(log.read_text(encoding="utf-8"))
    rows, curves, failed = [], {}, []
    curve_log = out.with_name(f"{out.stem}_curves.json")
    if (args.merge or args.report_only) and curve_log.exists():
        for c in json.loads(curve_log.read_text(encoding="utf-8")):
            curves[(c["setting"], c["n"])] = c
    keys = ["setting", "family", "network", "n", "seed"]
    if args.report_only:
        if not out.with_suffix(".csv").exists() or not log.exists():
            parser.error(f"--report-only needs {out.with_suffix('.csv')} and {log}")
        runs = json.loads(log.read_text(encoding="utf-8"))
        write_report(out, read_results(out), runs, list(curves.values()), args)
        return

    def save(complete: bool) -> None:
        """Write the CSV, the run log, the figure and the page with every problem so far."""
        results = pd.DataFrame(rows)
        if earlier is not None:
            # a row is replaced by a new row of the same problem, seed and tuner
            cols = [*keys, "tuner"]
            done = set(map(tuple, results[cols].to_numpy().tolist())) if len(results) else set()
            again = [tuple(k) in done for k in earlier[cols].to_numpy().tolist()]
            # one index label per row: the page's per-learner masks assign by label
            results = pd.concat(
                [earlier[~pd.Series(again, index=earlier.index)], results], ignore_index=True
            )
        run = {
            "command": command.strip(),
            "minutes": (time.perf_counter() - start) / 60,
            "complete": complete,
        }
        if failed:
            run["failed"] = failed
        runs = [*earlier_runs, run]
        results.to_csv(out.with_suffix(".csv"), index=False)
        log.write_text(json.dumps(runs, indent=1), encoding="utf-8")
        if curves:
            curve_log.write_text(json.dumps(list(curves.values()), indent=1), encoding="utf-8")
        write_report(out, results, runs, list(curves.values()), args)

    with tempfile.TemporaryDirectory(prefix="skbn-otsl-skeletons-") as skeletons:
        for setting in args.settings:
            chosen = [
                f
                for f in families(args.quick, setting, skeletons)
                if args.families is None or f.name in args.families
            ]
            for family in chosen:
                for n in args.sizes:
                    for network in args.networks:
                        if family.name == "OrderMCMC" and len(load_network(network).nodes) > 63:
                            print(f"OrderMCMC  {network:<11} skipped: more than 63 variables")
                            continue
                        for seed in args.seeds:
                            t0 = time.perf_counter()
                            try:
                                result, curve = run_problem(family, network, n, seed, args)
                            except ProblemLeftOut as err:
                                failed.append(
                                    dict(
                                        setting=setting,
                                        family=family.name,
                                        network=network,
                                        n=n,
                                        seed=seed,
                                        reason=str(err),
                                    )
                                )
                                print(
                                    f"{setting:<7} {family.name:<10} {network:<11} n={n:<6} "
                                    f"seed={seed} left out: {err}",
                                    flush=True,
                                )
                                save(complete=False)
                                continue
                            rows.extend(result)
                            if curve is not None:
                                keep_curve(curves, curve)
                            print(
                                f"{setting:<7} {family.name:<10} {network:<11} n={n:<6} "
                                f"seed={seed} "
                                + "  ".join(f"{r['tuner']}: {r['f1']:.3f}" for r in result)
                                + f"  ({time.perf_counter() - t0:.0f} s)",
                                flush=True,
                            )
                            save(complete=False)  # an interrupted run still leaves its problems
    save(complete=True)
    print(out.read_text())


if __name__ == "__main__":
    main()
