# SPDX-License-Identifier: BSD-3-Clause
"""Structure learning on mixed discrete and continuous data: skbn, bnlearn and pgmpy.

The recipe: a bundled discrete network, its last 30% of nodes in a topological order made
continuous (``make_conditional_gaussian``, so no discrete node has a continuous parent), ``n``
rows drawn per seed and written once to CSV; every library reads that file.

* skbn: HillClimb, FGES, PCStable and MMHC with their defaults on mixed data
  (``CGBIC`` and the ``mi_cg`` test), and HillClimb with ``CGEBIC(gamma=0.5)``, the
  alternative default that was measured.
* bnlearn (R, on the PATH; skipped otherwise): ``hc(score = "bic-cg")``,
  ``pc.stable(test = "mi-cg")`` and ``mmhc`` with the same score and test.
* pgmpy: ``HillClimbSearch.estimate(scoring_method="bic-cg")`` -- Andrews et al.'s score,
  which also lets discrete nodes have continuous parents -- on problems with at most
  ``--pgmpy-max-cells`` rows x columns (its fit is slow).

Scores: F1 of the adjacencies and of the arrowheads, and SHD, against the true DAG (its
CPDAG for the learners that return one); times of the fit alone, as ratios to skbn's
HillClimb on the same data in the same run.

Usage (the command behind examples/benchmarks/results/mixed/mixed.md)::

    python -m examples.benchmarks.mixed_data --out examples/benchmarks/results/mixed/mixed.csv \
        --page examples/benchmarks/results/mixed/mixed.md

``--report examples/benchmarks/results/mixed/mixed.csv --page
examples/benchmarks/results/mixed/mixed.md`` rewrites the page from a saved CSV.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

import networkx as nx
import pandas as pd

from examples.benchmarks._common import (
    available,
    bnlearn_version,
    graph_from_arcs,
    structure_scores,
)
from examples.benchmarks._results import write_manifest
from skbn.datasets import load_network, make_conditional_gaussian
from skbn.learners import FGES, MMHC, HillClimb, PCStable
from skbn.scores import CGEBIC

R_SCRIPT = r"""
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
path <- args[1]
types <- strsplit(args[2], ",")[[1]]
classes <- ifelse(types == "d", "character", "numeric")
data <- read.csv(path, colClasses = classes, check.names = FALSE,
                 na.strings = character(0))
for (j in which(types == "d")) data[[j]] <- factor(data[[j]])
run <- function(name, expr) {
  t0 <- proc.time()[["elapsed"]]
  g <- eval(expr)
  el <- proc.time()[["elapsed"]] - t0
  a <- arcs(g)
  out <- sprintf("%s.%s.arcs.csv", path, name)
  write.csv(a, file = out, row.names = FALSE)
  cat(sprintf("%s\t%.4f\n", name, el))
}
run("hc", quote(hc(data, score = "bic-cg")))
run("pc", quote(pc.stable(data, test = "mi-cg")))
run("mmhc", quote(mmhc(data, restrict.args = list(test = "mi-cg"),
                       maximize.args = list(score = "bic-cg"))))
