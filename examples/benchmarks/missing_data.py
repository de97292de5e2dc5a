# SPDX-License-Identifier: BSD-3-Clause
"""Structure learning from incomplete discrete data: skbn against bnlearn's structural EM.

The recipe: ``n`` rows drawn from a bundled network per seed, then values removed

* completely at random (``mcar``): every value independently with probability ``rate``;
* at random given observed columns (``mar``): a third of the columns (chosen at random,
  seeded) stay complete; every other column gets a complete "driver" column, and its
  values go missing with probability ``1.5 * rate`` where the driver's code is in its
  upper half and ``0.5 * rate`` elsewhere (so ``rate`` of the incomplete columns' values
  on average, if the halves are equally likely).

The columns are put in a random order per seed (bnlearn's ``hc`` breaks ties between equal
moves by column order, and the repository's files list most nodes in a topological order of
the true network, which would hand it the right orientations). The data are written once to
CSV; every library reads that file.

* skbn: ``HillClimb()`` and ``PCStable()`` with their defaults (available-case BIC with
  the noise penalty; G-square with testwise deletion), and ``StructuralEM`` around
  ``HillClimb()`` with tables counted from the imputed data (``fit_tables="imputed"``, the
  default, bnlearn's way) and with parameter EM (``fit_tables="em"``).
* bnlearn (R, on the PATH; skipped otherwise): ``structural.em(x)`` with its defaults
  (hc with BIC, tables by maximum likelihood, imputation by likelihood weighting).
* complete data (rate 0, the column "0%"): skbn ``HillClimb()`` and bnlearn ``hc(x)`` on the
  rows before any value is removed, to tell what the search does from what the missing
  values do.
* pgmpy has no structure learning on incomplete data (its estimators refuse NaN), and is
  not run.

Scores: F1 of the adjacencies and of the arrowheads, and SHD, against the true DAG (its
CPDAG for PCStable); times of the fit alone, as ratios to skbn's ``HillClimb()`` on the
same data in the same run.

Usage (the command behind examples/benchmarks/results/missing/missing.md)::

    python -m examples.benchmarks.missing_data \
        --out examples/benchmarks/results/missing/missing.csv \
        --page examples/benchmarks/results/missing/missing.md

``--report examples/benchmarks/results/missing/missing.csv --page
examples/benchmarks/results/missing/missing.md`` rewrites the page from a saved CSV.

``--mixed`` runs the same on mixed data: each network's last 30% of nodes in a topological
order made continuous (``make_conditional_gaussian``), skbn's ``HillClimb()`` (available-case
CG BIC) and ``PCStable()`` (``mi_cg`` with testwise deletion) against bnlearn's
``structural.em`` (CG networks, likelihood weighting), the command behind
examples/benchmarks/results/missing_mixed/missing_mixed.md::

    python -m examples.benchmarks.missing_data --mixed \
        --out examples/benchmarks/results/missing_mixed/missing_mixed.csv \
        --page examples/benchmarks/results/missing_mixed/missing_mixed.md
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from examples.benchmarks._common import bnlearn_version, graph_from_arcs, structure_scores
from examples.benchmarks._results import write_manifest
from skbn.datasets import load_network, make_conditional_gaussian
from skbn.learners import HillClimb, PCStable, StructuralEM

R_SCRIPT = r"""
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
path <- args[1]
learn <- if (args[2] == "hc") hc else structural.em
types <- strsplit(args[3], "")[[1]]  # "d" discrete, "c" continuous, per column
data <- read.csv(path, colClasses = ifelse(types == "d", "character", "numeric"),
                 check.names = FALSE, na.strings = "")
