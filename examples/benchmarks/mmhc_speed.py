# SPDX-License-Identifier: BSD-3-Clause
"""MMHC against bnlearn's mmhc: time and graph on the same data and test.

Each network is sampled (``random_state=0``, n rows) and written once to CSV, every value a
string, which both libraries read (a column with a single value is dropped: bnlearn refuses
it). Both run MMPC with bnlearn's ``mi`` test (G-squared, unadjusted degrees of freedom) at
``alpha=0.05`` and hill climbing with BIC; skbn as ``MMHC("mi")`` (its default ties, by
name) and as ``MMHC("mi", tie_order="columns")`` (bnlearn's ties), bnlearn as ``mmhc(data)``
(its defaults are the same test, level and score). Times are medians of ``--repeats`` fits
in one process each, on loaded data, with skbn's kernels compiled beforehand; the ratio is
skbn's time over bnlearn's in the same run.

Usage (needs R with bnlearn)::

    python -m examples.benchmarks.mmhc_speed
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import networkx as nx
import pandas as pd

from examples.benchmarks._common import bnlearn_version
from examples.benchmarks._results import command_line, result_path, write_manifest
from skbn.datasets import load_network
from skbn.learners import MMHC
from skbn.metrics import shd

R = r"""
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
data <- read.csv(args[1], colClasses = "character", check.names = FALSE, na.strings = character(0))
data[] <- lapply(data, factor)
g <- mmhc(data)
times <- c()
for (r in seq_len(as.integer(args[2]))) times <- c(times, system.time(g <- mmhc(data))[["elapsed"]])
cat("time", median(times), "\n", sep = "\t")
a <- arcs(g)
for (i in seq_len(nrow(a))) cat("arc", a[i, 1], a[i, 2], "\n", sep = "\t")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=["alarm", "hailfinder", "hepar2"])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=result_path("mmhc_speed"))
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "run.R"
        script.write_text(R)
        for network in args.networks:
            X = load_network(network).sample(args.n, random_state=0).astype(str)
            X = X.loc[:, X.nunique() > 1]
            path = Path(tmp) / f"{network}.csv"
            X.to_csv(path, index=False)
            out = subprocess.run(
                ["Rscript", str(script), str(path), str(args.repeats)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines()
            bnlearn_seconds, arcs = None, []
            for line in out:
                kind, *rest = [f.strip() for f in line.split("\t")]
                if kind == "time":
                    bnlearn_seconds = float(rest[0])
                elif kind == "arc":
                    arcs.append((rest[0], rest[1]))
            theirs = nx.DiGraph(arcs)
            theirs.add_nodes_from(X.columns)
            for ties in ("names", "columns"):
                MMHC("mi", tie_order=ties).fit(X)  # compile
                times = []
                for _ in range(args.repeats):
                    start = time.perf_counter()
                    learner = MMHC("mi", tie_order=ties).fit(X)
                    times.append(time.perf_counter() - start)
                row = dict(
                    network=network,
                    n=args.n,
                    tie_order=ties,
                    skbn_seconds=statistics.median(times),
                    bnlearn_seconds=bnlearn_seconds,
                    skbn_arcs=learner.graph_.number_of_edges(),
                    bnlearn_arcs=len(arcs),
                    shd_between=shd(theirs, learner.graph_),
                    same_arcs=set(learner.graph_.edges) == set(arcs),
                )
                row["ratio"] = row["skbn_seconds"] / row["bnlearn_seconds"]
                rows.append(row)
                print(row, flush=True)
    frame = pd.DataFrame(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out.with_suffix(".csv"), index=False)
    same = frame[frame.tie_order == "columns"]
    lines = [
        "# MMHC against bnlearn",
        "",
        f"With bnlearn's ties (`tie_order=\"columns\"`) skbn's MMHC returned bnlearn's graph"
        f" arc for arc on {int(same.same_arcs.sum())} of {len(same)} networks, in"
        f" {same.ratio.min():.2f}x to {same.ratio.max():.2f}x bnlearn's time; with its"
        " default ties (by name, so that the result does not depend on the columns' order,"
        " on log p-values, where bnlearn's p-values below about 1e-308 tie at 0) the graphs"
        " differ by the SHD shown.",
        "",
        "| network | n | ties | skbn s | bnlearn s | skbn / bnlearn | skbn arcs |"
        " bnlearn arcs | SHD between them | same arcs |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in frame.itertuples():
        lines.append(
            f"| {r.network} | {r.n} | {r.tie_order} | {r.skbn_seconds:.3f} | "
            f"{r.bnlearn_seconds:.3f} | {r.ratio:.2f} | {r.skbn_arcs} | {r.bnlearn_arcs} | "
            f"{r.shd_between} | {'yes' if r.same_arcs else 'no'} |"
        )
    lines += [
        "",
        f"{bnlearn_version()} (R, built from source). "
        + " ".join(__doc__.split("\n\n")[1].split()),
        "",
        f"Command: `{command_line()}`.",
    ]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    write_manifest(args.out)
    print(args.out.read_text())


if __name__ == "__main__":
    main()
