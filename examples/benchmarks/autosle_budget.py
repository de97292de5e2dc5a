# SPDX-License-Identifier: BSD-3-Clause
"""How the disjoint-trained Auto-SLE ensemble's test accuracy moves with its training budget.

``autosle_training.py`` trains one ensemble on 20 problems from networks disjoint from the
Table V test networks. This script trains one ensemble per training budget (number of training
problems) and per training seed (which problems are drawn, and the sampler's seed), always with
the paper's credit and Gaussian BIC, then runs every learned ensemble, and its first member
alone, inside ``PEFLearner`` on the same Table V problems beside the paper's learned ensemble.
Each learned ensemble (and the paper's) also runs with its FGES members on skbn's default
Gaussian score, EBIC with gamma = 1 times the same penalty discount, rebuilt from the members
saved in the JSON, so runs of earlier invocations get that column without retraining.
The page reports, per budget, the mean and spread over training seeds, and how often the
clusters kept the output of the ensemble's least-penalised FGES member.

With ``--credits best selected`` each run is trained a second time with skbn's
``credit="selected"`` (each problem credits the member Gaussian BIC would pick), and the page
compares the two credits run by run.

The studies live in SQLite and resume; ``--merge`` keeps the test rows of an earlier run, so a
budget or a seed can be added without rerunning the rest.

Usage::

    python -m examples.benchmarks.autosle_budget --budgets 5 10 20 --train-seeds 0 1 \
        --train-max-nodes 1000 --out examples/benchmarks/results/autosle_budget/autosle_budget.md
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd
from optuna.distributions import IntDistribution
from sklearn.base import clone

from examples.benchmarks._results import ROOT, result_path, write_manifest
from examples.benchmarks.autosle_training import DISJOINT, member, with_default_score
from examples.reproduce_autosle import evaluate, saved_members, study_summary
from skbn.datasets import TRAINING_NETWORKS, make_problem, make_training_problems
from skbn.ensemble import AutoSLEEnsemble, StructureLearningEnsemble, default_search_space

PAPER, PAPER_EBIC = "P/SLE(paper)", "P/SLE(paper), EBIC"
ALL, FIRST, ALL_EBIC = "all members", "first member", "all members, EBIC"
SELECTED = 'all members, credit="selected"'


def study_name(problems: int, max_nodes: int, seed: int, credit: str = "best") -> str:
    """The SQLite study of one training run (budget, largest size, seed, credit)."""
    suffix = "" if credit == "best" else f"-{credit}"
    return f"autosle-disjoint-p{problems}-n{max_nodes}-s{seed}{suffix}"


def run_key(max_nodes: int, budget: int, seed: int, credit: str = "best") -> str:
    """The JSON key of one training run; the paper's credit keeps the plain key."""
    return f"{max_nodes}/{budget}/{seed}" + ("" if credit == "best" else f"/{credit}")


def rebuild(saved: list[list]) -> StructureLearningEnsemble:
    """The ensemble of a training run from its members as the JSON keeps them."""
    return StructureLearningEnsemble([(n, member(n, p)) for n, p in saved])


def least_penalised(members: list[tuple[str, dict]]) -> str | None:
    """The name of the FGES member with the smallest penalty discount (None without FGES)."""
    fges = [(float(p["penalty_discount"]), n) for n, p in members if n.startswith("fges")]
    return min(fges)[1] if fges else None


def kept_share(kept: pd.Series, name: str | None) -> float:
    """Share of the clusters (the rows' ``;``-joined lists; NaN: none) kept by ``name``."""
    clusters = [k for cell in kept.dropna() for k in str(cell).split(";") if k]
    if not clusters or name is None:
        return float("nan")
    return sum(k == name for k in clusters) / len(clusters)


