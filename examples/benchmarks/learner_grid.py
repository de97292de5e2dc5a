# SPDX-License-Identifier: BSD-3-Clause
"""The grid behind skbn's default learner: every learner's SHD on every problem and size.

Each learner (HillClimb, TabuSearch, BOSS, PCStable, MMHC, FGES, all with their defaults)
is fitted in a forked child with a time limit on data sampled from a bundled network
(discrete: its own CPTs; gaussian: a linear-Gaussian SEM on its DAG, the Auto-SLE recipe)
or from a random DAG generator (Erdos-Renyi and scale-free at several average degrees,
linear-Gaussian), for every n in ``--n`` and seed in ``--seeds``. A row records the SHD,
F1-adjacent and F1-arrowhead against the true DAG, the number of edges, the seconds and the
default score of the learned graph on the training data (through a consistent extension;
empty where the graph has none), so a rule that picks among learners' outputs by score can
be judged on the same rows. Rows are appended as they finish, so the grid resumes.

Usage::

    python -m examples.benchmarks.learner_grid --part discrete
    python -m examples.benchmarks.learner_grid --part gaussian
    python -m examples.benchmarks.learner_grid --part nonlinear --n 1000 --seeds 0 1 2 3 4
    python -m examples.benchmarks.learner_grid --part nongaussian --n 1000 --seeds 0 1 2 3 4
    python -m examples.benchmarks.learner_grid --report

The ``nonlinear`` and ``nongaussian`` parts (additive-noise data on random DAGs) also run
the learners made for such data (``SPECIALISTS``), so the default is checked against them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from examples.benchmarks._common import run_with_limit
from examples.benchmarks._results import result_path, write_manifest
from skbn.ci_tests import RCoT
from skbn.datasets import (
    load_network,
    make_additive_noise,
    make_erdos_renyi_dag,
    make_linear_gaussian,
    make_problem,
    make_scale_free_dag,
)
from skbn.learners import BOSS, FGES, MMHC, DirectLiNGAM, HillClimb, PCStable, TabuSearch
from skbn.metrics import f1_adjacency, f1_arrowhead, shd
from skbn.scores import BIC, BasisFunctionBIC, GaussianEBIC

LEARNERS = {
    "HillClimb": HillClimb,
    "TabuSearch": TabuSearch,
    "BOSS": BOSS,
    "PCStable": PCStable,
    "MMHC": MMHC,
    "FGES": FGES,
    # the best-optimum search: BOSS with a tabu polish of each settled DAG
    "BOSS-polish": lambda random_state=None: BOSS(polish=True, random_state=random_state),
}
#: The learners for data beyond the linear-Gaussian model, run on the nonlinear and
#: non-Gaussian parts beside the defaults above (which a user who names none gets).
SPECIALISTS = {
    "BOSS-basis": lambda random_state=None: BOSS(BasisFunctionBIC(), random_state=random_state),
    "PCStable-RCoT": lambda: PCStable(ci_test=RCoT(random_state=0)),
    "DirectLiNGAM": DirectLiNGAM,
}
ALL_LEARNERS = {**LEARNERS, **SPECIALISTS}
#: Additive-noise parts: (mechanism, noise) of ``make_additive_noise``. ``nonlinear``: a
#: nonlinear function per arc (sine, square, tanh or a Gaussian-process draw), Gaussian noise;
#: ``nongaussian``: linear arcs, uniform noise (the data LiNGAM identifies).
ADDITIVE_PARTS = {"nonlinear": ("mixed", "gaussian"), "nongaussian": ("linear", "uniform")}
#: The random graphs of the additive-noise parts.
ADDITIVE_PROBLEMS = ["er-d2-p20", "er-d4-p20", "er-d2-p50", "sf-d2-p50"]
# bundled networks up to a few hundred variables (the four 5-8 variable ones left out:
# every learner is exact or nearly so there)
NETWORKS = [
    "sachs",
    "child",
    "insurance",
    "water",
    "mildew",
    "alarm",
    "barley",
    "hailfinder",
    "hepar2",
    "win95pts",
    "pathfinder",
    "andes",
]
# the Gaussian part as run for the page: the networks up to win95pts (76 variables) and
# the random graphs (pathfinder and andes left out there for time)
GAUSSIAN_PROBLEMS = NETWORKS[:10] + [
    f"{kind}-d{degree}-p{p}" for p in (50, 100) for kind in ("er", "sf") for degree in (2, 4, 6)
]
# random generators for the Gaussian part: (label, generator, nodes, average degree)
RANDOM = [
    (f"{kind}-d{degree}-p{p}", kind, p, degree)
    for kind in ("er", "sf")
    for p in (50, 100)
    for degree in (2, 4, 6)
]


def make_data(part: str, problem: str, n: int, seed: int):
    """The data and true DAG of one grid cell."""
    if part == "discrete":
        bn = load_network(problem)
        X = bn.sample(n, random_state=seed)
        return X, bn.graph
    if problem in NETWORKS:
        return make_problem(problem, n_samples=n, kind="gaussian", random_state=seed)
    kind, degree, p = problem.split("-")
    p, degree = int(p[1:]), int(degree[1:])
    maker = make_erdos_renyi_dag if kind == "er" else make_scale_free_dag
    dag = maker(p, p * degree // 2, random_state=seed)
    if part in ADDITIVE_PARTS:
        mechanism, noise = ADDITIVE_PARTS[part]
        sem = make_additive_noise(dag, mechanism=mechanism, noise=noise, random_state=seed)
        return sem.sample(n, random_state=seed), dag
    sem = make_linear_gaussian(dag, random_state=seed)
    X = sem.sample(n, random_state=seed)
    X = (X - X.mean()) / X.std()
    return X, dag


def _fit(learner, X, truth, part) -> dict:
    """Fit one learner; the figures of its graph."""
    make = ALL_LEARNERS[learner]
    # every learner that draws random numbers is seeded (BOSS's orders; the others' tie keys)
    est = make(random_state=0) if "random_state" in make().get_params() else make()
    start = time.perf_counter()
    graph = est.fit(X).graph_
    seconds = time.perf_counter() - start
    score = BIC() if part == "discrete" else GaussianEBIC(gamma=1.0)
    try:
        value = score.score_graph(graph, X)
    except Exception:  # no consistent extension (PC can return one), or a cycle
        value = np.nan
    return {
        "seconds": seconds,
        "shd": shd(truth, graph),
        "f1_adjacent": f1_adjacency(truth, graph),
        "f1_arrowhead": f1_arrowhead(truth, graph),
        "edges": graph.number_of_edges(),
        "score": value,
    }


def run_cell(learner, X, truth, part, limit):
    """Fit in a forked child; None when it does not finish within ``limit`` seconds."""
    return run_with_limit(_fit, (learner, X, truth, part), limit)


def grid(args) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():
        old = pd.read_csv(out)
        done = set(zip(old.part, old.problem, old.n, old.seed, old.learner))
    if args.part in ADDITIVE_PARTS:
        problems = args.problems or ADDITIVE_PROBLEMS
    else:
        problems = args.problems or (
            NETWORKS if args.part == "discrete" else NETWORKS + [r[0] for r in RANDOM]
        )
    write_manifest(out)
    # compile the kernels once here, so no child's time includes numba's compilation
    X, truth = make_data(args.part, problems[0], 200, 0)
    for learner in args.learners:
        run_cell(learner, X, truth, args.part, args.limit)
    for seed in args.seeds:
        for n in args.n:
            for problem in problems:
                X = truth = None
                for learner in args.learners:
                    key = (args.part, problem, n, seed, learner)
                    if key in done:
                        continue
                    if X is None:
                        X, truth = make_data(args.part, problem, n, seed)
                    result = run_cell(learner, X, truth, args.part, args.limit)
                    row = {
                        "part": args.part,
                        "problem": problem,
                        "p": X.shape[1],
                        "true_arcs": truth.number_of_edges(),
                        "n": n,
                        "seed": seed,
                        "learner": learner,
                        "limit": args.limit,
                        **(
                            result
                            or dict.fromkeys(
                                ["seconds", "shd", "f1_adjacent", "f1_arrowhead", "edges", "score"],
                                np.nan,
                            )
                        ),
                    }
                    pd.DataFrame([row]).to_csv(out, mode="a", header=not out.exists(), index=False)
                    print(
                        f"{args.part} {problem:11s} n={n:6d} seed={seed} {learner:10s} "
                        f"SHD={row['shd']} F1-adj={row['f1_adjacent']:.3f} {row['seconds']:.1f}s",
                        flush=True,
                    )


# the rules the page compares: a fixed learner, or the best-scoring graph among several
# learners' (each fitted; the default score of the data kind decides)
RULES = {
    **{name: (name,) for name in ALL_LEARNERS},
    "best score of BOSS + TabuSearch": ("BOSS", "TabuSearch"),
    "best score of BOSS + TabuSearch + FGES": ("BOSS", "TabuSearch", "FGES"),
    "best score of BOSS-polish + FGES": ("BOSS-polish", "FGES"),
}
#: The rule the command line's default (``--learner auto``) follows.
CHOSEN = "BOSS-polish"
#: A rule is "near the best" in a cell when its mean SHD is within this share of the best
#: learner's (or one edge, where the best is 0).
NEAR = 0.10


def rule_table(table: pd.DataFrame) -> pd.DataFrame:
    """Per rule and cell (part, problem, n): the mean SHD over seeds and the fit time."""
    rows = []
    for (part, problem, n, seed), cell in table.groupby(["part", "problem", "n", "seed"]):
        cell = cell.set_index("learner")
        for rule, members in RULES.items():
            present = [m for m in members if m in cell.index]
            if len(present) < len(members):
                continue
            picked = cell.loc[present]
            if picked["shd"].isna().any():  # a member did not finish
                rows.append((part, problem, n, seed, rule, np.nan, np.nan))
                continue
            best = picked["score"].fillna(-np.inf).idxmax()
            rows.append(
                (part, problem, n, seed, rule, cell.loc[best, "shd"], picked["seconds"].sum())
            )
    out = pd.DataFrame(rows, columns=["part", "problem", "n", "seed", "rule", "shd", "seconds"])
    return out.groupby(["part", "problem", "n", "rule"], as_index=False)[["shd", "seconds"]].mean()


def report(csv: Path, page: Path | None = None) -> None:
    """Write the grid's page: each rule's SHD against the best learner's, cell by cell."""
    page = page or csv.with_suffix(".md")
    table = pd.read_csv(csv)
    rules = rule_table(table)
    single = rules[rules.rule.isin(list(ALL_LEARNERS))]
    best = single.groupby(["part", "problem", "n"])["shd"].min().rename("best")
    rules = rules.join(best, on=["part", "problem", "n"])
    rules["near"] = rules["shd"] <= np.maximum(rules["best"] * (1 + NEAR), rules["best"] + 1)
    lines = [
        "# Which learner by default: every learner on every bundled network",
        "",
        "Each learner runs with its defaults (seeded with `random_state=0` where it takes "
        "one) on data sampled from the bundled networks (discrete: the network's own CPTs; "
        "gaussian: a linear-Gaussian SEM on its DAG, columns standardised) and, for the "
        "gaussian part, from Erdos-Renyi (`er`) and scale-free (`sf`) random DAGs of 50 and "
        "100 variables at average degree 2, 4 and 6, at each n and seed. SHD is against the "
        "true DAG (CPDAGs compared, as everywhere in skbn); a cell is the mean over the "
        "seeds. A fit that did not finish within the limit counts as a miss for every rule "
        "that needs it. Times are one core each, with other jobs beside the grid: ratios, "
        "not figures to quote. `BOSS-polish` is `BOSS(polish=True)`. A 'best score' rule fits "
        "each learner it names and keeps the graph with the highest default score (BIC on "
        "discrete data, `GaussianEBIC(gamma=1)` on continuous data). Seeds 0 and 1 are the "
        "earlier runs (November 2026; the discrete ANDES, HEPAR2 and WIN95PTS cells at n <= "
        "1,000 re-run when the discrete default score became `EBIC(gamma='auto')`); seeds 2 "
        "to 4 were run on 2026-12-07 with that day's code.",
        "",
        "The `nonlinear` and `nongaussian` parts check the default beyond the linear-Gaussian "
        "model: additive-noise data (`make_additive_noise`, each variable standardised as it "
        "is generated) on Erdos-Renyi and scale-free DAGs of 20 and 50 variables, with a "
        "nonlinear function per arc and Gaussian noise (`nonlinear`) or linear arcs and "
        "uniform noise (`nongaussian`). Beside the defaults run three learners made for such "
        "data: `BOSS-basis` is `BOSS(BasisFunctionBIC())`, `PCStable-RCoT` is "
        "`PCStable(ci_test=RCoT(random_state=0))`, and `DirectLiNGAM` is `DirectLiNGAM()` "
        "(its DAG compared through its CPDAG, as every learner's is; an exactly right DAG "
        "scores 0). Those parts were run on 2026-12-08.",
        "",
        "## The rules",
        "",
        f"A rule is near the best in a cell when its SHD is within {NEAR:.0%} of the best "
        "single learner's there (or one edge above it).",
        "",
        "| rule | part | cells near the best | worst SHD / best | mean SHD / best | "
        "fit time / BOSS's (median) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    boss_time = rules[rules.rule == "BOSS"].set_index(["part", "problem", "n"])["seconds"]
    for rule in RULES:
        for part in sorted(rules.part.unique()):
            sub = rules[(rules.rule == rule) & (rules.part == part)]
            if sub.empty:
                continue
            ratio = (sub["shd"] + 1) / (sub["best"] + 1)
            speed = (sub.set_index(["part", "problem", "n"])["seconds"] / boss_time).median()
            missed = int(sub["shd"].isna().sum())
            lines.append(
                f"| {rule} | {part} | {int(sub['near'].sum())}/{len(sub)}"
                + (f" ({missed} unfinished)" if missed else "")
                + f" | {ratio.max():.2f} | {ratio.mean():.2f} | {speed:.2f} |"
            )
    lines += [
        "",
        "SHD ratios are taken as (SHD + 1) / (best + 1), so a cell whose best is 0 counts.",
        "",
    ]
    decision = [
        "## Decision",
        "",
        f"The default (`skbn.learners.default_learner`, the command line's `--learner auto`) "
        f"follows the rule **{CHOSEN}** up to 1,000 variables, on every kind of continuous "
        "data (the additive-noise parts say what that costs there).",
        "",
    ]
    for part in sorted(rules.part.unique()):
        sub = rules[rules.part == part].copy()
        sub["ratio"] = (sub["shd"] + 1) / (sub["best"] + 1)
        per_rule = sub.groupby("rule").agg(near=("near", "sum"), ratio=("ratio", "mean"))
        mine = per_rule.loc[CHOSEN]
        ties = [r for r in per_rule.index if r != CHOSEN and per_rule.loc[r, "near"] == mine.near]
        more = [r for r in per_rule.index if per_rule.loc[r, "near"] > mine.near]
        decision.append(
            f"- {part}: near the best in {int(mine.near)} of {(sub.rule == CHOSEN).sum()} "
            "cells, "
            + (
                f"fewer than {', '.join(more)}"
                if more
                else "the most of any rule" + (f" (tied with {', '.join(ties)})" if ties else "")
            )
            + f"; mean SHD / best {mine.ratio:.2f}, "
            + (
                "the lowest of any rule."
                if mine.ratio <= per_rule["ratio"].min() + 1e-12
                else f"against {per_rule['ratio'].min():.2f} for the lowest."
            )
        )
    decision += [
        "",
        "It is not near the best everywhere; the cells where it is more than 10% (and one "
        "edge) above the best learner:",
        "",
    ]
    chosen = rules[rules.rule == CHOSEN]
    for part in sorted(chosen.part.unique()):
        sub = chosen[(chosen.part == part) & ~chosen.near]
        winners = single.set_index(["part", "problem", "n", "rule"])["shd"]
        shown = []
        for r in sub.itertuples():
            cell = winners.loc[(r.part, r.problem, r.n)]
            shown.append(
                f"{r.problem} n = {r.n} ({r.shd:.1f} against {cell.idxmin()}'s {cell.min():.1f})"
                if np.isfinite(r.shd)
                else f"{r.problem} n = {r.n} (did not finish)"
            )
        decision.append(
            f"- {part}: {len(sub)} of {(chosen.part == part).sum()} cells"
            + (": " + "; ".join(shown) if shown else "")
            + "."
        )
    decision.append("")
    at = lines.index("## The rules")
    lines[at:at] = decision
    for part in sorted(table.part.unique()):
        sub = table[table.part == part]
        learners = [name for name in ALL_LEARNERS if name in set(sub.learner)]
        mean = sub.pivot_table(index=["problem", "n"], columns="learner", values="shd")
        size = sub.groupby("problem")["p"].first()
        seeds = sub.groupby(["problem", "n"])["seed"].nunique()
        lines += [
            f"## SHD of each learner, {part} data",
            "",
            "| problem | p | n | seeds | " + " | ".join(learners) + " |",
            "|---|---:|---:|---:|" + "---:|" * len(learners),
        ]
        for (problem, n), row in mean.iterrows():
            low = row[learners].min()
            cells = []
            for name in learners:
                value = row.get(name, np.nan)
                text = "-" if np.isnan(value) else f"{value:.1f}"
                cells.append(f"**{text}**" if value == low else text)
            lines.append(
                f"| {problem} | {size[problem]} | {n} | {seeds[(problem, n)]} | "
                + " | ".join(cells)
                + " |"
            )
        lines.append("")
    lines += [
        "## How to regenerate",
        "",
        "```bash",
        "python -m examples.benchmarks.learner_grid --part discrete --seeds 0 1 2 3 4 --limit 240",
        "python -m examples.benchmarks.learner_grid --part gaussian --seeds 0 1 2 3 4 \\",
        "    --limit 120 \\",
        "    --problems " + " ".join(GAUSSIAN_PROBLEMS),
        "python -m examples.benchmarks.learner_grid --part nonlinear --n 1000 \\",
        "    --seeds 0 1 2 3 4 --limit 120",
        "python -m examples.benchmarks.learner_grid --part nongaussian --n 1000 \\",
        "    --seeds 0 1 2 3 4 --limit 120",
        "python -m examples.benchmarks.learner_grid --report",
        "```",
        "",
    ]
    page.write_text("\n".join(lines) + "\n")
    write_manifest(page)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part", choices=["gaussian", "discrete", *ADDITIVE_PARTS], default="discrete"
    )
    parser.add_argument("--problems", nargs="+", help="network names or random labels")
    parser.add_argument(
        "--learners",
        nargs="+",
        choices=list(ALL_LEARNERS),
        help="default: the default learners, and the specialists on the additive-noise parts",
    )
    parser.add_argument("--n", nargs="+", type=int, default=[500, 1000, 10000])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--limit", type=float, default=300.0, help="seconds per fit")
    parser.add_argument("--out", default=result_path("learner_grid", "learner_grid.csv"))
    parser.add_argument("--report", action="store_true", help="write the page, run nothing")
    args = parser.parse_args(argv)
    if args.report:
        report(Path(args.out))
        return
    if args.learners is None:
        args.learners = list(ALL_LEARNERS if args.part in ADDITIVE_PARTS else LEARNERS)
    grid(args)


if __name__ == "__main__":
    main()
