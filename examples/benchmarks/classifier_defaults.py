# SPDX-License-Identifier: BSD-3-Clause
"""The classifier's defaults by measurement: which number columns are categories, and smoothing.

Two questions, on the same stratified folds as the classification benchmark (5-fold
``StratifiedKFold(shuffle=True, random_state=0)``), held-out log loss against the class
prior's:

1. **Integer columns** (``categorical_features``): a column of whole numbers with at most
   ``K`` distinct values is a category, one with more a measurement binned into 5
   quantile bins. ``K`` in 5, 10, 20, against "as read" (every integer column a category,
   every float column a measurement: skbn's rule for structure learners), on the real
   tables of :mod:`examples.benchmarks._real_tables` read with pandas defaults. Each ``K``
   runs as the public parameter: ``categorical_features=`` the list that rule gives.
2. **Smoothing** (``alpha``): the tables' pseudo-counts, ``alpha`` per cell (0.5, 1, 2)
   against BDeu's prior of ``iss`` (1, 10) spread over each table (what the classifier
   used before; run here by handing ``fit_parameters`` the BDeu prior), on the real tables
   and five tables of the classification benchmark.

3. **The ``"auto"`` and ``"hill_climb"`` structures' score**: BOSS (no polish, as
   ``"auto"``) with BIC, BIC at penalty discount 2, and AIC, and HillClimb with BIC and
   AIC, on every table of the first two parts and digits.

Each of ``"auto"`` (BOSS, randomised: seeds 0-4, their mean and standard deviation),
``"hill_climb"``, ``"tan"`` and ``"naive_bayes"``.

Usage::

    python -m examples.benchmarks.classifier_defaults
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold

import skbn.classification as classification
from examples.benchmarks._real_tables import TABLES
from examples.benchmarks._results import result_path, write_manifest
from skbn._supervised import MAX_CATEGORY_VALUES
from skbn.classification import AUTO_CRITERION, BayesianNetworkClassifier
from skbn.datasets import load_network
from skbn.learners import BOSS, HillClimb

STUDY = "classifier_defaults"
STRUCTURES = ["auto", "hill_climb", "tan", "naive_bayes"]
SEEDS = range(5)
CUTS = ["as read", 5, 10, 20]
SMOOTHING = [("alpha", 0.5), ("alpha", 1.0), ("alpha", 2.0), ("bdeu", 1.0), ("bdeu", 10.0)]
#: The "auto" structure's BOSS, by score (label: the keyword arguments of BOSS)
SCORES = {
    'criterion="bic"': dict(criterion="bic"),
    'criterion="bic", penalty_discount=2': dict(criterion="bic", penalty_discount=2),
    'criterion="aic"': dict(criterion="aic"),
}


def _benchmark_tables(digits: bool = False):
    loaders = [("breast_cancer", load_breast_cancer), ("wine", load_wine), ("iris", load_iris)]
    for name, loader in loaders + ([("digits", load_digits)] if digits else []):
        X, y = loader(return_X_y=True, as_frame=True)
        yield name, X.astype(float), y
    for network, target in [("alarm", "BP"), ("child", "Disease")]:
        frame = load_network(network).sample(1000, random_state=0)
        yield (
            f"{network}:{target} (n=1000)",
            frame.drop(columns=target).astype(str),
            frame[target].astype(str),
        )


def categories_by_rule(X: pd.DataFrame, cut) -> list[str]:
    """The columns that are categories under the rule ``cut`` (see the module's text)."""
    numbers = [
        c
        for c in X.columns
        if pd.api.types.is_numeric_dtype(X[c]) and not pd.api.types.is_bool_dtype(X[c])
    ]
    if cut == "as read":
        return [c for c in numbers if pd.api.types.is_integer_dtype(X[c])]
    whole = [c for c in numbers if np.all(np.mod(X[c].dropna(), 1) == 0)]
    return [c for c in whole if X[c].nunique() <= cut]


class _Prior:
    """Hand the classifier's ``fit_parameters`` BDeu's prior instead of ``alpha`` per cell."""

    def __init__(self, iss):
        self.iss, self.original = iss, classification.fit_parameters

    def __enter__(self):
        original, iss = self.original, self.iss
        classification.fit_parameters = lambda data, dag, alpha, per_cell: original(
            data, dag, iss, per_cell=False
        )

    def __exit__(self, *exc):
        classification.fit_parameters = self.original


def _held_out(make, X, y, folds) -> float:
    classes, codes = np.unique(np.asarray(y), return_inverse=True)
    losses = []
    for train, test in folds:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = make().fit(X.iloc[train], codes[train])
            proba = model.predict_proba(X.iloc[test])
        losses.append(log_loss(codes[test], proba, labels=range(len(classes))))
    return float(np.mean(losses))


def _prior_loss(y, folds) -> float:
    classes, codes = np.unique(np.asarray(y), return_inverse=True)
    out = []
    for train, test in folds:
        freq = np.bincount(codes[train], minlength=len(classes)) / len(train)
        out.append(log_loss(codes[test], np.tile(freq, (len(test), 1)), labels=range(len(classes))))
    return float(np.mean(out))


def _measure(rows, study, table, X, y, setting, kwargs, smoothing=None):
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, np.asarray(y)))
    prior = _prior_loss(y, folds)
    for structure in STRUCTURES:
        seeds = SEEDS if structure == "auto" else [None]
        start = time.perf_counter()
        per_seed = []
        for seed in seeds:

            def make(seed=seed, structure=structure):
                return BayesianNetworkClassifier(structure, random_state=seed, **kwargs)

            if smoothing is None:
                per_seed.append(_held_out(make, X, y, folds))
            else:
                with _Prior(smoothing):
                    per_seed.append(_held_out(make, X, y, folds))
        rows.append(
            dict(
                study=study,
                data=table,
                setting=setting,
                structure=structure,
                seeds=len(per_seed),
                log_loss=float(np.mean(per_seed)),
                log_loss_sd=float(np.std(per_seed, ddof=1)) if len(per_seed) > 1 else 0.0,
                prior=prior,
                seconds=time.perf_counter() - start,
            )
        )
        print(*rows[-1].values(), flush=True)


