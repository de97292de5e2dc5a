# SPDX-License-Identifier: BSD-3-Clause
"""Hill climbing and tabu search in skbn, bnlearn, pyAgrum and pgmpy on identical data.

For every bundled network up to a few hundred variables, ``--n`` rows are drawn and written
once as strings; every library reads those. bnlearn (R) runs ``hc`` and ``tabu`` with their
defaults on the repository's column order and on ``--orders`` random column orders (its
result depends on the column order, which breaks ties between equal moves). skbn runs
HillClimb and TabuSearch with their defaults (order-invariant), and with
``tie_order="columns"``, which must reproduce bnlearn on the same column order exactly. All
BIC values are computed by skbn on the same data (each bnlearn value is also checked against
bnlearn's own ``score``). Needs R with bnlearn on the PATH (skipped otherwise) and the
``bench`` extra for pyAgrum and pgmpy.

Usage::

    python -m examples.benchmarks.bnlearn_comparison \
        --out examples/benchmarks/results/bnlearn/bnlearn.md
    python -m examples.benchmarks.bnlearn_comparison --networks alarm child --orders 2 --quick
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd

from examples.benchmarks._common import available
from examples.benchmarks._results import write_manifest
from skbn.datasets import list_networks, load_network
from skbn.learners import BOSS, HillClimb, TabuSearch
from skbn.metrics import shd
from skbn.scores import BIC

R_SCRIPT = r"""
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
for (path in args) {
  data <- read.csv(path, colClasses = "character", check.names = FALSE,
                   na.strings = character(0))
  data[] <- lapply(data, factor)
  for (algo in c("hc", "tabu")) {
    t0 <- proc.time()[["elapsed"]]
    dag <- if (algo == "hc") hc(data) else tabu(data)
    el <- proc.time()[["elapsed"]] - t0
    cat(sprintf("%s\t%s\t%.6f\t%.4f\n", path, algo, score(dag, data, type = "bic"), el))
    write.csv(arcs(dag), file = sprintf("%s.%s.arcs.csv", path, algo), row.names = FALSE)
  }
}
cat(sprintf("bnlearn\t%s\n", as.character(packageVersion("bnlearn"))))
"""

DEFAULT_NETWORKS = [n for n in list_networks() if len(load_network(n).nodes) <= 450]


def _graph(names, arcs) -> nx.DiGraph:
    g = nx.DiGraph(kind="dag")
    g.add_nodes_from(names)
    g.add_edges_from(arcs)
    return g


def _timed(fn, repeats):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return result, float(np.median(times))


def run_bnlearn(paths):
    """Run bnlearn on the CSV files; return {(path, algo): (bic, seconds, arcs)}, version."""
    with tempfile.NamedTemporaryFile("w", suffix=".R", delete=False) as f:
        f.write(R_SCRIPT)
    out = subprocess.run(
        ["Rscript", f.name, *map(str, paths)], capture_output=True, text=True, check=True
    ).stdout
    results, version = {}, "?"
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0] == "bnlearn":
            version = parts[1]
            continue
        path, algo, bic, seconds = parts
        arcs = pd.read_csv(f"{path}.{algo}.arcs.csv")
        results[path, algo] = (float(bic), float(seconds), list(zip(arcs["from"], arcs["to"])))
    return results, version


def pyagrum_hc(X):
    import pyagrum as gum

    learner = gum.BNLearner(X)
    learner.useGreedyHillClimbing()
    learner.useScoreBIC()
    learner.useSmoothingPrior(1e-9)  # pyAgrum refuses unseen parent configurations otherwise
    bn = learner.learnBN()
    return [(bn.variable(a).name(), bn.variable(b).name()) for a, b in bn.arcs()]


def pgmpy_hc(X):
    import warnings

    # pgmpy 1.1 deprecates this class for pgmpy.causal_discovery.HillClimbSearch, which
    # returns a PDAG; the DAG search of earlier releases is the one compared here
    warnings.filterwarnings("ignore", category=FutureWarning, module="pgmpy")
    from pgmpy.estimators import HillClimbSearch

    dag = HillClimbSearch(X).estimate(scoring_method="bic-d", show_progress=False)
    return list(dag.edges())


def compare(network, n, n_orders, seed, workdir, repeats, pgmpy_limit):
    bn = load_network(network)
    X = bn.sample(n, random_state=seed).astype(str)
    # bnlearn refuses single-valued columns: every library gets the data without them, and
    # SHD is taken against the true graph over the columns kept
    constant = [c for c in X.columns if X[c].nunique() < 2]
    X = X.drop(columns=constant)
    truth = bn.graph.subgraph(X.columns).copy()
    names = list(X.columns)
    bic = BIC().bind(X)
    rng = np.random.default_rng(seed)
    orders = [names] + [list(rng.permutation(names)) for _ in range(n_orders)]
    paths = []
    for k, cols in enumerate(orders):
        path = Path(workdir) / f"{network}-{k}.csv"
        X[cols].to_csv(path, index=False)
        paths.append(path)
    r_results, version = run_bnlearn(paths)
    position = {v: k for k, v in enumerate(names)}
    forward = np.mean([position[u] < position[v] for u, v in truth.edges()])
    row = {
        "network": network,
        "p": len(names),
        "dropped": len(constant),
        "forward": float(forward),
    }
    for algo, cls in (("hc", HillClimb), ("tabu", TabuSearch)):
        file_bic, file_time, file_arcs = r_results[str(paths[0]), algo]
        ours_on_file = bic.score_graph(_graph(names, file_arcs))
        assert abs(ours_on_file - file_bic) < 1e-6 * abs(file_bic), (network, algo)
        random_bics = [r_results[str(p), algo][0] for p in paths[1:]]
        est, seconds = _timed(lambda cls=cls: cls().fit(X), repeats)
        same = cls(tie_order="columns").fit(X).score_
        row.update(
            {
                f"skbn_{algo}": est.score_,
                f"skbn_{algo}_shd": shd(truth, est.graph_),
                f"skbn_{algo}_s": seconds,
                f"bnlearn_{algo}_file": file_bic,
                f"bnlearn_{algo}_file_shd": shd(truth, _graph(names, file_arcs)),
                f"bnlearn_{algo}_s": file_time,
                f"bnlearn_{algo}_random_mean": float(np.mean(random_bics)),
                f"bnlearn_{algo}_random_min": float(np.min(random_bics)),
                f"bnlearn_{algo}_random_max": float(np.max(random_bics)),
                f"columns_{algo}_equal": bool(abs(same - file_bic) < 1e-6 * abs(file_bic)),
            }
        )
    row.update(best_optimum(X, truth, seed, repeats))
    if available("pyagrum"):
        arcs, seconds = _timed(lambda: pyagrum_hc(X), repeats)
        g = _graph(names, arcs)
        row.update(pyagrum=bic.score_graph(g), pyagrum_shd=shd(truth, g), pyagrum_s=seconds)
    if available("pgmpy") and len(names) <= pgmpy_limit:
        arcs, seconds = _timed(lambda: pgmpy_hc(X), 1)
        g = _graph(names, arcs)
        row.update(pgmpy=bic.score_graph(g), pgmpy_shd=shd(truth, g), pgmpy_s=seconds)
    return row, version


#: skbn's best-optimum search on this page
BEST_STARTS = 8


def best_optimum(X, truth, seed, repeats) -> dict:
    """BIC, SHD and time of ``BOSS("bic", n_starts=8, polish=True)`` on ``X``."""
    est, seconds = _timed(
        lambda: BOSS("bic", n_starts=BEST_STARTS, polish=True, random_state=seed).fit(X), repeats
    )
    return {
        "skbn_best": est.score_,
        "skbn_best_shd": shd(truth, est.graph_),
        "skbn_best_s": seconds,
        "skbn_best_repeats": repeats,
    }


def add_best_optimum(path: Path, n: int, seed: int, repeats: int) -> pd.DataFrame:
    """Add (or refresh) the best-optimum columns of a stored table, network by network."""
    table = pd.read_csv(path)
    for k, network in enumerate(table["network"]):
        bn = load_network(network)
        X = bn.sample(n, random_state=seed).astype(str)
        X = X.drop(columns=[c for c in X.columns if X[c].nunique() < 2])
        truth = bn.graph.subgraph(X.columns).copy()
        for key, value in best_optimum(X, truth, seed, repeats).items():
            table.loc[k, key] = value
        table.to_csv(path, index=False)
        print(f"{network:11s} best {table.loc[k, 'skbn_best']:.1f}", flush=True)
    return table


def _forward_share(network) -> float:
    bn = load_network(network)
    position = {v: k for k, v in enumerate(bn.nodes)}
    return float(np.mean([position[u] < position[v] for u, v in bn.graph.edges()]))


def _fmt(x, digits=1):
    return "" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:,.{digits}f}"


def best_optimum_section(table: pd.DataFrame, args) -> list[str]:
    """The best-optimum table: skbn's polished BOSS against bnlearn's best of every run."""
    runs = [f"bnlearn_{a}_{k}" for a in ("hc", "tabu") for k in ("file", "random_max")]
    best = table[runs].max(axis=1)
    reached = table["skbn_best"] >= best - 1e-6 * best.abs()
    lines = [
        "",
        f'## The best optimum: `BOSS("bic", n_starts={BEST_STARTS}, polish=True)`',
        "",
        f"skbn's best-optimum search is BOSS from {BEST_STARTS} random orders, each start's "
        "settled DAG polished by a tabu search over DAGs (bnlearn's `tabu` settings) and the "
        "order search resumed from the polished DAG while that gains (`polish=True`), with "
        "`random_state` the data's seed. It is compared with the best BIC of all "
        f"{2 * (1 + args.orders)} bnlearn runs above (`hc` and `tabu`, file order and "
        f"{args.orders} random orders), the file order included although it hands bnlearn "
        "the true order on several networks. Time: skbn's search on one core (median of "
        f"{int(table['skbn_best_repeats'].max())} run(s)), against one bnlearn `tabu` run "
        "on the file order (from the run of the tables above); other benchmarks shared the "
        "machine, so read the times as rough ratios.",
        "",
        "| network | p | skbn best optimum | bnlearn's best run | skbn >= bnlearn's best | "
        "SHD skbn / bnlearn tabu (file) | s skbn | s bnlearn tabu |",
        "|---|---:|---:|---:|---|---|---:|---:|",
    ]
    for r, top, ok in zip(table.to_dict("records"), best, reached):
        gap = "yes" if ok else f"no ({r['skbn_best'] - top:,.1f})"
        lines.append(
            f"| {r['network']} | {r['p']} | {_fmt(r['skbn_best'])} | {_fmt(top)} | {gap} | "
            f"{int(r['skbn_best_shd'])} / {r['bnlearn_tabu_file_shd']} | "
            f"{_fmt(r['skbn_best_s'], 2)} | {_fmt(r['bnlearn_tabu_s'], 2)} |"
        )
    lines += [
        "",
        f"It reaches bnlearn's best BIC on {int(reached.sum())} of {len(table)} networks"
        + (
            "."
            if reached.all()
            else "; short on " + ", ".join(table.loc[~reached, "network"]) + "."
        ),
    ]
    return lines


def write_page(table: pd.DataFrame, path: Path, command: str, version: str, args) -> None:
    def verdict(ours, ref):
        return "yes" if ours >= ref - 1e-6 * abs(ref) else f"no ({ours - ref:,.1f})"

    missing = [n for n in DEFAULT_NETWORKS if n not in set(table["network"])]
    scope = "Every network of the repository with at most 450 variables"
    if missing:
        scope += f" except {', '.join(missing)} (not run yet)"
    lines = [
        "# Hill climbing and tabu search against bnlearn, pyAgrum and pgmpy",
        "",
        "Regenerate with (needs R with bnlearn, and the `bench` extra):",
        "",
        "```bash",
        command,
        "```",
        "",
        f"Machine: {sys.platform}, 2 cores; bnlearn {version} (the newest release that builds on "
        "Debian's R 4.2), run by Rscript on the same CSV files skbn reads. "
        f"{scope}, n = {args.n} rows (random_state {args.seed}), "
        "every column read as strings. BIC values are computed by skbn on the same data "
        "(bnlearn's own `score` agrees to 1e-6 on each of its DAGs, checked by the script); "
        "higher is better. SHD compares CPDAGs with the true network. Times in seconds, "
        f"median of {args.repeats} runs for skbn and pyAgrum, one run for pgmpy and bnlearn. "
        "bnlearn refuses single-valued columns, so they are dropped for every library (the "
        "'dropped' count) and SHD uses the true graph over the kept columns.",
        "",
        "bnlearn's `hc` and `tabu` break ties between moves of equal gain by column order. The "
        "repository lists the nodes of several networks in a topological order of the true "
        "DAG (every true arc points forward in win95pts, hailfinder and hepar2), which hands "
        "bnlearn the right orientation of every tied pair there; real data carries no such "
        f"order. So bnlearn runs on the repository's order and on {args.orders} random column "
        "orders. skbn's defaults do not depend on the column order (ties go by a data-derived "
        "order, the better of two climbs, Kitson & Constantinou's HC-Stable); with "
        '`tie_order="columns"` skbn breaks ties as bnlearn does, and the column '
        "'= bnlearn' says whether it then reproduced bnlearn's result exactly.",
    ]
    for algo, learner in (("hc", "HillClimb"), ("tabu", "TabuSearch")):
        lines += [
            "",
            f"## {learner} against bnlearn `{algo}`",
            "",
            "| network | p | true arcs forward in the file | skbn | bnlearn, file order | "
            "bnlearn, random orders: mean (min, max) "
            "| skbn >= file order | skbn >= random mean | = bnlearn | SHD skbn / bnlearn |",
            "|---|---:|---:|---:|---:|---:|---|---|---|---|",
        ]
        for r in table.to_dict("records"):
            ours, file = r[f"skbn_{algo}"], r[f"bnlearn_{algo}_file"]
            mean = r[f"bnlearn_{algo}_random_mean"]
            lines.append(
                f"| {r['network']} | {r['p']} ({r['dropped']} dropped) | {r['forward']:.0%} | "
                f"{_fmt(ours)} | {_fmt(file)} | {_fmt(mean)} "
                f"({_fmt(r[f'bnlearn_{algo}_random_min'])}, "
                f"{_fmt(r[f'bnlearn_{algo}_random_max'])}) | {verdict(ours, file)} | "
                f"{verdict(ours, mean)} | {'yes' if r[f'columns_{algo}_equal'] else 'no'} | "
                f"{r[f'skbn_{algo}_shd']} / {r[f'bnlearn_{algo}_file_shd']} |"
            )
    if "skbn_best" in table:
        lines += best_optimum_section(table, args)
    lines += [
        "",
        "## Every library's hill climbing: BIC, SHD and time",
        "",
        "| network | skbn HC | s | bnlearn hc | s | pyAgrum | s | pgmpy | s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in table.itertuples():
        lines.append(
            f"| {r.network} | {_fmt(r.skbn_hc)} (SHD {r.skbn_hc_shd}) | {_fmt(r.skbn_hc_s, 2)} | "
            f"{_fmt(r.bnlearn_hc_file)} | {_fmt(r.bnlearn_hc_s, 2)} | "
            f"{_fmt(getattr(r, 'pyagrum', None))} | {_fmt(getattr(r, 'pyagrum_s', None), 2)} | "
            f"{_fmt(getattr(r, 'pgmpy', None))} | {_fmt(getattr(r, 'pgmpy_s', None), 2)} |"
        )
    hc_file = sum(
        r.skbn_hc >= r.bnlearn_hc_file - 1e-6 * abs(r.bnlearn_hc_file) for r in table.itertuples()
    )
    hc_rand = sum(r.skbn_hc >= r.bnlearn_hc_random_mean for r in table.itertuples())
    tb_file = sum(
        r.skbn_tabu >= r.bnlearn_tabu_file - 1e-6 * abs(r.bnlearn_tabu_file)
        for r in table.itertuples()
    )
    tb_rand = sum(r.skbn_tabu >= r.bnlearn_tabu_random_mean for r in table.itertuples())
    same = int(table["columns_hc_equal"].sum() + table["columns_tabu_equal"].sum())
    lines += [
        "",
        "## What the tables show",
        "",
        f"- With ties broken by column order, skbn reproduced bnlearn's result exactly in {same} "
        f"of {2 * len(table)} runs: the two implement the same search, with the same moves, "
        "score and stopping rule.",
        f"- HillClimb's default reaches bnlearn's `hc` on the repository's column order on "
        f"{hc_file} of {len(table)} networks and bnlearn's mean over random column orders on "
        f"{hc_rand}; TabuSearch against `tabu`: {tb_file} and {tb_rand}. The networks where it "
        "does not are named in the tables with the gap; every one of them is a network whose "
        "file order is (close to) a topological order of the truth, or one where a random "
        "column order can land bnlearn in a better local optimum than either of skbn's two "
        "climbs.",
    ]
    path.write_text("\n".join(lines) + "\n")
    table.to_csv(path.with_suffix(".csv"), index=False)
    write_manifest(path)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=DEFAULT_NETWORKS)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--orders", type=int, default=3, help="random column orders for bnlearn")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pgmpy-limit", type=int, default=80, help="largest p for pgmpy")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--version", default="4.9", help="bnlearn's version, for --report-only")
    parser.add_argument("--quick", action="store_true", help="one repeat, no pgmpy")
    parser.add_argument(
        "--report-only", action="store_true", help="rewrite --out from its CSV, running nothing"
    )
    parser.add_argument(
        "--best-only",
        action="store_true",
        help="add the best-optimum columns to --out's stored table and rewrite the page",
    )
    args = parser.parse_args(argv)
    if args.best_only:
        add_best_optimum(args.out.with_suffix(".csv"), args.n, args.seed, args.repeats)
        args.report_only = True
    if args.report_only:
        table = pd.read_csv(args.out.with_suffix(".csv"))
        if "forward" not in table:
            table["forward"] = [_forward_share(network) for network in table["network"]]
        command = (
            "python -m examples.benchmarks.bnlearn_comparison"
            " --out examples/benchmarks/results/bnlearn/bnlearn.md\n"
            "# the best-optimum columns alone, on the stored table:\n"
            "python -m examples.benchmarks.bnlearn_comparison --best-only --repeats 1"
            " --out examples/benchmarks/results/bnlearn/bnlearn.md"
        )
        write_page(table, args.out, command, args.version, args)
        return
    if shutil.which("Rscript") is None:
        print("Rscript is not on the PATH: this comparison needs R with bnlearn; skipped.")
        return
    if args.quick:
        args.repeats, args.pgmpy_limit = 1, 0
    rows, version = [], "?"
    with tempfile.TemporaryDirectory() as workdir:
        for network in args.networks:
            row, version = compare(
                network, args.n, args.orders, args.seed, workdir, args.repeats, args.pgmpy_limit
            )
            rows.append(row)
            if args.out:  # after every network, so an interrupted run keeps what it did
                pd.DataFrame(rows).to_csv(args.out.with_suffix(".csv"), index=False)
            print(
                f"{network:11s} hc {row['skbn_hc']:.1f} vs file {row['bnlearn_hc_file']:.1f} "
                f"random {row['bnlearn_hc_random_mean']:.1f} | tabu {row['skbn_tabu']:.1f} vs "
                f"{row['bnlearn_tabu_file']:.1f} random {row['bnlearn_tabu_random_mean']:.1f}",
                flush=True,
            )
    table = pd.DataFrame(rows)
    if args.out:
        command = "python -m examples.benchmarks.bnlearn_comparison " + " ".join(
            sys.argv[1:] if argv is None else argv
        )
        write_page(table, args.out, command, version, args)
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
