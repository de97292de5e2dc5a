# SPDX-License-Identifier: BSD-3-Clause
"""Benchmark of skbn's PC-Stable and MMHC against causal-learn, pyAgrum and pgmpy.

Same protocol as ``score_based.py``: one process, the same data for every library, medians
of ``--repeats`` runs (one run for peers slower than ``--slow-seconds``), ratios to skbn's
time, SHD and F1 against the truth, plus the skeleton F1 of every result against skbn's
(a same-method, same-test comparison).

Usage (needs the ``bench`` extra)::

    pip install -e ".[bench]"
    python -m examples.benchmarks.constraint_based \
        --out examples/benchmarks/results/constraint_based/constraint_based.md

``--quick`` skips the peers that take minutes (pgmpy's PC, causal-learn on 100 Gaussian
variables).
"""

from __future__ import annotations

import argparse
import os
import platform
import warnings

import networkx as nx
import numpy as np
import pandas as pd

from examples.benchmarks._common import available, timed
from skbn.ci_tests import ChiSquare, FisherZ
from skbn.datasets import load_network, make_erdos_renyi_dag, make_problem
from skbn.graph import from_adjacency
from skbn.learners import MMHC, PCStable
from skbn.metrics import adjacency_precision_recall_f1, structure_report

ROWS: list[dict] = []


def record(workload, library, seconds, runs, graph, truth, reference):
    report = structure_report(truth, graph)
    same = adjacency_precision_recall_f1(reference, graph).f1 if reference is not None else 1.0
    ROWS.append(
        dict(
            workload=workload,
            library=library,
            seconds=seconds,
            runs=runs,
            shd=report["shd"],
            f1_adjacency=report["f1_adjacency"],
            f1_arrowhead=report["f1_arrowhead"],
            skeleton_vs_skbn=same,
        )
    )
    print(
        f"  {library:<32} {seconds:9.3f} s  shd {report['shd']:4d}  "
        f"f1-adj {report['f1_adjacency']:.3f}  f1-arrow {report['f1_arrowhead']:.3f}  "
        f"skeleton F1 vs skbn {same:.3f}",
        flush=True,
    )


def _codes(X):
    return np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])


def causallearn_pc(values, names, alpha, test):
    from causallearn.search.ConstraintBased.PC import pc

    cg = pc(values, alpha, indep_test=test, stable=True, show_progress=False)
    G = np.asarray(cg.G.graph)
    p = len(names)
    A = np.zeros((p, p), dtype=np.int8)
    for i in range(p):
        for j in range(p):
            if G[j, i] == 1 and G[i, j] == -1:
                A[i, j] = 1
            elif G[i, j] == -1 and G[j, i] == -1:
                A[i, j] = A[j, i] = 1
    return from_adjacency(A, names, kind="pdag")


def pyagrum_pc(X, alpha):
    import pyagrum as gum

    learner = gum.BNLearner(X.astype(str))
    learner.usePC()
    learner.setPCStable(True)
    learner.useChi2Test()
    learner.setPCAlpha(alpha)
    pdag = learner.learnPDAG()
    g = nx.DiGraph(kind="pdag")
    g.add_nodes_from(X.columns)
    name = learner.nameFromId
    g.add_edges_from((name(a), name(b)) for a, b in pdag.arcs())
    for a, b in pdag.edges():
        g.add_edge(name(a), name(b))
        g.add_edge(name(b), name(a))
    return g


def pgmpy_pc(X, alpha):
    from pgmpy.estimators import PC

    est = PC(X.astype(str))
    skel, _ = est.estimate(
        variant="stable",
        ci_test="chi_square",
        significance_level=alpha,
        max_cond_vars=len(X.columns),
        return_type="skeleton",
        show_progress=False,
        n_jobs=1,
    )
    g = nx.DiGraph(kind="pdag")
    g.add_nodes_from(X.columns)
    for u, v in skel.edges():
        g.add_edge(u, v)
        g.add_edge(v, u)
    return g


