# SPDX-License-Identifier: BSD-3-Clause
"""``skbn effect DATA GRAPH --treatment X --outcome Y``: a causal effect from a graph.

By adjustment, IDA or the front-door formula.
"""

from __future__ import annotations

from pathlib import Path

from skbn.cli._common import read_csv_checked, read_graph_arg

__all__ = ["add_parser", "run"]

EXAMPLE = """examples:
  skbn networks sample asia -n 5000 --out asia.csv
  skbn effect asia.csv asia --treatment smoke --outcome dysp --bootstrap 100
  skbn effect asia.csv asia --treatment smoke --outcome dysp --adjust minimal
  skbn learn asia.csv --learner hc --out dag.json
  skbn effect asia.csv dag.json --treatment smoke --outcome dysp
  skbn effect asia.csv asia --treatment smoke --outcome dysp --frontdoor --bootstrap 20
"""

#: One line for ``skbn --help``.
SUMMARY = "the causal effect of one column on another, given a graph (adjustment, IDA)"

_KINDS = ("optimal", "minimal", "parents", "canonical")


def add_parser(commands) -> None:
    """Register ``effect`` on the subparsers ``commands``."""
    import argparse

    effect = commands.add_parser(
        "effect",
        help=SUMMARY,
        description="With a DAG: the adjustment set and the effect estimated by adjusting "
        "for it (the regression coefficient on float columns, P(outcome | do(treatment)) by "
        "the adjustment formula on discrete ones), with a bootstrap interval. With a CPDAG "
        "(undirected edges): the same where the CPDAG is amenable to adjustment (every "
        "possibly causal path starts with an arc out of the treatment), otherwise, on "
        "continuous data, IDA's possible effects, one per parent set of the treatment the "
        "CPDAG allows. With a PAG (from the fci learners): the canonical adjustment set "
        "where the PAG is amenable (every possibly causal path starts with a visible arc). "
        "With --frontdoor and a DAG whose confounder has no column: the front-door formula "
        "through mediators that carry the whole effect.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    effect.add_argument("data", type=Path, help="CSV file, a column per node")
    effect.add_argument("graph", help="a graph file (.json, .graphml, .txt) or network file")
    effect.add_argument("--treatment", required=True, help="the column intervened on")
    effect.add_argument("--outcome", required=True, help="the column whose change is asked")
    effect.add_argument(
        "--adjust",
        default="optimal",
        help=f"{', '.join(_KINDS)} (default: optimal), or the set itself: NODE[,NODE...]",
    )
    effect.add_argument(
        "--bootstrap", type=int, default=0, help="resamples for a 95%% interval (default: 0)"
    )
    effect.add_argument("--seed", type=int, default=0, help="seed of the resamples")
    effect.add_argument(
        "--frontdoor",
        nargs="?",
        const="minimal",
        metavar="SET",
        help="estimate by the front-door formula instead, through mediators: minimal "
        "(the default of the flag), maximal, or NODE[,NODE...]; the graph is a DAG whose "
        "nodes without a column in DATA are hidden",
    )


def run(args) -> None:
    """Run ``skbn effect``."""
    import numpy as np

    from skbn.causal import adjusted_effect, ida, is_amenable
    from skbn.causal._adjustment import _is_mpdag
    from skbn.graph import is_cpdag, to_adjacency
    from skbn.graph._pag import MARK_KINDS

    if args.bootstrap < 0:
        raise ValueError(f"--bootstrap must be 0 or more; got {args.bootstrap}.")
    graph = read_graph_arg(args.graph, "GRAPH")
    for option, node in (("--treatment", args.treatment), ("--outcome", args.outcome)):
        if node not in graph:
            raise ValueError(f"{option} {node!r} is not a node of {args.graph}.")
    X = read_csv_checked(args.data)
    if args.frontdoor is not None:
        _run_frontdoor(args, X, graph)
        return
    undirected = any(graph.has_edge(v, u) for u, v in graph.edges())
    kind_of_graph = graph.graph.get("kind")
    if kind_of_graph in MARK_KINDS:
        if not is_amenable(graph, args.treatment, args.outcome):
            raise ValueError(
                f"{args.graph} is a {kind_of_graph.upper()} in which a possibly causal path "
                f"from {args.treatment} to {args.outcome} starts with an edge that is not a "
                "visible arc (a hidden confounder cannot be ruled out there): no set adjusts "
                "for the effect (the graph is not amenable)."
            )
        if args.adjust == "optimal":
            args.adjust = "canonical"  # a PAG has no optimal set; this one always adjusts
        print(
            f"graph       {args.graph}: a {kind_of_graph.upper()} in which every possibly "
            f"causal path from {args.treatment} starts with a visible arc, so one set "
            "adjusts in every model of the class"
        )
        undirected = False
    cpdag = undirected and is_cpdag(graph)
    mpdag = undirected and not cpdag and _is_mpdag((to_adjacency(graph) != 0).astype("int8"))
    if (cpdag or mpdag) and is_amenable(graph, args.treatment, args.outcome):
        name = "a CPDAG" if cpdag else "an MPDAG (a CPDAG oriented by knowledge)"
        print(
            f"graph       {args.graph}: {name} in which every possibly causal path from "
            f"{args.treatment} starts with an arc out of it, so one set adjusts in every DAG "
            "of the class"
        )
    elif undirected:
        name = "an MPDAG" if mpdag else "a CPDAG"
        if args.adjust != "optimal" or args.bootstrap:
            raise ValueError(
                f"{args.graph} is {name} whose undirected edges at {args.treatment} leave "
                f"the effect on {args.outcome} open (not amenable to adjustment): IDA lists "
                "the possible effects, with no adjustment set to choose and no bootstrap; "
                "orient the graph first to adjust."
            )
        effects = ida(X, graph, args.treatment, args.outcome)
        print(f"graph       {args.graph}: {name}, so the parents of {args.treatment} are open")
        print(f"IDA         {len(effects)} possible effects of {args.treatment} on {args.outcome}:")
        print("  " + ", ".join(f"{e:.4g}" for e in effects))
        print(f"range       {np.min(effects):.4g} to {np.max(effects):.4g}")
        return
    kind = args.adjust if args.adjust in _KINDS else None
    adjustment = kind or [v.strip() for v in args.adjust.split(",") if v.strip()]
    fit = adjusted_effect(
        X,
        graph,
        args.treatment,
        args.outcome,
        adjustment,
        n_bootstrap=args.bootstrap,
        random_state=args.seed,
    )
    shown = ", ".join(fit.adjustment) if fit.adjustment else "(nothing)"
    print(f"adjust for  {shown}" + (f"  ({kind} set)" if kind else ""))
    _print_effect(args, fit)


def _run_frontdoor(args, X, graph) -> None:
    """``--frontdoor``: the effect through a front-door set of mediators."""
    from skbn.causal import frontdoor_effect
    from skbn.causal._frontdoor import _KINDS as FRONTDOOR_KINDS

    if args.adjust != "optimal":
        raise ValueError("--frontdoor estimates through mediators; leave --adjust out with it.")
    kind = args.frontdoor if args.frontdoor in FRONTDOOR_KINDS else None
    mediators = kind or [v.strip() for v in args.frontdoor.split(",") if v.strip()]
    fit = frontdoor_effect(
        X,
        graph,
        args.treatment,
        args.outcome,
        mediators,
        n_bootstrap=args.bootstrap,
        random_state=args.seed,
    )
    hidden = sorted(str(v) for v in graph if v not in X.columns)
    print(
        f"graph       {args.graph}: a DAG"
        + (f" with {', '.join(hidden)} hidden (no column)" if hidden else "")
    )
    shown = ", ".join(fit.adjustment) if fit.adjustment else "(nothing)"
    print(f"mediators   {shown}" + (f"  ({kind} front-door set)" if kind else ""))
    _print_effect(args, fit)


def _print_effect(args, fit) -> None:
    """Print the estimate, and its interval when bootstrapped."""
    if isinstance(fit.estimate, float):
        interval = (
            f"  (95% bootstrap interval {fit.low:.4g} to {fit.high:.4g}, {args.bootstrap} "
            "resamples)"
            if args.bootstrap
            else ""
        )
        print(f"effect      {fit.estimate:.4g} per unit of {args.treatment}{interval}")
    else:
        print(f"P({args.outcome} | do({args.treatment})), a row per state of {args.treatment}:")
        print(fit.estimate.round(4).to_string())
        if args.bootstrap:
            print(f"95% bootstrap interval ({args.bootstrap} resamples), low and high:")
            print(fit.low.round(4).to_string())
            print(fit.high.round(4).to_string())
