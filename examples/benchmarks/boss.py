# SPDX-License-Identifier: BSD-3-Clause
"""BOSS against causal-learn's BOSS, and against skbn's FGES, on the same data.

Gaussian workloads: Erdos-Renyi ("er") and scale-free ("sf") DAGs with ``p`` variables and
average degree ``d``, a linear-Gaussian SEM on each (``make_linear_gaussian``), ``n`` rows,
standardised. Discrete workloads: bundled networks sampled with their own CPTs.

Like for like: causal-learn's ``boss`` with ``local_score_BIC_from_cov`` and
``lambda_value=0.5`` is Gaussian BIC with ``log(n)/2`` per parameter, the score of
``BOSS("bic")``; both run one start. Every learned graph is scored with skbn's Gaussian BIC
(through a DAG extension), so "score" compares what each search found under one criterion.
skbn's rows also show its defaults (``BOSS()``: Gaussian EBIC, gamma 1) and ``FGES("bic")``.
Times are of the fit alone, after a warm-up fit (numba's compiled kernels are cached on disk,
so a fresh process loads them once, about 0.3 s, outside the timing). Ratios are
causal-learn's time over skbn's, measured in the same run.

Usage::

    python -m examples.benchmarks.boss --out examples/benchmarks/results/boss/boss.csv
    python -m examples.benchmarks.boss --gaussian-only --p 1000 --degrees 4 --methods \
        skbn-boss-bic skbn-boss skbn-fges-bic --out examples/benchmarks/results/boss/boss.csv
    python -m examples.benchmarks.boss --report examples/benchmarks/results/boss/boss.csv
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd

from examples.benchmarks._results import write_manifest
from skbn.datasets import (
    load_network,
    make_erdos_renyi_dag,
    make_linear_gaussian,
    make_scale_free_dag,
)
from skbn.learners import BOSS, FGES, GRaSP
from skbn.metrics import f1_adjacency, f1_arrowhead, shd
from skbn.scores import BDeu, GaussianBIC

GAUSSIAN_METHODS = [
    "skbn-boss-bic",
    "skbn-boss",
    "skbn-fges-bic",
    "causallearn-boss",
    "skbn-grasp-bic",
    "causallearn-grasp",
]
#: (causal-learn's method, skbn's like-for-like method) compared seed by seed
PAIRS = [("causallearn-boss", "skbn-boss-bic"), ("causallearn-grasp", "skbn-grasp-bic")]
DISCRETE_METHODS = ["skbn-boss-bdeu", "skbn-fges-bdeu"]


def _causallearn_graph(X: pd.DataFrame, seed: int, method: str = "boss") -> nx.DiGraph:
    from causallearn.search.PermutationBased.BOSS import boss
    from causallearn.search.PermutationBased.GRaSP import grasp

    random.seed(seed)  # causal-learn shuffles with Python's random module
    search = boss if method == "boss" else grasp  # grasp: depth 3, its default
    M = search(X.to_numpy(), parameters={"lambda_value": 0.5}, verbose=False).graph
    names = list(X.columns)
    g = nx.DiGraph()
    g.add_nodes_from(names)
    # causal-learn: M[j, i] == 1 and M[i, j] == -1 is i -> j; both -1 is i - j
    for i, j in zip(*np.nonzero(M == -1)):
        if M[j, i] in (1, -1):
            g.add_edge(names[i], names[j])
    return g


def _fit(method: str, X, seed: int):
    if method.startswith("causallearn-"):
        return _causallearn_graph(X, seed, method.removeprefix("causallearn-"))
    est = {
        "skbn-grasp-bic": lambda: GRaSP("bic", random_state=seed),
        "skbn-boss-bic": lambda: BOSS("bic", random_state=seed),
        "skbn-boss": lambda: BOSS(random_state=seed),
        "skbn-fges-bic": lambda: FGES("bic"),
        "skbn-boss-bdeu": lambda: BOSS(BDeu(), random_state=seed),
        "skbn-fges-bdeu": lambda: FGES(BDeu()),
    }[method]()
    return est.fit(X).graph_


def _gaussian(kind: str, p: int, degree: float, n: int, seed: int):
    make = make_erdos_renyi_dag if kind == "er" else make_scale_free_dag
    dag = make(p, int(round(p * degree / 2)), random_state=seed)
    X = make_linear_gaussian(dag, random_state=seed).sample(n, random_state=seed)
    return (X - X.mean()) / X.std(), dag


def _row(workload, method, seed, X, truth, bound, seconds, graph):
    return {
        "workload": workload,
        "method": method,
        "seed": seed,
        "seconds": seconds,
        "f1_adjacency": f1_adjacency(truth, graph),
        "f1_arrowhead": f1_arrowhead(truth, graph),
        "shd": shd(truth, graph),
        "score": bound.score_graph(graph),
        "truth_score": bound.score_graph(truth),
    }


def run(args) -> None:
    out = Path(args.out)
    warm, _ = _gaussian("er", 12, 2, 200, 0)
    BOSS("bic", random_state=0).fit(warm)
    GRaSP("bic", random_state=0).fit(warm)
    FGES("bic").fit(warm)
    jobs = []
    for kind in [] if args.discrete_only else args.graphs:
        for p in args.p:
            for d in args.degrees:
                for n in args.n:
                    for seed in args.seeds:
                        jobs.append(("gaussian", (kind, p, d, n, seed)))
    if not args.gaussian_only:
        for name in args.networks:
            for n in args.n:
                for seed in args.seeds:
                    jobs.append(("discrete", (name, n, seed)))
    for family, spec in jobs:
        if family == "gaussian":
            kind, p, d, n, seed = spec
            X, truth = _gaussian(kind, p, d, n, seed)
            workload = f"{kind} p={p} d={d:g} n={n}"
            methods = [m for m in args.methods if m in GAUSSIAN_METHODS]
            bound = GaussianBIC().bind(X)
        else:
            name, n, seed = spec
            bn = load_network(name)
            X, truth = bn.sample(n, random_state=seed), bn.graph
            workload = f"{name} n={n}"
            methods = [m for m in args.methods if m in DISCRETE_METHODS]
            bound = BDeu().bind(X)
        if family == "gaussian" and p > args.causallearn_max_p:
            methods = [m for m in methods if not m.startswith("causallearn-")]
        rows = []
        for method in methods:
            t = time.perf_counter()
            graph = _fit(method, X, seed)
            seconds = time.perf_counter() - t
            rows.append(_row(workload, method, seed, X, truth, bound, seconds, graph))
            print(f"{workload} seed {seed} {method}: {seconds:.2f} s", flush=True)
        frame = pd.DataFrame(rows)
        frame.to_csv(out, mode="a", header=not out.exists(), index=False)
        write_manifest(out)


def report(path: str) -> str:
    df = pd.read_csv(path)
    lines = [
        "| workload | method | runs | time (s) | F1-adjacent | F1-arrowhead | SHD | score gap "
        "to truth (BIC; BDeu on discrete) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    df["gap"] = df["score"] - df["truth_score"]
    for (workload, method), g in df.groupby(["workload", "method"], sort=False):
        lines.append(
            f"| {workload} | {method} | {len(g)} | {g.seconds.mean():.3g} "
            f"| {g.f1_adjacency.mean():.3f} ± {g.f1_adjacency.std(ddof=0):.3f} "
            f"| {g.f1_arrowhead.mean():.3f} ± {g.f1_arrowhead.std(ddof=0):.3f} "
            f"| {g.shd.mean():.1f} | {g.gap.mean():+.1f} |"
        )
    ratio = []
    for theirs, ours in PAIRS:
        for workload, g in df.groupby("workload", sort=False):
            by = g.set_index(["method", "seed"])
            pairs = [
                (by.loc[(theirs, s)], by.loc[(ours, s)])
                for s in g.seed.unique()
                if (ours, s) in by.index and (theirs, s) in by.index
            ]
            if not pairs:
                continue
            times = np.array([c.seconds / k.seconds for c, k in pairs])
            gaps = np.array([k.score - c.score for c, k in pairs])
            ratio.append((f"{ours} vs {theirs}", workload, len(pairs), times, gaps))
    if ratio:
        lines += [
            "",
            "| pair | workload | seeds | causal-learn time / skbn time: median (min-max) "
            "| skbn BIC - causal-learn BIC: higher / equal / lower (mean) |",
            "|---|---|---|---|---|",
        ]
        for pair, w, k, times, gaps in ratio:
            higher, lower = int((gaps > 1e-6).sum()), int((gaps < -1e-6).sum())
            lines.append(
                f"| {pair} | {w} | {k} | {np.median(times):.0f}x "
                f"({times.min():.0f}-{times.max():.0f}) "
                f"| {higher} / {k - higher - lower} / {lower} ({gaps.mean():+.1f}) |"
            )
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", nargs="+", default=["er", "sf"])
    parser.add_argument("--p", nargs="+", type=int, default=[50, 100])
    parser.add_argument("--degrees", nargs="+", type=float, default=[2, 4])
    parser.add_argument("--n", nargs="+", type=int, default=[1000])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
    parser.add_argument("--networks", nargs="+", default=["asia", "sachs", "child", "alarm"])
    parser.add_argument("--methods", nargs="+", default=GAUSSIAN_METHODS + DISCRETE_METHODS)
    parser.add_argument("--causallearn-max-p", type=int, default=100)
    parser.add_argument("--gaussian-only", action="store_true")
    parser.add_argument("--discrete-only", action="store_true")
    parser.add_argument("--out", default="boss.csv")
    parser.add_argument("--report")
    args = parser.parse_args(argv)
    if args.report:
        print(report(args.report))
        return
    run(args)


if __name__ == "__main__":
    main()