def discrete_alarm(args):
    bn = load_network("alarm")
    X = bn.sample(10_000, random_state=0)
    workload = "alarm n=10k, PC-Stable X2 alpha=0.05"
    print(workload, flush=True)
    PCStable(ChiSquare()).fit(X.iloc[:300])
    t, est, runs = timed(lambda: PCStable(ChiSquare()).fit(X), args.repeats, args.slow_seconds)
    ours = est.graph_
    record(workload, "skbn PCStable", t, runs, ours, bn.graph, None)
    if available("pyagrum"):
        t, g, runs = timed(lambda: pyagrum_pc(X, 0.05), args.repeats, args.slow_seconds)
        record(workload, "pyAgrum PC (stable, chi2)", t, runs, g, bn.graph, ours)
    if available("causallearn"):
        t, g, runs = timed(
            lambda: causallearn_pc(_codes(X), list(X.columns), 0.05, "chisq"),
            args.repeats,
            args.slow_seconds,
        )
        record(workload, "causal-learn pc(stable, chisq)", t, runs, g, bn.graph, ours)
    if not args.quick and available("pgmpy"):
        t, g, runs = timed(lambda: pgmpy_pc(X, 0.05), 1, 0)
        record(workload, "pgmpy PC (stable, chi_square)", t, runs, g, bn.graph, ours)

    workload = "alarm n=10k, MMHC"
    print(workload, flush=True)
    MMHC().fit(X.iloc[:300])
    t, est, runs = timed(lambda: MMHC().fit(X), args.repeats, args.slow_seconds)
    record(workload, "skbn MMHC (G2 + BIC)", t, runs, est.graph_, bn.graph, None)


def gaussian(p, m, args, peers):
    X, truth = make_problem(
        make_erdos_renyi_dag(p, m, random_state=0), n_samples=1000, random_state=0
    )
    workload = f"Gaussian ER-{p} ({m} arcs), n=1k, PC-Stable Fisher-z alpha=0.05"
    print(workload, flush=True)
    PCStable(FisherZ()).fit(X.iloc[:, :20])
    t, est, runs = timed(lambda: PCStable(FisherZ()).fit(X), args.repeats, args.slow_seconds)
    ours = est.graph_
    record(workload, "skbn PCStable", t, runs, ours, truth, None)
    if peers and not args.quick and available("causallearn"):
        t, g, runs = timed(
            lambda: causallearn_pc(X.to_numpy(), list(X.columns), 0.05, "fisherz"), 1, 0
        )
        record(workload, "causal-learn pc(stable, fisherz)", t, runs, g, truth, ours)


def markdown(args):
    frame = pd.DataFrame(ROWS)
    lines = [
        "# Benchmarks: constraint-based and hybrid learners",
        "",
        "Regenerate with:",
        "",
        "```bash",
        'pip install -e ".[bench]"',
        "python -m examples.benchmarks.constraint_based \\",
        "    --out examples/benchmarks/results/constraint_based/constraint_based.md",
        "```",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}. One process, the same data for every library; medians "
        f"of {args.repeats} runs (one run for anything slower than {args.slow_seconds:g} s); "
        "'x skbn' is the peer's time over skbn's. SHD compares CPDAGs/PDAGs with the true "
        "CPDAG; 'skeleton F1 vs skbn' compares each peer's adjacencies with skbn's result on "
        "the same workload (1.000 = the same skeleton). skbn's times exclude numba "
        "compilation.",
        "",
        "| workload | library | time (s) | x skbn | SHD | F1-adj | F1-arrow "
        "| skeleton F1 vs skbn |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for workload, group in frame.groupby("workload", sort=False):
        ours = group.iloc[0]["seconds"]
        for _, row in group.iterrows():
            ratio = "1" if row["library"].startswith("skbn") else f"{row['seconds'] / ours:.1f}"
            lines.append(
                f"| {workload} | {row['library']} | {row['seconds']:.3f} | {ratio} | "
                f"{row['shd']} | {row['f1_adjacency']:.3f} | {row['f1_arrowhead']:.3f} | "
                f"{row['skeleton_vs_skbn']:.3f} |"
            )
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--slow-seconds", type=float, default=30.0)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    discrete_alarm(args)
    gaussian(100, 200, args, peers=True)
    gaussian(1000, 2000, args, peers=False)
    text = markdown(args)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