for (j in which(types == "d")) data[[j]] <- factor(data[[j]])
t0 <- proc.time()[["elapsed"]]
g <- learn(data)
el <- proc.time()[["elapsed"]] - t0
write.csv(arcs(g), file = paste0(path, ".arcs.csv"), row.names = FALSE)
cat(sprintf("sem\t%.4f\n", el))
cat(sprintf("version\t%s\n", as.character(packageVersion("bnlearn"))))
"""

SKBN = {
    "skbn HillClimb()": lambda seed: HillClimb(),
    "skbn PCStable()": lambda seed: PCStable(),
    "skbn StructuralEM()": lambda seed: StructuralEM(random_state=seed),
    "skbn StructuralEM(HillClimb())": lambda seed: StructuralEM(HillClimb(), random_state=seed),
    "skbn StructuralEM(HillClimb(), fit_tables='em')": lambda seed: StructuralEM(
        HillClimb(), fit_tables="em", random_state=seed
    ),
}
#: On mixed data: the available-case and testwise learners, and structural EM with its
#: conditional-Gaussian E-step (MultipleImputation's default imputer needs continuous data).
MIXED = {
    "skbn HillClimb()": lambda seed: HillClimb(),
    "skbn PCStable()": lambda seed: PCStable(),
    "skbn StructuralEM(HillClimb())": lambda seed: StructuralEM(HillClimb(), random_state=seed),
    "skbn StructuralEM()": lambda seed: StructuralEM(random_state=seed),
}
REFERENCE = "skbn HillClimb()"
BNLEARN = "bnlearn hc() / structural.em()"  # hc() on complete data (rate 0)
COLUMNS = [
    "network",
    "p",
    "n",
    "mechanism",
    "rate",
    "missing",
    "seed",
    "method",
    "seconds",
    "ratio",
    "f1_adjacent",
    "f1_arrowhead",
    "shd",
    "edges",
    "error",
]


def remove_values(X: pd.DataFrame, mechanism: str, rate: float, seed: int) -> pd.DataFrame:
    """Return ``X`` with values removed (MCAR or MAR, see the module docstring)."""
    rng = np.random.default_rng(seed)
    n, p = X.shape
    if mechanism == "mcar":
        return X.mask(rng.random((n, p)) < rate)
    complete = rng.choice(p, size=max(1, p // 3), replace=False)
    out = X.copy()
    for j in range(p):
        if j in complete:
            continue
        driver = X.iloc[:, rng.choice(complete)]
        codes = driver.astype("category").cat.codes.to_numpy()
        high = codes > np.median(codes)
        prob = np.where(high, 1.5 * rate, 0.5 * rate)
        out.iloc[rng.random(n) < prob, j] = np.nan
    return out


def r_error(lines: list[str]) -> str:
    """R's error message, without the call it names or the trace after it."""
    start = next((i for i, x in enumerate(lines) if x.startswith("Error")), len(lines) - 1)
    message = []
    for line in lines[start:]:
        if line.startswith(("Calls:", "Execution halted")):
            break
        if line.startswith("Error"):
            line = line.split(" : ", 1)[-1].removeprefix("Error:")
        message.append(line)
    return " ".join(x.strip() for x in message if x.strip()) or lines[-1].strip()


def column_types(X: pd.DataFrame) -> str:
    """``"d"`` for each discrete column, ``"c"`` for each continuous (float) one."""
    return "".join("c" if pd.api.types.is_float_dtype(t) else "d" for t in X.dtypes)


def read_back(path: Path, types: str) -> pd.DataFrame:
    """The CSV as every library reads it: discrete columns as strings, the rest as floats."""
    names = pd.read_csv(path, nrows=0).columns
    dtype = {c: (str if t == "d" else float) for c, t in zip(names, types)}
    return pd.read_csv(path, dtype=dtype, keep_default_na=False, na_values=[""])


def run_bnlearn(path: Path, names, types: str, learn: str = "sem"):
    with tempfile.NamedTemporaryFile("w", suffix=".R", delete=False) as f:
        f.write(R_SCRIPT)
    command = ["Rscript", f.name, str(path), learn, types]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    values = dict(line.split("\t") for line in out.stdout.splitlines())
    arcs = pd.read_csv(f"{path}.arcs.csv")
    pairs = list(zip(arcs["from"].astype(str), arcs["to"].astype(str)))
    return float(values["sem"]), graph_from_arcs(names, pairs, "dag"), values["version"]


def complete_baselines(full, name, truth, mechanisms, seed, workdir, has_r) -> list[dict]:
    """Rows for the complete data (rate 0): skbn ``HillClimb()`` and bnlearn ``hc()``.

    They separate what the search does from what the missing values do.
    """
    path = workdir / f"{name}_{len(full)}_complete_{seed}.csv"
    full.to_csv(path, index=False)
    types = column_types(full)
    X = read_back(path, types)
    start = time.perf_counter()
    graph = HillClimb().fit(X).graph_
    results = {REFERENCE: (time.perf_counter() - start, graph)}
    if has_r:
        seconds, graph, _ = run_bnlearn(path, list(truth.nodes), types, learn="hc")
        results[BNLEARN] = (seconds, graph)
    rows = []
    for label, (seconds, graph) in results.items():
        f1a, f1h, dist, edges = structure_scores(truth, graph)
        for mechanism in mechanisms:
            rows.append(
                {
                    "network": name,
                    "p": truth.number_of_nodes(),
                    "n": len(full),
                    "mechanism": mechanism,
                    "rate": 0.0,
                    "missing": 0.0,
                    "seed": seed,
                    "method": label,
                    "seconds": seconds,
                    "ratio": seconds / results[REFERENCE][0],
                    "f1_adjacent": f1a,
                    "f1_arrowhead": f1h,
                    "shd": dist,
                    "edges": edges,
                }
            )
    return rows