def run() -> pd.DataFrame:
    rows = []
    real = {name: loader() for name, loader in TABLES.items()}
    for name, (X, y) in real.items():
        for cut in CUTS:
            kwargs = dict(categorical_features=categories_by_rule(X, cut), alpha=1.0)
            _measure(rows, "integer columns", name, X, y, f"K = {cut}", kwargs)
    tables = [(name, X, y) for name, (X, y) in real.items()] + list(_benchmark_tables())
    for name, X, y in tables:
        for kind, value in SMOOTHING:
            if kind == "alpha":
                _measure(rows, "smoothing", name, X, y, f"alpha={value:g}", dict(alpha=value))
            else:
                _measure(rows, "smoothing", name, X, y, f"BDeu iss={value:g}", {}, value)
    for name, X, y in tables[: len(real)] + list(_benchmark_tables(digits=True)):
        _scores(rows, name, X, y)
    return pd.DataFrame(rows)


def _scores(rows, table, X, y):
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, np.asarray(y)))
    prior = _prior_loss(y, folds)
    for label, kwargs in SCORES.items():
        start = time.perf_counter()
        per_seed = [
            _held_out(
                lambda seed=seed, kw=kwargs: BayesianNetworkClassifier(
                    BOSS(random_state=seed, **kw)
                ),
                X,
                y,
                folds,
            )
            for seed in SEEDS
        ]
        rows.append(
            dict(
                study="structure score",
                data=table,
                setting=label,
                structure="BOSS",
                seeds=len(per_seed),
                log_loss=float(np.mean(per_seed)),
                log_loss_sd=float(np.std(per_seed, ddof=1)),
                prior=prior,
                seconds=time.perf_counter() - start,
            )
        )
        print(*rows[-1].values(), flush=True)
    for label, kwargs in SCORES.items():
        if "penalty_discount" in kwargs:
            continue
        start = time.perf_counter()
        loss = _held_out(lambda kw=kwargs: BayesianNetworkClassifier(HillClimb(**kw)), X, y, folds)
        rows.append(
            dict(
                study="structure score",
                data=table,
                setting=label,
                structure="HillClimb",
                seeds=1,
                log_loss=loss,
                log_loss_sd=0.0,
                prior=prior,
                seconds=time.perf_counter() - start,
            )
        )
        print(*rows[-1].values(), flush=True)


