# SPDX-License-Identifier: BSD-3-Clause
"""Reproduce the bootstrap + poset experiment (Caravagna & Ramazzotti, Figure 4 and Table S1).

Random binary networks with 15 nodes, density (arcs per node) 0.4, 0.6, 0.8 and m = 75, 150,
750 samples (the paper's Table S1, noise-free), plus ALARM at m = 100, 1,000, 10,000. For each
network: precision (PPV) and recall (TPR) of the learned arcs against the true DAG, for hill
climbing with BIC (no restart, and 200 restarts) and for BootstrapPosetLearner (k_p = k_b =
100, alpha 0.01) with the confidence and the agony poset, each with BH-FDR and Holm.

Usage::

    python examples/reproduce_bootstrap.py                    # docs/bootstrap.md + figure
    python examples/reproduce_bootstrap.py --networks 5       # fewer random networks
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from skbn.datasets import (  # noqa: E402
    DiscreteBayesianNetwork,
    load_network,
    make_erdos_renyi_dag,
)
from skbn.ensemble import BootstrapPosetLearner  # noqa: E402
from skbn.ensemble._bootstrap import holm  # noqa: E402
from skbn.graph import topological_order  # noqa: E402
from skbn.learners import HillClimb  # noqa: E402
from skbn.scores import BIC  # noqa: E402

ALPHA = 0.01


def random_binary_network(n_nodes, density, seed):
    """Random DAG with round(density * n) arcs and uniform random CPT rows, binary states."""
    rng = np.random.RandomState(seed)
    dag = make_erdos_renyi_dag(n_nodes, int(round(density * n_nodes)), random_state=seed)
    parents = {v: sorted(dag.predecessors(v)) for v in topological_order(dag)}
    states = {v: (0, 1) for v in dag.nodes}
    cpts = {}
    for v in dag.nodes:
        p1 = rng.uniform(size=(2,) * len(parents[v]))
        cpts[v] = np.stack([1 - p1, p1], axis=-1)
    return DiscreteBayesianNetwork(states, parents, cpts, name=f"random{seed}")


def ppv_tpr(truth, graph):
    true_arcs = set(truth.edges())
    learned = {(u, v) for u, v in graph.edges() if not graph.has_edge(v, u)}
    tp = len(true_arcs & learned)
    ppv = tp / len(learned) if learned else 1.0
    tpr = tp / len(true_arcs) if true_arcs else 1.0
    return ppv, tpr


def evaluate(bn, m, seed, jobs):
    X = bn.sample(m, random_state=seed)
    truth = bn.graph
    rows = []
    for name, est in [
        ("HC, no restart", HillClimb(BIC())),
        (
            "HC, 200 restarts",
            HillClimb(BIC(), n_restarts=200, n_perturbations=3, random_state=seed),
        ),
    ]:
        rows.append((name, *ppv_tpr(truth, est.fit(X).graph_)))
    for poset in ("confidence", "agony"):
        est = BootstrapPosetLearner(
            loop_removal=poset, alpha=ALPHA, random_state=seed, n_jobs=jobs
        ).fit(X)
        table = est.edge_pvalues_
        for correction, q in (
            ("FDR", table["q"].to_numpy()),
            ("Holm", holm(table["p"].to_numpy())),
        ):
            keep = table[q < ALPHA]
            graph = truth.__class__()
            graph.add_nodes_from(truth.nodes)
            graph.add_edges_from(zip(keep["u"], keep["v"]))
            rows.append((f"{poset} poset, {correction}", *ppv_tpr(truth, graph)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--networks", type=int, default=10, help="random networks per setting (the paper: 100)"
    )
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--out", default="docs/bootstrap.md")
    args = parser.parse_args()
    out = Path(args.out)
    start = time.perf_counter()
    records = []
    for density in (0.4, 0.6, 0.8):
        for m in (75, 150, 750):
            for k in range(args.networks):
                bn = random_binary_network(15, density, seed=1000 * k + int(10 * density))
                for method, ppv, tpr in evaluate(bn, m, k, args.jobs):
                    records.append(
                        dict(
                            setting=f"n=15, density {density}, m={m}",
                            method=method,
                            ppv=ppv,
                            tpr=tpr,
                        )
                    )
            print(f"density {density} m={m} done ({time.perf_counter() - start:.0f} s)", flush=True)
    alarm = load_network("alarm")
    for m in (100, 1000, 10000):
        for method, ppv, tpr in evaluate(alarm, m, 0, args.jobs):
            records.append(dict(setting=f"alarm, m={m}", method=method, ppv=ppv, tpr=tpr))
        print(f"alarm m={m} done ({time.perf_counter() - start:.0f} s)", flush=True)
    frame = pd.DataFrame(records)
    frame.to_csv(out.with_suffix(".csv"), index=False)
    methods = list(dict.fromkeys(frame["method"]))
    random_part = frame[frame["setting"].str.startswith("n=15")]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, metric in zip(axes, ("ppv", "tpr")):
        ax.boxplot(
            [random_part.loc[random_part["method"] == mth, metric] for mth in methods],
            showmeans=True,
        )
        ax.set_xticks(range(1, len(methods) + 1), methods, rotation=30, ha="right", fontsize=8)
        ax.set_title(f"{metric.upper()}, random binary networks (all settings)")
    fig.tight_layout()
    figure = out.with_name("bootstrap_ppv_tpr.png")
    fig.savefig(figure, dpi=100)
    summary = frame.groupby(["setting", "method"], sort=False)[["ppv", "tpr"]].mean()

    def gap(part):
        """Mean (bootstrap variants) minus mean (HC without restart), PPV and TPR."""
        boot = part[part["method"].str.contains("poset")][["ppv", "tpr"]].mean()
        hc = part[part["method"] == "HC, no restart"][["ppv", "tpr"]].mean()
        return boot - hc

    random_gap = gap(frame[frame["setting"].str.startswith("n=15")])
    alarm_gap = gap(frame[frame["setting"].str.startswith("alarm")])
    overall = random_part.groupby("method", sort=False)[["ppv", "tpr"]].mean()
    lines = [
        "# Bootstrap + poset structure learning",
        "",
        f"Regenerate with `python examples/reproduce_bootstrap.py --networks {args.networks}` "
        f"({(time.perf_counter() - start) / 60:.0f} min here).",
        "",
        f"Random binary networks: 15 nodes, {args.networks} networks per setting (the paper: "
        "100), noise-free; ALARM: one sample per m. PPV and TPR of the learned arcs against the "
        f"true DAG. Bootstrap learners: k_p = k_b = 100, alpha = {ALPHA}. The paper's finding: "
        "similar PPV, higher TPR for the bootstrap method than for hill climbing.",
        "",
        "Here, bootstrap variants minus HC without restart (mean): random networks PPV "
        f"{random_gap['ppv']:+.3f}, TPR {random_gap['tpr']:+.3f}; ALARM PPV "
        f"{alarm_gap['ppv']:+.3f}, TPR {alarm_gap['tpr']:+.3f}. Our random networks draw every "
        "CPT row uniformly (the paper attaches a random probability to each edge), which gives "
        "many weak dependencies at these sample sizes.",
        "",
        "Mean over all random-network settings:",
        "",
        "| method | PPV | TPR |",
        "|---|---:|---:|",
    ]
    lines += [f"| {mth} | {r.ppv:.3f} | {r.tpr:.3f} |" for mth, r in overall.iterrows()]
    lines += [
        "",
        f"![PPV and TPR]({figure.name})",
        "",
        "Per setting:",
        "",
        "| setting | method | PPV | TPR |",
        "|---|---|---:|---:|",
    ]
    lines += [f"| {s} | {mth} | {r.ppv:.3f} | {r.tpr:.3f} |" for (s, mth), r in summary.iterrows()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())


if __name__ == "__main__":
    main()
