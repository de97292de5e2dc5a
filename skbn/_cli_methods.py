# SPDX-License-Identifier: BSD-3-Clause
"""The ``skbn`` subcommands for the meta-estimators: tune, compare, bootstrap, pef, autosle."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

__all__ = ["add_method_commands", "run_method_command"]

#: Learner specs of ``compare``/``bootstrap``/``pef``: NAME[:SCORE].
SPEC_HELP = (
    "learner spec NAME[:SCORE], NAME one of hc, tabu, fges, pc, mmhc, exact, mcmc and SCORE "
    "one of bic, aic, ebic, bdeu, k2, fnml, bge (e.g. hc:bdeu)"
)


def _learner_from_spec(spec: str, kind: str, random_state: int):
    from skbn.cli import LEARNERS, SCORES, _make_learner, _make_score

    name, _, score = spec.partition(":")
    if name not in LEARNERS:
        raise ValueError(f"unknown learner {name!r} in {spec!r}; choose from {LEARNERS}.")
    if score and score not in SCORES:
        raise ValueError(f"unknown score {score!r} in {spec!r}; choose from {SCORES}.")
    options = argparse.Namespace(
        learner=name,
        alpha=0.05,
        max_indegree=None,
        max_degree=None,
        random_state=random_state,
        penalty_discount=1.0,
        gamma=0.5,
        iss=1.0,
    )
    criterion = _make_score(score or "bic", kind, options)
    return _make_learner(options, criterion, None)


def _parse_value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def _parse_grid(items: list[str]) -> dict:
    grid = {}
    for item in items:
        name, sep, values = item.partition("=")
        if not sep or not values:
            raise ValueError(f"--param expects NAME=V1,V2,..., got {item!r}.")
        grid[name.strip()] = [_parse_value(v.strip()) for v in values.split(",")]
    return grid


def add_method_commands(commands, add_source) -> None:
    """Register tune, compare, bootstrap, pef and autosle on the subparsers ``commands``."""
    tune = commands.add_parser(
        "tune",
        help="tune a learner's hyperparameters out of sample (OTSL)",
        description="Out-of-sample tuning (OTSLSearchCV): fit every configuration on bootstrap "
        "training sets and score its structure on out-of-bag data; refit the best on all rows.",
    )
    add_source(tune)
    tune.add_argument("--learner", default="hc:aic", help=SPEC_HELP + " (default: hc:aic)")
    tune.add_argument(
        "--param",
        action="append",
        required=True,
        metavar="NAME=V1,V2,...",
        help="a hyperparameter and its values, e.g. criterion__penalty_discount=1,2,4,8 "
        "(repeat for a grid)",
    )
    tune.add_argument(
        "--scoring",
        default="bic",
        help="structure scorer: ebic, bdeu, bic, aic or loglik, or 'normalised-ebic:P' for "
        "OTSL's EBIC with gamma = (P - 1) / P_max (default: bic)",
    )
    tune.add_argument("--resamples", type=int, default=10, help="bootstrap rounds (default: 10)")
    tune.add_argument("--plot", type=Path, help="draw the score against the first --param")
    tune.add_argument("--out", type=Path, help="write the chosen structure")
    tune.add_argument("--results", type=Path, help="write every configuration's score (CSV)")

    compare = commands.add_parser(
        "compare",
        help="compare learners without ground truth (Intersection-Validation)",
        description="Intersection-Validation: the learners' agreement graph on all rows is the "
        "reference; each learner's partial Hamming distance to it on subsamples ranks them.",
    )
    add_source(compare, n_default=1600)
    compare.add_argument(
        "--learners", nargs="+", required=True, metavar="SPEC", help=SPEC_HELP + "; two or more"
    )
    compare.add_argument(
        "--sizes",
        nargs="+",
        type=int,
        default=None,
        help="subsample sizes (default: 100, 200, ...)",
    )
    compare.add_argument("--subsamples", type=int, default=10, help="per size (default: 10)")
    compare.add_argument("--plot", type=Path, help="draw the PHD learning curves")
    compare.add_argument("--out", type=Path, help="write every subsample's PHD (CSV)")

    boot = commands.add_parser(
        "bootstrap",
        help="bootstrap arc strengths, an averaged graph or a poset-based graph",
        description="Fit a learner on bootstrap resamples: arc strengths and their averaged "
        "graph, or with --poset Caravagna & Ramazzotti's BootstrapPosetLearner.",
    )
    add_source(boot)
    boot.add_argument("--learner", default="hc", help=SPEC_HELP + " (default: hc)")
    boot.add_argument("--resamples", type=int, default=100, help="(default: 100)")
    boot.add_argument("--threshold", type=float, default=0.5, help="averaging threshold")
    boot.add_argument("--poset", action="store_true", help="use BootstrapPosetLearner")
    boot.add_argument("--plot", type=Path, help="draw the arc-strength heat map")
    boot.add_argument("--graph-plot", type=Path, help="draw the resulting graph")
    boot.add_argument("--out", type=Path, help="write the resulting graph")
    boot.add_argument("--strengths", type=Path, help="write the arc strengths (CSV)")

    pef = commands.add_parser(
        "pef",
        help="learn a large Gaussian network by partition, estimation and fusion",
        description="PEFLearner: cluster the variables, learn each cluster, fuse the pieces.",
    )
    add_source(pef, n_default=1000)
    pef.add_argument(
        "--learner",
        default="fges",
        help=SPEC_HELP + "; or 'sle-paper' for the Auto-SLE paper's ensemble (default: fges)",
    )
    pef.add_argument("--plot", type=Path, help="draw the cluster sizes")
    pef.add_argument("--graph-plot", type=Path, help="draw the fused graph (small networks)")
    pef.add_argument("--out", type=Path, help="write the fused graph")

    auto = commands.add_parser(
        "autosle",
        help="learn a structure-learning ensemble with Auto-SLE (Optuna), optionally apply it",
        description="Learn ensemble members greedily on generated training problems; with a "
        "data source, run the ensemble (inside PEF with --pef) on it.",
    )
    add_source(auto, n_default=1000, required=False)
    auto.add_argument("--problems", type=int, default=20, help="training problems (default: 20)")
    auto.add_argument("--max-nodes", type=int, default=100, help="largest training problem")
    auto.add_argument("--trials", type=int, default=20, help="trials per member (default: 20)")
    auto.add_argument("--ensemble-size", type=int, default=4, help="(default: 4)")
    auto.add_argument("--storage", help="Optuna storage URL, e.g. sqlite:///autosle.db")
    auto.add_argument("--study-name", help="study name (default: derived from the settings)")
    auto.add_argument("--timeout", type=float, default=None, help="seconds")
    auto.add_argument("--pef", action="store_true", help="apply the ensemble inside PEF")
    auto.add_argument("--members", type=Path, help="write the learned members (JSON)")
    auto.add_argument("--out", type=Path, help="write the learned graph")
    auto.add_argument("--plot", type=Path, help="draw the learned graph")


def _scorer(text: str):
    from skbn.model_selection import get_structure_scorer, make_normalised_ebic_scorer

    if text.startswith("normalised-ebic:"):
        return make_normalised_ebic_scorer(int(text.split(":", 1)[1]))
    return get_structure_scorer(text)


def _tune(args, load_source, save_outputs, save_figure) -> None:
    import pandas as pd

    from skbn.data import check_data
    from skbn.metrics import structure_report
    from skbn.model_selection import OTSLSearchCV

    X, truth, source = load_source(args)
    kind = check_data(X).kind
    learner = _learner_from_spec(args.learner, kind, args.random_state)
    grid = _parse_grid(args.param)
    valid = learner.get_params(deep=True)
    unknown = [name for name in grid if name not in valid]
    if unknown:
        raise ValueError(
            f"{type(learner).__name__} has no parameter {unknown}; its parameters are "
            f"{sorted(valid)}."
        )
    start = time.perf_counter()
    search = OTSLSearchCV(
        learner,
        grid,
        scoring=_scorer(args.scoring),
        n_resamples=args.resamples,
        random_state=args.random_state,
        n_jobs=args.jobs,
        verbose=0 if args.quiet else 1,
    ).fit(X)
    print(f"data        {source}")
    print(f"learner     {learner!r}")
    print(f"chosen      {search.best_params_} in {time.perf_counter() - start:.1f} s")
    table = pd.DataFrame(search.cv_results_["params"])
    table["mean_score"] = search.cv_results_["mean_test_score"]
    print(table.to_string(index=False))
    if truth is not None:
        print("\nchosen structure against the true network:")
        print(structure_report(truth, search.graph_))
    if args.results:
        table.to_csv(args.results, index=False)
        print(f"results     written to {args.results}")
    if args.plot:
        from skbn.plotting import plot_search_curve

        save_figure(plot_search_curve(search, param=next(iter(grid))), args.plot)
    save_outputs(search.graph_, argparse.Namespace(out=args.out, plot=None), "", truth)


def _compare(args, load_source, save_figure) -> None:
    from skbn.data import check_data
    from skbn.model_selection import intersection_validate

    X, truth, source = load_source(args)
    kind = check_data(X).kind
    if len(args.learners) < 2:
        raise ValueError("compare needs at least two learners.")
    learners = {s: _learner_from_spec(s, kind, args.random_state) for s in args.learners}
    sizes = args.sizes or [100 * 2**k for k in range(12) if 100 * 2**k < len(X)]
    if not sizes:
        raise ValueError(f"no subsample size below the {len(X)} rows; pass --sizes.")
    result = intersection_validate(
        learners,
        X,
        sample_sizes=sizes,
        n_subsamples=args.subsamples,
        random_state=args.random_state,
        n_jobs=args.jobs,
        true_graph=truth,
    )
    agreement = result.agreement
    print(f"data        {source}")
    print(
        f"agreement   {agreement.relative_size:.0%} of node pairs, "
        f"{agreement.n_connected_pairs} connected"
        + ("" if result.reliable else "  (below the paper's thresholds: do not trust it)")
    )
    print(result.summary.to_string(index=False))
    print("\nranking (1 = closest to the agreement graph):")
    print(result.ranking.to_string())
    if args.out:
        result.results.to_csv(args.out, index=False)
        print(f"results     written to {args.out}")
    if args.plot:
        from skbn.plotting import plot_interval_curves

        save_figure(plot_interval_curves(result), args.plot)


def _bootstrap(args, load_source, save_outputs, save_figure) -> None:
    from skbn.data import check_data
    from skbn.ensemble import BootstrapPosetLearner, bootstrap_edge_frequencies
    from skbn.plotting import plot_edge_strengths

    X, truth, source = load_source(args)
    kind = check_data(X).kind
    learner = _learner_from_spec(args.learner, kind, args.random_state)
    start = time.perf_counter()
    print(f"data        {source}")
    if args.poset:
        est = BootstrapPosetLearner(
            learner,
            n_poset_resamples=args.resamples,
            n_test_resamples=args.resamples,
            random_state=args.random_state,
            n_jobs=args.jobs,
        ).fit(X)
        graph = est.graph_
        print(f"poset arcs  {est.poset_.number_of_edges()}, kept arcs {graph.number_of_edges()}")
        strengths_source = est
        if args.strengths:
            est.edge_pvalues_.to_csv(args.strengths, index=False)
    else:
        freqs = bootstrap_edge_frequencies(
            learner,
            X,
            n_resamples=args.resamples,
            random_state=args.random_state,
            n_jobs=args.jobs,
        )
        graph = freqs.averaged_graph(args.threshold)
        strong = freqs.table[freqs.table["strength"] >= args.threshold]
        print(f"arcs        {len(strong)} pairs with strength >= {args.threshold}")
        print(freqs.table.sort_values("strength", ascending=False).head(15).to_string(index=False))
        strengths_source = freqs
        if args.strengths:
            freqs.table.to_csv(args.strengths, index=False)
    print(f"done        in {time.perf_counter() - start:.1f} s")
    if args.strengths:
        print(f"strengths   written to {args.strengths}")
    if truth is not None:
        from skbn.metrics import structure_report

        print("\nagainst the true network:")
        print(structure_report(truth, graph))
    if args.plot:
        save_figure(plot_edge_strengths(strengths_source, threshold=args.threshold), args.plot)
    save_outputs(graph, argparse.Namespace(out=args.out, plot=args.graph_plot), "bootstrap", truth)


def _pef(args, load_source, save_outputs, save_figure) -> None:
    from skbn.ensemble import PEFLearner, StructureLearningEnsemble
    from skbn.metrics import structure_report
    from skbn.plotting import plot_cluster_sizes

    X, truth, source = load_source(args, default_kind="gaussian")
    if args.learner == "sle-paper":
        estimator = StructureLearningEnsemble.from_paper()
    else:
        estimator = _learner_from_spec(args.learner, "gaussian", args.random_state)
    start = time.perf_counter()
    pef = PEFLearner(
        estimator, n_jobs=args.jobs, random_state=args.random_state, verbose=0 if args.quiet else 1
    ).fit(X)
    times = ", ".join(f"{k} {v:.1f} s" for k, v in pef.fit_times_.items())
    print(f"data        {source}")
    print(f"clusters    {len(pef.clusters_)}: sizes {sorted(map(len, pef.clusters_))[::-1]}")
    print(f"fusion      {pef.n_cross_arcs_} arcs added between clusters")
    print(f"time        {time.perf_counter() - start:.1f} s ({times})")
    if truth is not None:
        print("\nagainst the true network:")
        print(structure_report(truth, pef.graph_))
    if args.plot:
        save_figure(plot_cluster_sizes(pef), args.plot)
    save_outputs(pef.graph_, argparse.Namespace(out=args.out, plot=args.graph_plot), "PEF", truth)


def _autosle(args, load_source, save_outputs) -> None:
    from skbn.datasets import make_training_problems
    from skbn.ensemble import AutoSLEEnsemble, PEFLearner
    from skbn.ensemble._slots import open_storage

    open_storage(args.storage)  # a bad URL fails before the problems are generated
    start = time.perf_counter()
    problems = make_training_problems(
        args.problems, n_nodes=(5, args.max_nodes), random_state=args.random_state
    )
    auto = AutoSLEEnsemble(
        ensemble_size=args.ensemble_size,
        n_trials=args.trials,
        problems=problems,
        storage=args.storage,
        study_name=args.study_name,
        timeout=args.timeout,
        n_jobs=args.jobs,
        random_state=args.random_state,
        verbose=0 if args.quiet else 1,
    ).learn_members()
    print(f"learned     {len(auto.members_)} members in {time.perf_counter() - start:.1f} s")
    for (name, est), gain in zip(auto.members_, auto.gains_):
        print(f"  {name:<14} gain {gain:.4f}  {est!r}")
    print(f"training Q  {auto.quality_:.3f} (F1-adjacent + F1-arrowhead, best member per problem)")
    if args.members:
        members = [
            {"name": n, "learner": type(e).__name__, "params": e.get_params(deep=False)}
            for n, e in auto.members_
        ]
        text = json.dumps({"members": members, "gains": auto.gains_}, indent=1, default=str)
        Path(args.members).write_text(text, encoding="utf-8")
        print(f"members     written to {args.members}")
    if not (args.data or args.network):
        return
    X, truth, source = load_source(args, default_kind="gaussian")
    ensemble = auto.to_ensemble()
    learner = PEFLearner(ensemble, n_jobs=args.jobs) if args.pef else ensemble
    learner.fit(X)
    print(f"\ndata        {source}")
    if truth is not None:
        from skbn.metrics import structure_report

        print("against the true network:")
        print(structure_report(truth, learner.graph_))
    save_outputs(learner.graph_, args, "Auto-SLE", truth)


def run_method_command(args, load_source, save_outputs, save_figure) -> bool:
    """Run ``args.command`` if it is one of this module's; return whether it was."""
    if args.command == "tune":
        _tune(args, load_source, save_outputs, save_figure)
    elif args.command == "compare":
        _compare(args, load_source, save_figure)
    elif args.command == "bootstrap":
        _bootstrap(args, load_source, save_outputs, save_figure)
    elif args.command == "pef":
        _pef(args, load_source, save_outputs, save_figure)
    elif args.command == "autosle":
        _autosle(args, load_source, save_outputs)
    else:
        return False
    return True