def run(networks, n, rates, mechanisms, seeds, workdir: Path, out=None, mixed=False, only=None):
    """Every cell's rows; with ``only``, just those skbn methods (and the timing reference)."""
    rows, version = [], ""
    has_r = shutil.which("Rscript") is not None and not only
    learners = MIXED if mixed else SKBN
    if only:
        learners = {k: v for k, v in learners.items() if k in only or k == REFERENCE}
    warm = load_network("asia")
    if mixed:
        warm = make_conditional_gaussian(warm, 0.3, random_state=0)
    warm = remove_values(warm.sample(300, random_state=0), "mcar", 0.1, 0)
    for make in learners.values():  # compile the numba kernels before anything is timed
        make(0).fit(warm)
    for name in networks:
        network = load_network(name)
        truth = network.graph
        if mixed:
            network = make_conditional_gaussian(network, 0.3, random_state=0)
        names = list(truth.nodes)
        for seed in seeds:
            full = network.sample(n, random_state=seed)
            # a random column order per seed: bnlearn's hc breaks ties by column order, and
            # the repository's files list most nodes in a topological order of the truth
            full = full[list(np.random.default_rng(seed).permutation(full.columns))]
            if not only:
                rows += complete_baselines(full, name, truth, mechanisms, seed, workdir, has_r)
            for mechanism in mechanisms:
                for rate in rates:
                    X = remove_values(full, mechanism, rate, seed)
                    path = workdir / f"{name}_{n}_{mechanism}_{rate}_{seed}.csv"
                    X.to_csv(path, index=False)
                    types = column_types(full)
                    X = read_back(path, types)
                    base = dict(network=name, p=len(names), n=n, mechanism=mechanism)
                    base.update(rate=rate, missing=float(X.isna().to_numpy().mean()), seed=seed)
                    results = {}
                    for label, make in learners.items():
                        est = make(seed)
                        start = time.perf_counter()
                        est.fit(X)
                        results[label] = (time.perf_counter() - start, est.graph_)
                    failed = {}
                    if has_r:
                        try:
                            seconds, graph, version = run_bnlearn(path, names, types)
                            results[BNLEARN] = (seconds, graph)
                            version = f"bnlearn {version}"
                        except RuntimeError as exc:
                            # e.g. "all weights are zero, the evidence has probability zero"
                            failed[BNLEARN] = str(exc).strip().splitlines()
                    for label, lines in failed.items():
                        rows.append({**base, "method": label, "error": r_error(lines)})
                    reference = results[REFERENCE][0]
                    for label, (seconds, graph) in results.items():
                        if only and label not in only:
                            continue  # the reference's rows stay those of the full run
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
                            }
                        )
                    print(name, seed, mechanism, rate, "done", flush=True)
                    if out is not None:  # keep what is done if the run is stopped
                        frame(rows, mixed).to_csv(out, index=False)
    return frame(rows, mixed), version


def frame(rows, mixed=False) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=COLUMNS)
    df["threads"] = numba.get_num_threads()
    df["data"] = "mixed" if mixed else "discrete"
    return df