cat(sprintf("version\t%s\n", as.character(packageVersion("bnlearn"))))
"""

SKBN = {
    "skbn HillClimb()": lambda: HillClimb(),
    "skbn HillClimb(CGEBIC(0.5))": lambda: HillClimb(CGEBIC(gamma=0.5)),
    "skbn HillClimb(tie_order='columns')": lambda: HillClimb(tie_order="columns"),
    "skbn FGES()": lambda: FGES(),
    "skbn PCStable()": lambda: PCStable(),
    "skbn MMHC()": lambda: MMHC(),
}
COLUMNS = [
    "network",
    "p",
    "n_continuous",
    "n",
    "seed",
    "method",
    "seconds",
    "ratio",
    "f1_adjacent",
    "f1_arrowhead",
    "shd",
    "edges",
    "same_as_bnlearn_hc",
]
ORACLE = "skbn HillClimb(tie_order='columns')"


def run_bnlearn(path: Path, types: str, names) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".R", delete=False) as f:
        f.write(R_SCRIPT)
    out = subprocess.run(
        ["Rscript", f.name, str(path), types], capture_output=True, text=True, check=True
    )
    results = {}
    for line in out.stdout.splitlines():
        name, value = line.split("\t")
        if name == "version":
            results["version"] = value
            continue
        arcs = pd.read_csv(f"{path}.{name}.arcs.csv")
        pairs = list(zip(arcs["from"].astype(str), arcs["to"].astype(str)))
        results[name] = (
            float(value),
            graph_from_arcs(names, pairs, "dag" if name == "hc" else "pdag"),
        )
    return results


def run_pgmpy(frame: pd.DataFrame, continuous) -> tuple[float, nx.DiGraph]:
    from pgmpy.estimators import HillClimbSearch

    data = frame.copy()
    for c in data.columns:
        if c not in continuous:
            data[c] = data[c].astype(str)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.perf_counter()
        model = HillClimbSearch(data).estimate(scoring_method="bic-cg", show_progress=False)
        seconds = time.perf_counter() - start
    arcs = [(str(u), str(v)) for u, v in model.edges()]
    return seconds, graph_from_arcs(list(frame.columns), arcs, "dag")


def run(networks, sizes, seeds, pgmpy_max_cells, workdir: Path) -> tuple[pd.DataFrame, str]:
    rows, version = [], ""
    has_r = shutil.which("Rscript") is not None
    warm = make_conditional_gaussian(load_network("asia"), 0.3, random_state=0).sample(200, 0)
    for make in SKBN.values():  # compile the numba kernels before anything is timed
        make().fit(warm)
    for name in networks:
        cg = make_conditional_gaussian(load_network(name), 0.3, random_state=0)
        truth = cg.graph
        names = list(truth.nodes)
        types = ",".join("c" if v in cg.continuous else "d" for v in names)
        for n in sizes:
            for seed in seeds:
                frame = cg.sample(n, random_state=seed)
                path = workdir / f"{name}_{n}_{seed}.csv"
                frame.to_csv(path, index=False)
                X = pd.read_csv(path, keep_default_na=False)  # what every library reads
                for c in X.columns:
                    if c not in cg.continuous:
                        X[c] = X[c].astype(str)
                base = dict(network=name, p=len(names), n_continuous=len(cg.continuous))
                base.update(n=n, seed=seed)
                results = {}
                for label, make in SKBN.items():
                    est = make()
                    start = time.perf_counter()
                    est.fit(X)
                    results[label] = (time.perf_counter() - start, est.graph_)
                if has_r:
                    theirs = run_bnlearn(path, types, names)
                    version = f"bnlearn {theirs.pop('version')}"
                    results["bnlearn hc(bic-cg)"] = theirs["hc"]
                    results["bnlearn pc.stable(mi-cg)"] = theirs["pc"]
                    results["bnlearn mmhc(mi-cg, bic-cg)"] = theirs["mmhc"]
                if available("pgmpy") and n * len(names) <= pgmpy_max_cells:
                    results["pgmpy HillClimbSearch(bic-cg)"] = run_pgmpy(X, cg.continuous)
                reference = results["skbn HillClimb()"][0]
                bn_hc = results.get("bnlearn hc(bic-cg)")
                for label, (seconds, graph) in results.items():
                    same = (
                        set(graph.edges) == set(bn_hc[1].edges)
                        if label == ORACLE and bn_hc is not None
                        else None
                    )
                    f1a, f1h, dist, edges = structure_scores(truth, graph)
                    rows.append(
                        {
                            **base,
                            "method": label,
                            "seconds": seconds,
                            "ratio": seconds / reference,
                            "f1_adjacent": f1a,
                            "f1_arrowhead": f1h,
                            "shd": dist,
                            "edges": edges,
                            "same_as_bnlearn_hc": same,
                        }
                    )
                print(name, n, seed, "done", flush=True)
    return pd.DataFrame(rows, columns=COLUMNS), version


def report(df: pd.DataFrame, version: str) -> str:
    lines = [
        "# Mixed data: benchmark against bnlearn and pgmpy",
        "",
        "Command: `python -m examples.benchmarks.mixed_data"
        " --out examples/benchmarks/results/mixed/mixed.csv"
        " --page examples/benchmarks/results/mixed/mixed.md`. Each bundled network has its last"
        " 30% of nodes in a topological order "
        "made continuous (`make_conditional_gaussian(network, 0.3, random_state=0)`); rows are "
        f"drawn with seeds {sorted(df['seed'].unique().tolist())} and written once to CSV, "
        "which every library reads. Means over the seeds, with the standard deviation in "
        "brackets; time is the fit alone, as a ratio to skbn's `HillClimb()` on the same "
        f"data in the same run (2 cores). Peers: {version or 'bnlearn not run'}, pgmpy "
        "where the problem is small enough. F1-arrowhead and SHD compare with the true DAG "
        "for learners that return a DAG, with its CPDAG for those that return a CPDAG or PDAG.",
        "",
    ]
    for (name, n), part in df.groupby(["network", "n"], sort=False):
        first = part.iloc[0]
        lines += [
            f"## {name} ({first['p']} nodes, {first['n_continuous']} continuous), n = {n}",
            "",
            "| method | F1-adjacent | F1-arrowhead | SHD | time / skbn HillClimb() |",
            "|---|---|---|---|---|",
        ]
        for method, rows in part.groupby("method", sort=False):
            cells = [
                f"{rows[col].mean():{fmt}} ({rows[col].std(ddof=0):{fmt}})"
                for col, fmt in (("f1_adjacent", ".3f"), ("f1_arrowhead", ".3f"), ("shd", ".1f"))
            ]
            lines.append(f"| {method} | {' | '.join(cells)} | {rows['ratio'].mean():.2f}x |")
        oracle = part[part["method"] == ORACLE]["same_as_bnlearn_hc"].dropna()
        if len(oracle):
            lines.append("")  # a sentence right under a table would read as one more row
            lines.append(
                f"`HillClimb(tie_order='columns')` (ties broken by column order, as bnlearn "
                f"breaks them) returned bnlearn's `hc` graph exactly in {int(oracle.sum())} of "
                f"{len(oracle)} seeds."
            )
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=["child", "insurance", "alarm"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[1000, 5000])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--pgmpy-max-cells", type=int, default=30_000)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--page", type=Path)
    parser.add_argument("--note", default="")
    parser.add_argument("--report", type=Path, help="rewrite the page from this CSV")
    args = parser.parse_args()
    if args.report:
        df = pd.read_csv(args.report)
        version = bnlearn_version()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            df, version = run(
                args.networks, args.sizes, args.seeds, args.pgmpy_max_cells, Path(tmp)
            )
    if args.out:
        df.to_csv(args.out, index=False)
    text = report(df, version)
    if args.note:
        text += "\n" + args.note + "\n"
    if args.page:
        args.page.write_text(text)
        write_manifest(args.page)
    print(text)


if __name__ == "__main__":
    main()
