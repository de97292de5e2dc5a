# SPDX-License-Identifier: BSD-3-Clause
"""Workloads for the cross-process kernel cache test (``tests/test_kernel_cache.py``).

``python tests/kernel_cache_workloads.py OUT NAME [NAME ...]`` runs the named workloads in
that order in one process -- so the order in which numba compiles (or loads) the kernels is
the order given -- and writes a JSON object to OUT: each workload's result, its slow
reference where one exists, and how many kernel signatures were compiled in this process
and how many were loaded from numba's on-disk cache.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pandas as pd


def _g2_reference(X, x, y, cond):
    """G^2 and adjusted df by pandas counting (the definition, stratum by stratum)."""
    g2 = 0.0
    df = 0
    for _, part in X.groupby(cond, observed=True) if cond else [(None, X)]:
        table = pd.crosstab(part[x], part[y]).to_numpy(dtype=float)
        table = table[table.sum(1) > 0][:, table.sum(0) > 0]
        expected = table.sum(1, keepdims=True) * table.sum(0, keepdims=True) / table.sum()
        nz = table > 0
        g2 += 2.0 * (table[nz] * np.log(table[nz] / expected[nz])).sum()
        df += max(table.shape[0] - 1, 0) * max(table.shape[1] - 1, 0)
    return [g2, float(df)]


def _loglik_reference(X, child, parents):
    """Maximised log-likelihood of a discrete family by pandas counting."""
    counts = X.groupby(parents + [child], observed=True).size().to_numpy(dtype=float)
    margins = X.groupby(parents, observed=True).size().to_numpy(dtype=float)
    return float((counts * np.log(counts)).sum() - (margins * np.log(margins)).sum())


def g2_sorted():
    """GSquare on 30-state columns: 27,000 strata x 900 cells, counted by sorting."""
    from skbn.ci_tests import GSquare

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 30, (400, 5)), columns=list("abcde")).astype("category")
    res = GSquare().bind(X).test("a", "b", ["c", "d", "e"])
    return [res.statistic, res.dof], _g2_reference(X, "a", "b", ["c", "d", "e"])


def g2_dense():
    """GSquare on binary columns: a dense table."""
    from skbn.ci_tests import GSquare

    rng = np.random.default_rng(1)
    Z = rng.integers(0, 2, (500, 3))
    X = pd.DataFrame({"a": Z[:, 0], "b": (Z[:, 0] ^ (rng.random(500) < 0.2)), "c": Z[:, 2]})
    X = X.astype(int).astype("category")
    res = GSquare().bind(X).test("a", "b", ["c"])
    return [res.statistic, res.dof], _g2_reference(X, "a", "b", ["c"])


def g2_renumbered():
    """Eleven 50-state conditioning variables: strata renumbered before they overflow int64."""
    from skbn.ci_tests import GSquare

    rng = np.random.default_rng(0)
    n = 1500
    cond = [f"z{j}" for j in range(11)]
    Z = rng.integers(0, 50, size=(40, 11))[rng.integers(0, 40, size=n)]
    x = (Z[:, 0] + rng.integers(0, 3, size=n)) % 50
    y = (x + rng.integers(0, 3, size=n)) % 50
    X = pd.DataFrame(Z, columns=cond).assign(x=x, y=y).astype(pd.CategoricalDtype(range(50)))
    res = GSquare().bind(X).test("x", "y", cond)
    return [res.statistic, res.dof], _g2_reference(X, "x", "y", cond)


def family_sorted():
    """Log-likelihood of a family whose configurations are counted by sorting."""
    from skbn.scores import LogLikelihood

    rng = np.random.default_rng(2)
    # 12**3 configurations x 12 states: more cells than the dense table takes for 3,000 rows
    X = pd.DataFrame(rng.integers(0, 12, (3000, 4)), columns=list("abcd")).astype("category")
    score = LogLikelihood().bind(X).local_score("a", ["b", "c", "d"])
    return [score], [_loglik_reference(X, "a", ["b", "c", "d"])]


def sorting():
    """The sorting kernels against numpy on keys of several ranges."""
    from skbn._kernels.sorting import argsort_int64, argsort_stable, sort_int64

    rng = np.random.default_rng(3)
    got, ref = [], []
    for hi in (3, 5_000, 2**40, 2**62):
        a = rng.integers(0, hi, 3000, dtype=np.int64)
        b = a.copy()
        sort_int64(b)
        got += [b.tolist(), argsort_int64(a).tolist()]
        ref += [np.sort(a).tolist(), np.argsort(a, kind="stable").tolist()]
    f = rng.normal(size=500).round(1)
    got.append(argsort_stable(f).tolist())
    ref.append(np.argsort(f, kind="stable").tolist())
    return got, ref


def _edges(graph):
    return sorted([list(e) for e in graph.edges()])


def hill_climb():
    """HillClimb with BIC on ASIA: dense family counts, move gains."""
    from skbn.datasets import load_network
    from skbn.learners import HillClimb

    X = load_network("asia").sample(2000, random_state=0)
    return _edges(HillClimb().fit(X).graph_), None


def pc_discrete():
    """PCStable with G^2 on ALARM: every discrete CI kernel, many conditioning sets."""
    from skbn.datasets import load_network
    from skbn.learners import PCStable

    X = load_network("alarm").sample(1500, random_state=0)
    return _edges(PCStable(ci_test="g2").fit(X).graph_), None


def boss_gaussian():
    """BOSS on Gaussian data: grow-shrink trees and order sweeps."""
    from skbn.datasets import make_problem
    from skbn.learners import BOSS

    X, _ = make_problem("asia", n_nodes=40, n_samples=500, random_state=0)
    est = BOSS(random_state=0).fit(X)
    return [_edges(est.graph_), int(est.n_tree_nodes_)], None


def boss_discrete():
    """BOSS with BIC on ALARM: the discrete toggle scores."""
    from skbn.datasets import load_network
    from skbn.learners import BOSS

    X = load_network("asia").sample(1000, random_state=1)
    return _edges(BOSS(random_state=0).fit(X).graph_), None


def grasp_gaussian():
    """GRaSP on Gaussian data: tucks re-scored by the stretch look-up kernel."""
    from skbn.datasets import make_problem
    from skbn.learners import GRaSP

    X, _ = make_problem("asia", n_nodes=40, n_samples=500, random_state=0)
    est = GRaSP(random_state=0).fit(X)
    return [_edges(est.graph_), int(est.n_tucks_)], None


WORKLOADS = {
    f.__name__: f
    for f in (
        g2_sorted,
        g2_dense,
        g2_renumbered,
        family_sorted,
        sorting,
        hill_climb,
        pc_discrete,
        boss_gaussian,
        boss_discrete,
        grasp_gaussian,
    )
}


def _cache_counts():
    """Kernel signatures compiled in this process, and loaded from the on-disk cache."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import skbn._kernels as kernels

    compiled = loaded = 0
    for info in pkgutil.iter_modules(kernels.__path__):
        module = sys.modules.get(f"skbn._kernels.{info.name}")
        if module is None:
            module = importlib.import_module(f"skbn._kernels.{info.name}")
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__:
                loaded += sum(obj.stats.cache_hits.values())
                compiled += sum(obj.stats.cache_misses.values())
    return compiled, loaded


def main(out, names):
    results = {}
    for name in names:
        got, ref = WORKLOADS[name]()
        results[name] = {"result": got, "reference": ref}
    compiled, loaded = _cache_counts()
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"results": results, "compiled": compiled, "loaded": loaded}, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