def _pivot(part: pd.DataFrame, order) -> list[str]:
    part = part.assign(
        cell=[
            f"{v:.3f}" + (f" ({s:.3f})" if n > 1 else "")
            for v, s, n in zip(part.log_loss, part.log_loss_sd, part.seeds)
        ]
    )
    lines = []
    for table, block in part.groupby("data", sort=False):
        prior = block.prior.iloc[0]
        wide = block.pivot(index="structure", columns="setting", values="cell")
        wide = wide.loc[[s for s in STRUCTURES if s in wide.index], order]
        lines += [f"**{table}** (class prior's log loss {prior:.3f})", ""]
        lines.append("| structure | " + " | ".join(order) + " |")
        lines.append("|---|" + "---|" * len(order))
        for structure, cells in wide.iterrows():
            lines.append(f"| `{structure}` | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def _wins(part: pd.DataFrame, order) -> list[str]:
    """Each setting's regret against the best setting of each row, and rows above the prior.

    Regret: a row's (data set, structure) log loss over the lowest of any setting on that
    row, minus one.
    """
    part = part.copy()
    best = part.groupby(["data", "structure"]).log_loss.transform("min")
    part["regret"] = part.log_loss / best - 1
    lines = [
        "| setting | mean regret | largest regret | rows within 1% of the best |"
        " above the class prior's |",
        "|---|---|---|---|---|",
    ]
    for setting in order:
        mine = part[part.setting == setting]
        above = mine[mine.log_loss > mine.prior]
        where = ", ".join(f"{d} `{s}`" for d, s in zip(above.data, above.structure)) or "none"
        lines.append(
            f"| {setting} | {mine.regret.mean():.1%} | {mine.regret.max():.1%} | "
            f"{int((mine.regret <= 0.01).sum())} of {len(mine)} | {len(above)}: {where} |"
        )
    return lines + [""]


def write_page(table: pd.DataFrame, out) -> None:
    cuts = [f"K = {c}" for c in CUTS]
    smooth = [f"alpha={v:g}" if k == "alpha" else f"BDeu iss={v:g}" for k, v in SMOOTHING]
    ints, sm = table[table.study == "integer columns"], table[table.study == "smoothing"]
    lines = [
        "# The classifier's defaults: integer columns and smoothing",
        "",
        "Held-out log loss (mean over the 5 folds of `StratifiedKFold(5, shuffle=True, "
        'random_state=0)`); `"auto"` is BOSS, randomised: the mean over `random_state` 0-4'
        " with the standard deviation across seeds in brackets. Every row is"
        " `BayesianNetworkClassifier(structure, random_state=seed, **setting)`.",
        "",
        "## Integer columns: which whole-number columns are categories",
        "",
        "`K = k`: a column of whole numbers with at most k distinct values is a category (one"
        " state per value), one with more a measurement (5 quantile bins), passed as"
        " `categorical_features=[...]`; `K = as read`: integer columns categories, float"
        f" columns measurements. `alpha=1`. The default is K = {MAX_CATEGORY_VALUES}, the"
        " lowest mean regret.",
        "",
    ]
    lines += _wins(ints, cuts) + _pivot(ints, cuts)
    lines += [
        "## Smoothing: pseudo-counts of the tables",
        "",
        "`alpha=a`: a pseudo-counts in every cell of each table (the default is 1);"
        " `BDeu iss=s`: s pseudo-counts spread over each table's cells (BDeu's prior, what the"
        f" classifier used before), integer columns by the default rule (K ="
        f" {MAX_CATEGORY_VALUES}). The default, `alpha=1`, has the lowest mean regret and the"
        " smallest largest one; `alpha=2` is best on more rows (the small real tables) but"
        " up to a quarter worse on others (wine, iris).",
        "",
    ]
    lines += _wins(sm, smooth) + _pivot(sm, smooth)
    sc = table[table.study == "structure score"]
    if len(sc):
        labels = list(SCORES)
        lines += [
            '## The `"auto"` and `"hill_climb"` structures\' score',
            "",
            "`BayesianNetworkClassifier(BOSS(random_state=seed, **setting))`, seeds 0-4 (BOSS"
            ' without its polish, as `"auto"` runs it), and'
            " `BayesianNetworkClassifier(HillClimb(**setting))` (deterministic), by score."
            f" The default of both is `criterion={AUTO_CRITERION!r}`.",
            "",
        ]
        lines += _wins(sc, labels)
        for learner, part in sc.groupby("structure", sort=False):
            mine = [c for c in labels if c in set(part.setting)]
            lines += [f"**{learner}**", ""]
            lines += ["| data | class prior | " + " | ".join(f"`{c}`" for c in mine) + " |"]
            lines += ["|---|---|" + "---|" * len(mine)]
            for name, block in part.groupby("data", sort=False):
                by = block.set_index("setting")
                cells = [f"{by.log_loss[c]:.4f} ({by.log_loss_sd[c]:.4f})" for c in mine]
                lines.append(f"| {name} | {block.prior.iloc[0]:.4f} | " + " | ".join(cells) + " |")
            lines.append("")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="rewrite the page from the CSV")
    args = parser.parse_args()
    out = result_path(STUDY)
    csv = out.with_suffix(".csv")
    if args.report:
        table = pd.read_csv(csv)
    else:
        table = run()
        out.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(csv, index=False)
    write_page(table, out)
    write_manifest(out)
    print(out.read_text())


if __name__ == "__main__":
    main()