def report(df: pd.DataFrame, version: str) -> str:
    n = int(df["n"].iloc[0])
    threads = int(df["threads"].iloc[0]) if "threads" in df else 2
    mixed = "data" in df and df["data"].iloc[0] == "mixed"
    seeds = " ".join(str(int(v)) for v in sorted(df["seed"].unique()))
    command = (
        "python -m examples.benchmarks.missing_data --mixed"
        " --out examples/benchmarks/results/missing_mixed/missing_mixed.csv"
        " --page examples/benchmarks/results/missing_mixed/missing_mixed.md"
        "`, then the rows of `StructuralEM()` with its default learner with "
        "`--add 'skbn StructuralEM()'` and the same paths"
        if mixed
        else f"python -m examples.benchmarks.missing_data --seeds {seeds}"
        " --out examples/benchmarks/results/missing/missing.csv"
        " --page examples/benchmarks/results/missing/missing.md"
        "` (seeds can be added to a page with `--merge`)"
    )
    lines = [
        "# Missing values in mixed data: benchmark against bnlearn"
        if mixed
        else "# Missing values: benchmark against bnlearn",
        "",
        f"Command: `{command}. n = {n} rows drawn from each bundled network "
        + (
            "(its last 30% of nodes in a topological order made continuous, "
            "`make_conditional_gaussian(network, 0.3, random_state=0)`) "
            if mixed
            else ""
        )
        + f"with seeds "
        f"{sorted(df['seed'].unique().tolist())}, then values removed completely at random "
        "(MCAR) or at random given a complete driver column (MAR; recipe in the script's "
        "docstring), written once to CSV, which every library reads. Means over the seeds, "
        "with the standard deviation in brackets; time is the fit alone, as a ratio to "
        "skbn's `HillClimb()` on the same data in the same run, with "
        f"{threads} numba thread(s) (bnlearn runs on one). "
        f"Peer: {version or 'bnlearn not run'}'s `structural.em` with its defaults. pgmpy "
        "has no structure learning on incomplete data. F1-arrowhead and SHD compare with the "
        "true DAG, or its CPDAG for PCStable.",
        "",
    ]
    for (name, mechanism), part in df.groupby(["network", "mechanism"], sort=False):
        rates = sorted(part["rate"].unique())
        lines += [
            f"## {name} ({part['p'].iloc[0]} nodes), {mechanism.upper()}",
            "",
            "F1-adjacent / F1-arrowhead / SHD, and time as a ratio to skbn `HillClimb()`, "
            "by the rate of removed values (in brackets: the share of all values missing); "
            "0% is the complete data, where bnlearn's row is `hc()`.",
            "",
            "| method | "
            + " | ".join(
                f"{r:.0%} ({part[part['rate'] == r]['missing'].mean():.0%})" for r in rates
            )
            + " |",
            "|---|" + "---|" * len(rates),
        ]
        # rows in the script's order of methods, whatever order a merge left the CSV in
        known = [REFERENCE, BNLEARN, *(MIXED if mixed else SKBN)]
        methods = list(dict.fromkeys(m for m in known if m in set(part["method"])))
        methods += [m for m in part["method"].unique() if m not in methods]
        for method in methods:
            rows = part[part["method"] == method]
            cells = []
            for r in rates:
                at = rows[rows["rate"] == r]
                if at.empty:
                    cells.append("")
                    continue
                errors = at["error"].dropna() if "error" in at else []
                ran = at[at["error"].isna()] if "error" in at else at
                failed = (
                    f"failed in {len(errors)} of {len(at)} runs: {errors.iloc[0]}"
                    if len(errors)
                    else ""
                )
                if ran.empty:
                    cells.append(failed)
                    continue
                cells.append(
                    f"{ran['f1_adjacent'].mean():.3f} ({ran['f1_adjacent'].std(ddof=0):.3f}) / "
                    f"{ran['f1_arrowhead'].mean():.3f} / {ran['shd'].mean():.1f}; "
                    f"{ran['ratio'].mean():.2f}x" + (f" ({failed})" if failed else "")
                )
            lines.append(f"| {method} | {' | '.join(cells)} |")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=["alarm", "insurance"])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--rates", nargs="+", type=float, default=[0.05, 0.2, 0.4])
    parser.add_argument("--mechanisms", nargs="+", default=["mcar", "mar"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--page", type=Path)
    parser.add_argument("--note", default="")
    parser.add_argument("--report", type=Path, help="rewrite the page from this CSV")
    parser.add_argument(
        "--add",
        nargs="+",
        metavar="METHOD",
        help="run only these skbn methods (timed against the reference in the same run) and "
        "merge their rows into --out, replacing earlier rows of theirs",
    )
    parser.add_argument(
        "--mixed", action="store_true", help="make 30%% of the nodes continuous (CG data)"
    )
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the rows of --out for the other seeds (new seeds added to a page); the "
        "rows done so far go to a .partial.csv beside --out",
    )
    args = parser.parse_args()
    if args.report:
        df = pd.read_csv(args.report)
        version = bnlearn_version()
    else:
        partial = None
        if args.out and not args.add:
            partial = args.out.with_suffix(".partial.csv") if args.merge else args.out
        with tempfile.TemporaryDirectory() as tmp:
            df, version = run(
                args.networks,
                args.n,
                args.rates,
                args.mechanisms,
                args.seeds,
                Path(tmp),
                partial,
                args.mixed,
                args.add,
            )
        if (args.add or args.merge) and args.out and args.out.exists():
            # rows of the seeds run here (of the methods run, with --add) are replaced
            old = pd.read_csv(args.out)
            again = old.seed.isin(args.seeds)
            if args.add:
                again &= old.method.isin(args.add)
            df = pd.concat([old[~again], df], ignore_index=True)
            version = bnlearn_version()
            if partial is not None and partial != args.out and partial.exists():
                partial.unlink()
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
