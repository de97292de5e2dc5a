# SPDX-License-Identifier: BSD-3-Clause
"""Exact inference on the bundled networks: skbn.inference against pyAgrum, in one run.

For each network and seed, ``--rows`` evidence rows are drawn (forward samples; each row
observes a random quarter of the nodes, at most 8, so no row is impossible). Timed, one core
each, in this process:

* **batched, all posteriors**: skbn's ``query(network, every node, frame)`` on the whole
  frame against pyAgrum 3.3.1's ``LazyPropagation`` looped over the rows (one engine, its
  junction tree built once; per row ``setEvidence``, ``makeInference`` and every node's
  ``posterior``);
* **one row, one target**: skbn's ``query`` against a fresh ``LazyPropagation``, per row, for
  the first ``--single`` rows (median per call).

The answers are compared too (largest absolute difference of any posterior). Run::

    python -m examples.benchmarks.inference --seeds 0 1 2 3 4

and the page is ``examples/benchmarks/results/inference/inference.md``.

For the networks whose junction tree takes pyAgrum minutes (LINK, MUNIN1), ``--per-row``
times each evidence row on its own, as a user asking one case at a time would: skbn's
``query(network, every node, that row)`` against pyAgrum's ``LazyPropagation`` on the same
row, its first row (which builds the junction tree) reported apart from the later ones::

    python -m examples.benchmarks.inference --networks link munin1 --per-row --rows 3 \
        --single 0 --merge

``--merge`` keeps the other networks' rows in the CSV and skips cells already there, so a
long run resumes where it stopped. The issue's ALARM goal at 10,000 rows::

    python -m examples.benchmarks.inference --networks alarm --rows 10000 --single 0 --merge
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from examples.benchmarks._results import result_path, write_manifest
from skbn.datasets import load_network
from skbn.inference import query
from skbn.io import to_pyagrum

NETWORKS = ["asia", "child", "insurance", "alarm", "hepar2"]


def _evidence(network, rows: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    sample = network.sample(rows, random_state=seed).astype(object)
    k = min(8, max(1, len(network.nodes) // 4))
    frame = pd.DataFrame(index=range(rows), columns=network.nodes, dtype=object)
    for i in range(rows):
        chosen = rng.choice(len(network.nodes), size=k, replace=False)
        for j in chosen:
            frame.iat[i, j] = str(sample.iat[i, j])
    return frame.loc[:, frame.notna().any()]


def _pyagrum_batched(bn, frame, nodes):
    import pyagrum as gum

    gum.setNumberOfThreads(1)
    engine = gum.LazyPropagation(bn)
    out = {v: np.empty((len(frame), bn.variable(v).domainSize())) for v in nodes}
    labels = {v: list(bn.variable(v).labels()) for v in nodes}
    records = frame.to_dict("records")
    per_row = []
    start = time.perf_counter()
    for i, row in enumerate(records):
        began = time.perf_counter()
        engine.setEvidence({k: v for k, v in row.items() if isinstance(v, str)})
        engine.makeInference()
        for v in nodes:
            out[v][i] = engine.posterior(v).tolist()
        per_row.append(time.perf_counter() - began)
    seconds = time.perf_counter() - start
    return seconds, out, labels, per_row


def _one_cell(name: str, seed: int, rows: int, single: int, per_row: bool = False) -> dict:
    import pyagrum as gum

    network = load_network(name)
    bn = to_pyagrum(network)
    frame = _evidence(network, rows, seed)
    nodes = list(network.nodes)
    query(network, nodes[:1], frame.head(2))  # warm the code paths once
    if per_row:
        ours_rows, parts = [], []
        for i in range(len(frame)):
            start = time.perf_counter()
            parts.append(query(network, nodes, frame.iloc[[i]]))
            ours_rows.append(time.perf_counter() - start)
        skbn_batched = float(np.sum(ours_rows))
        ours = {v: pd.concat([part[v] for part in parts]) for v in nodes}
    else:
        start = time.perf_counter()
        ours = query(network, nodes, frame)
        skbn_batched = time.perf_counter() - start
    cell = {
        "network": name,
        "nodes": len(nodes),
        "seed": seed,
        "rows": rows,
        "mode": "per-row" if per_row else "batched",
        "skbn_batched_s": skbn_batched,
    }
    try:
        pyagrum_batched, theirs, labels, theirs_rows = _pyagrum_batched(bn, frame, nodes)
    except Exception as exc:  # recorded on the page, not hidden
        # e.g. pyAgrum running out of memory on one row's evidence (LINK, seed 4)
        failed = f"{type(exc).__name__}: {str(exc).strip()[:200]}"
        print(f"{name} seed {seed}: pyAgrum failed: {failed}", flush=True)
        return {**cell, "pyagrum_error": failed}
    worst = 0.0
    for v in nodes:
        position = [labels[v].index(str(s)) for s in network.states[v]]
        worst = max(worst, float(np.nanmax(np.abs(ours[v].to_numpy() - theirs[v][:, position]))))
    rng = np.random.default_rng(seed + 1000)
    ours_single, theirs_single = [], []
    for row in frame.head(single).to_dict("records"):
        evidence = {k: v for k, v in row.items() if isinstance(v, str)}
        target = str(rng.choice([v for v in nodes if v not in evidence]))
        start = time.perf_counter()
        query(network, target, evidence)
        ours_single.append(time.perf_counter() - start)
        start = time.perf_counter()
        engine = gum.LazyPropagation(bn)
        engine.setEvidence(evidence)
        engine.posterior(target)
        theirs_single.append(time.perf_counter() - start)
    return {
        **cell,
        "pyagrum_batched_s": pyagrum_batched,
        "pyagrum_first_row_s": theirs_rows[0],
        "pyagrum_later_rows_s": float(np.mean(theirs_rows[1:])) if rows > 1 else np.nan,
        "skbn_single_ms": 1e3 * float(np.median(ours_single)) if single else np.nan,
        "pyagrum_single_ms": 1e3 * float(np.median(theirs_single)) if single else np.nan,
        "max_abs_difference": worst,
    }


def _spread(values: pd.Series, digits: int = 2) -> str:
    if values.isna().all():
        return "not run"
    return f"{values.mean():.{digits}f} ({values.std(ddof=1):.{digits}f})"


def _extreme(table: pd.DataFrame, column: str, pick) -> str:
    means = table.groupby(["network", "rows"], sort=False)[column].mean().dropna()
    name, rows = pick(means.index, key=means.get)
    several = table[table.network == name].rows.nunique() > 1
    where = f"{name.upper()}" + (f" at {rows:,} rows" if several else "")
    return f"{means[(name, rows)]:.2f}x on {where}"


def _per_row_lines(rows: pd.DataFrame) -> list[str]:
    if rows.empty:
        return []
    failures = rows[rows["pyagrum_error"].notna()] if "pyagrum_error" in rows else rows[:0]
    rows = rows.drop(failures.index)
    rows = rows.assign(
        skbn_row_s=rows.skbn_batched_s / rows.rows,
        pyagrum_row_s=rows.pyagrum_batched_s / rows.rows,
        ratio=rows.pyagrum_batched_s / rows.skbn_batched_s,
    )
    lines = [
        "",
        "## One evidence row at a time, on the networks pyAgrum needs minutes for",
        "",
        "All posteriors of every node for one evidence row (drawn as above), each row on its "
        "own: skbn's `query(network, nodes, row)` against pyAgrum 3.3.1's `LazyPropagation` "
        "(one thread, `gum.setNumberOfThreads(1)`, one engine for the seed's rows) given the "
        "same rows. The ratio is pyAgrum's time over skbn's on the same rows (skbn keeps "
        "nothing between calls; pyAgrum's first row also builds its junction tree, shown "
        "apart). How long a row takes depends on its evidence in both libraries, so the "
        "spread over seeds is wide. Mean (sd) over the seeds.",
        "",
        "| network | nodes | rows a seed | seeds | skbn s a row | pyAgrum s a row "
        "| pyAgrum first row s | ratio | largest difference |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (name, nodes, n_rows), g in rows.groupby(["network", "nodes", "rows"], sort=False):
        lines.append(
            f"| {name} | {nodes} | {n_rows} | {g.seed.nunique()} | {_spread(g.skbn_row_s)} "
            f"| {_spread(g.pyagrum_row_s)} | {_spread(g.pyagrum_first_row_s)} "
            f"| {_spread(g.ratio, 1)} | {g.max_abs_difference.max():.1e} |"
        )
    for _, row in failures.iterrows():
        lines.append(
            f"\n{row.network.upper()} seed {int(row.seed)}: skbn answered its {int(row.rows)} "
            f"rows in {row.skbn_batched_s:.1f} s; pyAgrum failed ({row.pyagrum_error}), so the "
            "seed is left out of the table."
        )
    means = rows.groupby("network", sort=False).ratio.mean()
    lines += [
        "",
        "- Issue 73 asks for all posteriors of an evidence row on LINK and MUNIN1 at least "
        "10x faster than pyAgrum's exact `LazyPropagation`: "
        + "; ".join(
            f"{name.upper()} {ratio:.1f}x ({'met' if ratio >= 10 else 'missed'})"
            for name, ratio in means.items()
        )
        + ". skbn answers both exactly. For one row the clique tree is built over the "
        "unobserved nodes only, the row's hard evidence sliced out of the tables: on MUNIN1 "
        "that takes the tree from 4.6e8 cells to between 1.5e7 and 4.7e8 depending on the row. "
        "Within its 1 GiB bound the tree answers; above it each node is eliminated on its own "
        "(evidence sliced, barren nodes dropped) unless a measured cost model (a tree cell "
        "costs 8 cells of an elimination's largest factor) rates the tree cheaper and a third "
        "of memory holds it. The ratio is the mean over seeds of each seed's ratio over its "
        "rows; per seed: "
        + "; ".join(
            f"{name.upper()} " + ", ".join(f"{r:.1f}x" for r in g.sort_values("seed").ratio)
            for name, g in rows.groupby("network", sort=False)
        )
        + ".",
    ]
    return lines


def report(csv: Path, page: Path) -> None:
    table = pd.read_csv(csv)
    if "mode" not in table:
        table["mode"] = "batched"
    table["mode"] = table["mode"].fillna("batched")
    per_row = table[table["mode"] == "per-row"]
    table = table[table["mode"] == "batched"].copy()
    table["batched_ratio"] = table.pyagrum_batched_s / table.skbn_batched_s
    table["single_ratio"] = table.pyagrum_single_ms / table.skbn_single_ms
    lines = [
        "# Exact inference: skbn.inference against pyAgrum",
        "",
        "Every bundled network below, with evidence rows drawn by forward sampling (each row "
        "observes a random quarter of the nodes, at most 8). *Batched*: all posteriors of "
        "every node for every row, skbn's `query(network, nodes, frame)` in one call against "
        "pyAgrum 3.3.1's `LazyPropagation` looped over the rows (junction tree built once). "
        "*Single*: one target given one row's evidence, skbn's `query` against a fresh "
        "`LazyPropagation` (median over the first rows). Ratios are pyAgrum's time over "
        "skbn's (above 1: skbn is faster), mean (sd) over the seeds; both libraries ran on "
        "one core in the same process.",
        "",
        "| network | nodes | rows | seeds | batched skbn s | batched pyAgrum s | batched ratio "
        "| single skbn ms | single pyAgrum ms | single ratio | largest difference |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    table = table.sort_values("rows", kind="stable")  # the 1,000-row grid first
    for (name, nodes, rows), g in table.groupby(["network", "nodes", "rows"], sort=False):
        lines.append(
            f"| {name} | {nodes} | {rows} | {g.seed.nunique()} | {_spread(g.skbn_batched_s)} "
            f"| {_spread(g.pyagrum_batched_s)} | {_spread(g.batched_ratio, 1)} "
            f"| {_spread(g.skbn_single_ms)} | {_spread(g.pyagrum_single_ms)} "
            f"| {_spread(g.single_ratio, 2)} | {g.max_abs_difference.max():.1e} |"
        )
    if table.empty:
        lines = lines[:2] + ["(No batched rows in the CSV.)"]
    else:
        lines += _batched_reading(table)
    lines += [
        *_per_row_lines(per_row),
        *([""] if len(per_row) else []),
        "Regenerate with `python -m examples.benchmarks.inference --seeds 0 1 2 3 4` (about "
        "2 minutes on one core; it writes the CSV and this page), then "
        "`python -m examples.benchmarks.inference --networks link munin1 --per-row --rows 3 "
        "--single 0 --merge` (about 40 minutes, most of it pyAgrum's) and "
        "`python -m examples.benchmarks.inference --networks alarm --rows 10000 --single 0 "
        "--merge` (about 2 minutes), or `--report` to rewrite the page from the CSV.",
        "",
    ]
    page.write_text("\n".join(lines))
    write_manifest(page)


def _batched_reading(table: pd.DataFrame) -> list[str]:
    return [
        "",
        "## What the run shows",
        "",
        f"- The posteriors agree with pyAgrum's to {table.max_abs_difference.max():.1e} at worst.",
        "- Batched, skbn is ahead wherever the ratio is above 1: all posteriors of a row come "
        "from one clique tree pass shared by every row of the batch. Lowest batched ratio: "
        f"{_extreme(table, 'batched_ratio', min)}; highest: "
        f"{_extreme(table, 'batched_ratio', max)}. Where the clusters are large (INSURANCE) "
        "the batch is split to stay under 256 MiB and the advantage shrinks.",
        "- Single queries (one target, one row): lowest ratio "
        f"{_extreme(table, 'single_ratio', min)}, highest "
        f"{_extreme(table, 'single_ratio', max)}"
        + (
            "; below 1 skbn is slower, where numpy's per-call overhead outweighs the small network."
            if (table.single_ratio < 1).any()
            else ". One case whose unobserved relevant nodes have at most 65,536 joint "
            "states is one contraction of the CPTs, its path compiled the first time a "
            "question with those targets and observed nodes is asked (all but one of the 50 "
            "questions a seed on ASIA and CHILD); the others, most of those on INSURANCE, "
            "ALARM and HEPAR2, go through variable elimination."
        ),
        *_alarm_goal(table),
        "",
    ]


def _alarm_goal(table: pd.DataFrame) -> list[str]:
    """The issue's batched goal on ALARM at 10,000 rows, read from its row if there is one."""
    goal = (
        "- Issue 73 asks for batched posteriors at least 20x faster than the loop on ALARM at "
        "10,000 rows and single queries no slower than pyAgrum's on every network"
    )
    row = table[(table.network == "alarm") & (table.rows == 10_000)]
    if row.empty:
        return [goal + "; the rows above are at 1,000 rows and say where each holds."]
    ratio = row.batched_ratio
    verdict = "met" if ratio.mean() >= 20 else "missed"
    return [
        goal + f". At 10,000 ALARM rows the batched ratio is {ratio.mean():.1f}x (sd "
        f"{ratio.std(ddof=1):.1f}, {len(ratio)} seeds): the batched goal is {verdict}; the "
        "single-query rows say where the other holds."
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=NETWORKS)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--single", type=int, default=50)
    parser.add_argument("--out", type=Path, default=result_path("inference", "inference.csv"))
    parser.add_argument("--page", type=Path, default=result_path("inference"))
    parser.add_argument("--report", action="store_true", help="write the page, run nothing")
    parser.add_argument(
        "--per-row", action="store_true", help="time each evidence row on its own (LINK, MUNIN1)"
    )
    parser.add_argument(
        "--merge", action="store_true", help="keep the CSV's other rows; skip cells it holds"
    )
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not args.report:
        earlier = pd.read_csv(args.out) if args.merge and args.out.exists() else None
        mode = "per-row" if args.per_row else "batched"
        if earlier is not None and "mode" not in earlier:
            earlier["mode"] = "batched"
        done = (
            set()
            if earlier is None
            else set(zip(earlier.network, earlier.seed, earlier.rows, earlier["mode"]))
        )
        rows = [] if earlier is None else earlier.to_dict("records")
        for name in args.networks:
            for seed in args.seeds:
                if (name, seed, args.rows, mode) in done:
                    continue
                rows.append(_one_cell(name, seed, args.rows, args.single, args.per_row))
                print(rows[-1], flush=True)
                pd.DataFrame(rows).to_csv(args.out, index=False)  # resumable
        pd.DataFrame(rows).to_csv(args.out, index=False)
        write_manifest(args.out)
    report(args.out, args.page)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
