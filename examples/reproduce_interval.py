# SPDX-License-Identifier: BSD-3-Clause
"""Reproduce Intersection-Validation's check (Viinikka et al., sections 4.1-4.3, Figures 4-5).

Learners: the paper's six scores -- BDeu (ESS 0.01, 0.1, 1, 10), BIC and fNML -- with
in-degree at most 4. On sachs (11 variables) each is the globally optimal DAG (``ExactSearch``),
as in the paper. Insurance (27 variables) and alarm (37) are beyond exact search on this
machine (insurance alone would hold 15.7 GB and take minutes per fit, times hundreds of fits),
so there the learners are tabu searches (``TabuSearch``, 10 restarts) with the same scores.

For each network (sachs, insurance, alarm) and intersection point N (data of N rows sampled
from the network), every learner is fitted on all N rows to build the agreement graph, then
on 10 subsamples of each size 100 * 2^k < N; the mean PHD to the agreement graph (no truth
needed) and the mean SHD to the true CPDAG are computed per learner and size, and their
Pearson correlation says how well InterVal ranks learners without ground truth.

Usage::

    python examples/reproduce_interval.py          # writes docs/interval.md + figure
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from skbn.datasets import load_network  # noqa: E402
from skbn.learners import ExactSearch, TabuSearch  # noqa: E402
from skbn.model_selection import intersection_validate  # noqa: E402
from skbn.scores import BIC, FNML, BDeu  # noqa: E402

NETWORKS = ["sachs", "insurance", "alarm"]


#: Networks small enough for exact search here.
EXACT = {"sachs"}


def learners(network: str, restarts: int):
    def make(score):
        if network in EXACT:
            return ExactSearch(score, max_indegree=4)
        return TabuSearch(score, max_indegree=4, n_restarts=restarts, random_state=0)

    out = {f"BDeu({iss:g})": make(BDeu(iss=iss)) for iss in (0.01, 0.1, 1, 10)}
    out["BIC"] = make(BIC())
    out["fNML"] = make(FNML())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--points",
        type=int,
        nargs="+",
        default=[1600, 6400],
        help="intersection points (rows of the full data)",
    )
    parser.add_argument("--networks", nargs="+", default=NETWORKS)
    parser.add_argument("--subsamples", type=int, default=10)
    parser.add_argument("--restarts", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--out", default="docs/interval.md")
    args = parser.parse_args()
    out = Path(args.out)
    start = time.perf_counter()
    rows, curves = [], {}
    for network in args.networks:
        bn = load_network(network)
        for point in args.points:
            X = bn.sample(point, random_state=0)
            sizes = [100 * 2**k for k in range(10) if 100 * 2**k < point]
            with warnings.catch_warnings(record=True):
                warnings.simplefilter("always")
                res = intersection_validate(
                    learners(network, args.restarts),
                    X,
                    sample_sizes=sizes,
                    n_subsamples=args.subsamples,
                    random_state=0,
                    n_jobs=args.jobs,
                    true_graph=bn.graph,
                )
            means = res.results.groupby(["estimator", "sample_size"])[["phd", "shd"]].mean()
            corr = float(np.corrcoef(means["phd"], means["shd"])[0, 1])
            best_phd = means["phd"].groupby("sample_size").idxmin().map(lambda t: t[0])
            best_shd = means["shd"].groupby("sample_size").idxmin().map(lambda t: t[0])
            rows.append(
                dict(
                    network=network,
                    point=point,
                    relative_size=res.agreement.relative_size,
                    connected=res.agreement.n_connected_pairs,
                    reliable=res.reliable,
                    correlation=corr,
                    same_winner=f"{int((best_phd == best_shd).sum())}/{len(sizes)}",
                )
            )
            curves[(network, point)] = means
            print(
                f"{network:<10} N={point:<6} agreement {res.agreement.relative_size:.0%} "
                f"({res.agreement.n_connected_pairs} connected)  corr(PHD, SHD) {corr:.3f}",
                flush=True,
            )
    table = pd.DataFrame(rows)
    fig, axes = plt.subplots(
        len(args.points),
        len(args.networks),
        figsize=(4.2 * len(args.networks), 3.4 * len(args.points)),
        squeeze=False,
    )
    for i, point in enumerate(args.points):
        for j, network in enumerate(args.networks):
            ax = axes[i][j]
            means = curves[(network, point)]
            for name, part in means.groupby(level="estimator", sort=False):
                sizes = part.index.get_level_values("sample_size")
                line = ax.plot(sizes, part["phd"], marker="o", label=name)[0]
                ax.plot(sizes, part["shd"], linestyle=":", color=line.get_color())
            ax.set_xscale("log", base=2)
            ax.set_title(f"{network}, N={point}", fontsize=9)
            ax.set_xlabel("sample size")
            ax.set_ylabel("PHD (solid) / SHD (dotted)")
    axes[0][0].legend(fontsize=7, frameon=False)
    fig.tight_layout()
    figure = out.with_name("interval_curves.png")
    fig.savefig(figure, dpi=100)
    elapsed = time.perf_counter() - start
    lines = [
        "# Intersection-Validation",
        "",
        f"Regenerate with `python examples/reproduce_interval.py` ({elapsed / 60:.0f} min here; "
        f"{args.subsamples} subsamples per size; in-degree <= 4; exact search on sachs as in "
        f"the paper, TabuSearch with {args.restarts} restarts on insurance and alarm, which "
        "are too large for exact search here).",
        "",
        "Learners: the paper's six scores, BDeu (ESS 0.01, 0.1, 1, 10), BIC and fNML. "
        "For each network and intersection point N, 'corr' is the Pearson correlation "
        "between the mean PHD to the agreement graph (no truth needed) and the mean SHD to "
        "the true CPDAG over all learner x sample-size points; 'same winner' counts the "
        "sample sizes where both pick the same learner. The paper reports a correlation "
        "close to 1 for Alarm at N = 1,600.",
        "",
        "| network | N | agreement (share of pairs) | connected agreed pairs | reliable | corr(PHD, SHD) | same winner |",  # noqa: E501
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for r in table.itertuples():
        lines.append(
            f"| {r.network} | {r.point} | {r.relative_size:.0%} | {r.connected} | "
            f"{r.reliable} | {r.correlation:.3f} | {r.same_winner} |"
        )
    lines += ["", f"![PHD and SHD learning curves]({figure.name})", ""]
    out.write_text("\n".join(lines), encoding="utf-8")
    print(out.read_text())


if __name__ == "__main__":
    main()