def train(args, problems: int, max_nodes: int, seed: int, credit: str = "best") -> dict:
    """One Auto-SLE study; its members, gains, Q, time and sizes."""
    data = make_training_problems(
        problems,
        networks=args.train_networks,
        n_nodes=(5, max_nodes),
        n_samples=1000,
        random_state=seed,
    )
    space = default_search_space(paper=True)
    space["pc_stable"][1]["max_cond_size"] = IntDistribution(1, args.pc_depth_cap)
    auto = AutoSLEEnsemble(
        space,
        ensemble_size=args.ensemble_size,
        n_trials=args.trials,
        problems=data,
        credit=credit,
        storage=args.storage,
        study_name=study_name(problems, max_nodes, seed, credit),
        n_jobs=args.jobs,
        random_state=seed,
        verbose=1,
    ).learn_members()
    members, seconds = study_summary(auto)
    return dict(
        auto=auto,
        members=members,
        gains=list(auto.gains_),
        quality=auto.quality_,
        seconds=seconds,
        sizes=sorted(X.shape[1] for X, _ in data),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", nargs="+", type=int, default=[5, 10, 20])
    parser.add_argument(
        "--train-seeds",
        nargs="*",
        type=int,
        default=[0, 1],
        help="training seeds; none trains nothing and only tests the runs the JSON holds",
    )
    parser.add_argument("--train-networks", nargs="+", default=list(DISJOINT))
    parser.add_argument(
        "--train-max-nodes",
        nargs="+",
        type=int,
        default=[1000],
        help="largest training problem size(s); each is crossed with every budget",
    )
    parser.add_argument("--trials", type=int, default=20, help="trials per greedy step")
    parser.add_argument(
        "--credits",
        nargs="+",
        choices=["best", "selected"],
        default=["best"],
        help="the paper's credit (best) and/or skbn's selection credit; one study each",
    )
    parser.add_argument("--ensemble-size", type=int, default=4)
    parser.add_argument("--test-seeds", type=int, default=1, help="test problems per network")
    parser.add_argument("--test-networks", nargs="+", default=list(TRAINING_NETWORKS))
    parser.add_argument("--pc-depth-cap", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--storage", default="sqlite:///autosle_training.db")
    parser.add_argument(
        "--merge", action="store_true", help="keep the test rows of an earlier run's CSV"
    )
    parser.add_argument("--out", type=Path, default=result_path("autosle_budget"))
    args = parser.parse_args()
    overlap = sorted(set(args.train_networks) & set(TRAINING_NETWORKS))
    if overlap:
        raise SystemExit(f"--train-networks overlaps the test networks: {overlap}")
    if min(args.budgets) < 1 or args.test_seeds < 1 or min(args.train_max_nodes) < 5:
        raise SystemExit("--budgets and --test-seeds must be positive, --train-max-nodes >= 5")

    csv, summary = args.out.with_suffix(".csv"), args.out.with_suffix(".json")
    rows, runs = [], {}
    if args.merge and csv.exists():
        rows = pd.read_csv(csv).to_dict("records")
        runs = json.loads(summary.read_text(encoding="utf-8"))["runs"]
    done = {
        (r["max_nodes"], r["budget"], r["train_seed"], r["variant"], r["network"], r["seed"])
        for r in rows
    }

    ensembles = {(0, 0, -1, PAPER): StructureLearningEnsemble.from_paper()}
    for credit in args.credits:
        for max_nodes in args.train_max_nodes:
            for budget in args.budgets:
                for seed in args.train_seeds:
                    run = train(args, budget, max_nodes, seed, credit)
                    key = run_key(max_nodes, budget, seed, credit)
                    print(f"{key}: {run['members']} {run['gains']}", flush=True)
                    auto = run.pop("auto")
                    if credit == "best":
                        ensembles[(max_nodes, budget, seed, ALL)] = auto.to_ensemble()
                        first_name, first = auto.members_[0]
                        ensembles[(max_nodes, budget, seed, FIRST)] = StructureLearningEnsemble(
                            [(first_name, clone(first))]
                        )
                    else:
                        ensembles[(max_nodes, budget, seed, SELECTED)] = auto.to_ensemble()
                    runs[key] = {
                        **run,
                        "members": saved_members(run["members"]),
                        "trials": args.trials,
                    }

    # every run of the paper's credit, this invocation's or an earlier one's, on skbn's
    # default Gaussian score
    ensembles[(0, 0, -1, PAPER_EBIC)] = with_default_score(StructureLearningEnsemble.from_paper())
    for key, run in runs.items():
        if _credit(key) == "best":
            ensembles[(*_run_key(key), ALL_EBIC)] = with_default_score(rebuild(run["members"]))

    for network in args.test_networks:
        for seed in range(args.test_seeds):
            X, truth = make_problem(network, n_nodes=1000, n_samples=1000, random_state=100 + seed)
            for (max_nodes, budget, train_seed, variant), est in ensembles.items():
                if (max_nodes, budget, train_seed, variant, network, seed) in done:
                    continue
                row = evaluate(variant, est, X, truth, args.jobs)
                rows.append(
                    dict(
                        max_nodes=max_nodes,
                        budget=budget,
                        train_seed=train_seed,
                        variant=variant,
                        network=network,
                        p=X.shape[1],
                        seed=seed,
                        **row,
                    )
                )
                print(network, seed, max_nodes, budget, train_seed, variant, row, flush=True)
    frame = pd.DataFrame(rows)
    frame.to_csv(csv, index=False)
    summary.write_text(json.dumps({"runs": runs}, indent=1), encoding="utf-8")
    write_page(args, frame, runs)
    print(args.out.read_text())


def _mean_sd(values: pd.Series) -> str:
    values = values.dropna()
    if len(values) < 2:
        return f"{values.mean():.3f}"
    return f"{values.mean():.3f} ± {values.std(ddof=1):.3f}"


def _short(name: str, params: dict) -> str:
    """One member in a few characters: FGES's penalty discount, PC-Stable's alpha and depth."""
    if name.startswith("fges"):
        return f"FGES {params['penalty_discount']:.3g}"
    return f"PC {params['alpha']:.2g}/{params['max_cond_size']}"


def _credit(key: str) -> str:
    """The credit of a ``runs`` key (see :func:`run_key`)."""
    parts = key.split("/")
    return parts[3] if len(parts) > 3 else "best"


def _run_key(key: str) -> tuple[int, int, int]:
    """A ``runs`` key, ``"max_nodes/budget/seed"``, as numbers."""
    max_nodes, budget, seed = map(int, key.split("/")[:3])
    return max_nodes, budget, seed


def write_page(args, frame: pd.DataFrame, runs: dict) -> None:
    keys = sorted(_run_key(k) for k in runs if _credit(k) == "best")
    chosen = sorted(_run_key(k) for k in runs if _credit(k) == "selected")

    def grid(ks):
        return tuple(" ".join(map(str, sorted({k[i] for k in ks}))) for i in range(3))

    sizes, budgets, seeds = grid(keys)
    out = args.out.resolve()
    out = out.relative_to(ROOT) if out.is_relative_to(ROOT) else args.out
    group = ["max_nodes", "budget", "train_seed", "variant"]
    # per training run and variant: test means over the Table V problems
    per_run = frame.groupby(group)[["f1_adjacency", "f1_arrowhead"]].mean().reset_index()
    n_problems = frame[["network", "seed"]].drop_duplicates().shape[0]
    paper = per_run[per_run.variant == PAPER].iloc[0]
    paper_ebic = per_run[per_run.variant == PAPER_EBIC]

    def pick(table, max_nodes, budget, variant, seed=None):
        mask = (table.max_nodes == max_nodes) & (table.budget == budget)
        mask &= table.variant == variant
        if seed is not None:
            mask &= table.train_seed == seed
        return table[mask]

    lines = [
        "# Auto-SLE: test accuracy against training budget",
        "",
        f"Regenerate with `python -m examples.benchmarks.autosle_budget --budgets {budgets} "
        f"--train-seeds {seeds} --train-max-nodes {sizes} --trials {args.trials} --jobs "
        f"{args.jobs} --out {out}` (studies kept in `{args.storage}`; they resume, and "
        f"`--merge` keeps earlier test rows)"
        + (
            ", then `... --credits selected --budgets {1} --train-seeds {2} --train-max-nodes "
            "{0} --merge` for the selection credit".format(*grid(chosen))
            if chosen
            else ""
        )
        + f". Raw rows in `{args.out.with_suffix('.csv').name}`.",
        "",
        "Each training run draws its own problems from the networks disjoint from the test "
        f"networks ({', '.join(args.train_networks)}; problem k uses the k-th network, so "
        "small budgets see fewer networks), sizes log-uniform from 5 to the run's largest "
        "size, replicated with 10% cross arcs, linear-Gaussian, n = 1,000. It runs "
        f"{args.trials} TPE trials per greedy step for {args.ensemble_size} members with the "
        "paper's credit (each problem credits its best member) and FGES on Gaussian BIC times "
        "the penalty discount, as the paper trains. The training seed sets the problems drawn "
        "and the sampler. Every learned ensemble, and its first member alone, then runs "
        f"inside `PEFLearner` on the same {n_problems} Table V problems (~1,000 variables; "
        "each cluster's output picked by Gaussian BIC), beside the paper's learned ensemble. "
        "The `EBIC` columns run the same ensembles (the paper's too) with their FGES members "
        "on skbn's default Gaussian score instead, EBIC with gamma = 1 times the same "
        "penalty discount; the output is still picked by Gaussian BIC. "
        "The paper trained with far more (100 problems, SMAC for 12 h per step); these are "
        "budgets a 2-core machine runs in about an hour, to show the direction.",
        "",
        "## Per training run",
        "",
        "| largest size | budget | training seed | training sizes | members (FGES: penalty "
        "discount; PC: alpha/depth) | Q | trials (min) | all members | first member "
        "| clusters kept by the least-penalised FGES | all members, EBIC |",
        "|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for max_nodes, budget, seed in keys:
        run = runs[run_key(max_nodes, budget, seed)]
        members = _members(run)
        cells = {
            v: _cell(pick(per_run, max_nodes, budget, v, seed)) for v in (ALL, FIRST, ALL_EBIC)
        }
        share = kept_share(
            pick(frame, max_nodes, budget, ALL, seed)["kept"], least_penalised(members)
        )
        lines.append(
            f"| {max_nodes} | {budget} | {seed} | {', '.join(map(str, run['sizes']))} | "
            f"{'; '.join(_short(n, p) for n, p in members)} | {run['quality']:.3f} | "
            f"{run['seconds'] / 60:.1f} | {cells[ALL]} | {cells[FIRST]} | "
            f"{'no FGES' if share != share else f'{share:.0%}'} | "
            f"{cells[ALL_EBIC]} |"
        )
    lines += [
        "",
        "Cells: F1-adjacent / F1-arrowhead, mean over the test problems. Q is the training "
        "quality (F1-adjacent + F1-arrowhead of the best member, mean over the training "
        "problems, out of 2). The kept column is the share of the test clusters whose "
        "output Gaussian BIC took from the ensemble's least-penalised FGES member (no FGES: "
        "the ensemble has only PC-Stable members).",
        "",
        "## Per budget",
        "",
        "Mean ± standard deviation over the training seeds of the per-run means above; the "
        "gaps are F1-adjacent minus P/SLE(paper)'s on the same problems (on Gaussian BIC, the "
        "paper's score, in every gap column).",
        "",
        "| largest size | budget | runs | all members, F1-adjacent | all members, "
        "F1-arrowhead | first member, F1-adjacent | first member, F1-arrowhead | gap, all "
        "members | gap, first member | all members on EBIC, F1-adjacent | all members on "
        "EBIC, F1-arrowhead | gap, all members on EBIC |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for max_nodes, budget in sorted({k[:2] for k in keys}):
        a = pick(per_run, max_nodes, budget, ALL)
        f = pick(per_run, max_nodes, budget, FIRST)
        e = pick(per_run, max_nodes, budget, ALL_EBIC)
        lines.append(
            f"| {max_nodes} | {budget} | {len(a)} | {_mean_sd(a.f1_adjacency)} | "
            f"{_mean_sd(a.f1_arrowhead)} | {_mean_sd(f.f1_adjacency)} | "
            f"{_mean_sd(f.f1_arrowhead)} | {_mean_sd(a.f1_adjacency - paper.f1_adjacency)} | "
            f"{_mean_sd(f.f1_adjacency - paper.f1_adjacency)} | {_mean_sd(e.f1_adjacency)} | "
            f"{_mean_sd(e.f1_arrowhead)} | {_mean_sd(e.f1_adjacency - paper.f1_adjacency)} |"
        )
    lines += [
        "",
        f"P/SLE(paper) on the same problems: {paper.f1_adjacency:.3f} / "
        f"{paper.f1_arrowhead:.3f} (F1-adjacent / F1-arrowhead)"
        + (
            f"; on EBIC: {paper_ebic.f1_adjacency.iloc[0]:.3f} / "
            f"{paper_ebic.f1_arrowhead.iloc[0]:.3f}."
            if len(paper_ebic)
            else "."
        ),
    ]
    if chosen:
        lines += [
            "",
            "## The selection credit",
            "",
            'The same training problems, seeds and trials with `credit="selected"` (skbn\'s '
            "extension: each problem credits the member Gaussian BIC would pick, as the ensemble "
            "does on new data), beside the paper's credit from the tables above. The difference "
            "is in F1-adjacent, selection credit minus the paper's.",
            "",
            "| largest size | budget | training seed | members | Q | trials (min) | "
            "credit selected | credit best | difference |",
            "|---:|---:|---:|---|---:|---:|---:|---:|---:|",
        ]
        # each selection-credit run beside the paper's-credit run of the same problems
        paired = pd.merge(
            per_run[per_run.variant == SELECTED],
            per_run[per_run.variant == ALL],
            on=["max_nodes", "budget", "train_seed"],
            how="left",
            suffixes=("", "_best"),
        )
        paired["diff"] = paired.f1_adjacency - paired.f1_adjacency_best
        for max_nodes, budget, seed in chosen:
            run = runs[run_key(max_nodes, budget, seed, "selected")]
            sel = pick(per_run, max_nodes, budget, SELECTED, seed)
            best = pick(per_run, max_nodes, budget, ALL, seed)
            diff = pick(paired, max_nodes, budget, SELECTED, seed)["diff"]
            lines.append(
                f"| {max_nodes} | {budget} | {seed} | "
                f"{'; '.join(_short(n, p) for n, p in _members(run))} | {run['quality']:.3f} | "
                f"{run['seconds'] / 60:.1f} | {_cell(sel)} | {_cell(best)} | "
                f"{diff.iloc[0] if len(diff) else float('nan'):+.3f} |"
            )
        lines += [
            "",
            "| largest size | budget | runs | credit selected, F1-adjacent | credit best, "
            "F1-adjacent | difference | gap to P/SLE(paper), credit selected |",
            "|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for max_nodes, budget in sorted({k[:2] for k in chosen}):
            g = paired[(paired.max_nodes == max_nodes) & (paired.budget == budget)]
            lines.append(
                f"| {max_nodes} | {budget} | {len(g)} | {_mean_sd(g.f1_adjacency)} | "
                f"{_mean_sd(g.f1_adjacency_best)} | {_mean_sd(g['diff'])} | "
                f"{_mean_sd(g.f1_adjacency - paper.f1_adjacency)} |"
            )
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    write_manifest(args.out)


def _members(run: dict) -> list[tuple[str, dict]]:
    """A run's members as the JSON keeps them, with numbers back as numbers."""
    return [(n, {k: _parse(v) for k, v in p.items()}) for n, p in run["members"]]


def _cell(rows: pd.DataFrame) -> str:
    """F1-adjacent / F1-arrowhead of a one-row selection, or empty when nothing ran."""
    if not len(rows):
        return ""
    return f"{rows.f1_adjacency.iloc[0]:.3f} / {rows.f1_arrowhead.iloc[0]:.3f}"


def _parse(value: str):
    """A member parameter saved as text, back as a number where it is one."""
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return value


if __name__ == "__main__":
    main()
