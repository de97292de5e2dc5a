# SPDX-License-Identifier: BSD-3-Clause
"""The ``skbn`` command.

``skbn learn`` learns a structure from a CSV file, or from data it samples from a bundled
network (then it also prints a structure report against the true network); ``skbn tune``
(OTSL), ``compare`` (Intersection-Validation), ``bootstrap``, ``pef`` and ``autosle`` run the
meta-estimators on the same kinds of input;
``skbn networks list`` lists the bundled networks; ``skbn networks sample NAME`` draws data
from one, prints a summary and writes the data (CSV) and a picture of the true network.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from skbn._cli_methods import add_method_commands, run_method_command

__all__ = ["main"]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skbn", description="Structure learning of Bayesian networks."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_learn(commands)
    add_method_commands(commands, add_source)
    networks = commands.add_parser(
        "networks",
        help="list the bundled networks or sample data from one",
        description="The bnlearn repository networks shipped with skbn.",
    )
    actions = networks.add_subparsers(dest="action", metavar="ACTION", required=True)
    lister = actions.add_parser("list", help="list the bundled networks")
    lister.add_argument(
        "--details",
        action="store_true",
        help="also show nodes, arcs and free parameters (parses every file)",
    )
    sample = actions.add_parser(
        "sample",
        help="sample data from a bundled network",
        description="Draw rows from a bundled network by forward sampling, print a summary, "
        "and optionally write the data and a picture of the network.",
    )
    sample.add_argument("name", help="network name, see 'skbn networks list'")
    sample.add_argument(
        "-n", "--n-samples", type=_positive_int, default=1000, help="number of rows (default: 1000)"
    )
    sample.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")
    sample.add_argument("--out", type=Path, help="write the data to this CSV file")
    sample.add_argument("--plot", type=Path, help="draw the network to this image (PNG, SVG)")
    return parser


LEARNERS = ("hc", "tabu", "fges", "pc", "mmhc", "exact", "mcmc")
TESTS = ("g2", "x2", "mi-sh", "fisher-z")
SCORES = ("bic", "aic", "ebic", "bdeu", "k2", "fnml", "bge")


def add_source(parser, n_default: int = 10000, required: bool = True) -> None:
    """Add the arguments every method command shares: a CSV file or a bundled network."""
    source = parser.add_mutually_exclusive_group(required=required)
    source.add_argument("data", nargs="?", type=Path, help="CSV file, one column per variable")
    source.add_argument("--network", help="sample from this bundled network instead")
    parser.add_argument(
        "-n",
        "--n-samples",
        type=_positive_int,
        default=n_default,
        help=f"rows to sample with --network (default: {n_default})",
    )
    parser.add_argument(
        "--nodes",
        type=_positive_int,
        default=None,
        help="with --network: replicate it to at least this many variables",
    )
    parser.add_argument(
        "--kind",
        choices=("discrete", "gaussian"),
        default=None,
        help="with --network: its own CPTs (discrete, default) or a "
        "linear-Gaussian model on its graph; with a CSV: treat every column "
        "as discrete (categories) or continuous (default: from the column types)",
    )
    parser.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")
    parser.add_argument(
        "--jobs", type=int, default=None, help="parallel jobs (joblib; -1 for all cores)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress output")


def load_source(args, default_kind: str = "discrete"):
    """Return ``(X, truth or None, description)`` from the shared data arguments."""
    if args.network:
        from skbn.datasets import make_problem

        kind = args.kind or default_kind
        X, truth = make_problem(
            args.network,
            n_nodes=args.nodes,
            n_samples=args.n_samples,
            kind=kind,
            random_state=args.random_state,
        )
        size = f", replicated to {X.shape[1]} variables" if args.nodes else ""
        return X, truth, f"{args.n_samples} rows sampled from {args.network} ({kind}{size})"
    if args.nodes:
        raise ValueError("--nodes applies to --network data only.")
    X, truth = _read_csv(args.data, args.kind)
    return X, truth, f"{args.data} ({len(X)} rows)"


def save_outputs(graph, args, title: str, truth=None) -> None:
    """Write ``--out`` (JSON, GraphML or DOT) and ``--plot`` (PNG, SVG, PDF) if asked."""
    if getattr(args, "out", None):
        from skbn.graph import write_graph

        write_graph(graph, args.out)
        print(f"graph       written to {args.out}")
    if getattr(args, "plot", None):
        from skbn.graph import plot_graph

        save_figure(plot_graph(graph, truth=truth, title=title), args.plot)


def save_figure(ax, path) -> None:
    """Save the figure of ``ax`` to ``path`` and say so."""
    import matplotlib.pyplot as plt

    ax.figure.tight_layout()
    ax.figure.savefig(path, dpi=120)
    plt.close(ax.figure)
    print(f"picture     written to {path}")


def _add_learn(commands) -> None:
    learn = commands.add_parser(
        "learn",
        help="learn a network structure from data",
        description="Learn a Bayesian network structure from a CSV file, or from data sampled "
        "from a bundled network (then a structure report against the truth is printed).",
    )
    add_source(learn)
    learn.add_argument(
        "--learner",
        choices=LEARNERS,
        default="hc",
        help="hc (hill climbing, default), tabu (tabu search), fges, pc (PC-Stable), mmhc, "
        "exact (globally optimal, up to ~25 variables) or mcmc (order MCMC in a PC skeleton)",
    )
    learn.add_argument(
        "--test",
        choices=TESTS,
        default=None,
        help="pc/mmhc: CI test (default: g2 on discrete data, fisher-z on continuous data)",
    )
    learn.add_argument(
        "--alpha", type=float, default=0.05, help="pc/mmhc: significance level (default: 0.05)"
    )
    learn.add_argument(
        "--score",
        choices=SCORES,
        default="bic",
        help="score to maximise (default: bic); bic, aic and ebic use their "
        "Gaussian versions on continuous data",
    )
    learn.add_argument(
        "--penalty-discount",
        type=float,
        default=1.0,
        help="multiplier of the bic/aic/ebic penalty (default: 1)",
    )
    learn.add_argument("--gamma", type=float, default=0.5, help="ebic gamma (default: 0.5)")
    learn.add_argument(
        "--iss", type=float, default=1.0, help="bdeu imaginary sample size (default: 1)"
    )
    learn.add_argument(
        "--max-indegree", type=int, default=None, help="hc/tabu/exact/mcmc: largest parent set"
    )
    learn.add_argument(
        "--max-degree", type=int, default=None, help="fges: largest number of adjacencies"
    )
    learn.add_argument("--out", type=Path, help="write the graph (.json, .graphml or .dot)")
    learn.add_argument("--plot", type=Path, help="draw the learned graph (PNG, SVG, PDF)")


def _make_score(name: str, kind: str, args):
    from skbn import scores

    gaussian = kind == "gaussian"
    if name in ("bdeu", "k2", "fnml") and gaussian:
        raise ValueError(
            f"score {name!r} needs discrete data; use bic, ebic or bge, or "
            "--kind discrete to treat the columns as categories."
        )
    if name == "bge" and not gaussian:
        raise ValueError("score 'bge' needs continuous data; use bic, aic, ebic, bdeu or k2.")
    if name == "bic":
        cls = scores.GaussianBIC if gaussian else scores.BIC
        return cls(penalty_discount=args.penalty_discount)
    if name == "ebic":
        cls = scores.GaussianEBIC if gaussian else scores.EBIC
        return cls(gamma=args.gamma, penalty_discount=args.penalty_discount)
    if name == "aic":
        if gaussian:
            raise ValueError("score 'aic' is discrete-only; use bic, ebic or bge.")
        return scores.AIC(penalty_discount=args.penalty_discount)
    if name == "bdeu":
        return scores.BDeu(iss=args.iss)
    if name == "k2":
        return scores.K2()
    if name == "fnml":
        return scores.FNML()
    return scores.BGe()


def _make_test(name: str | None, kind: str):
    from skbn import ci_tests

    if name is None:
        return None
    if (name == "fisher-z") != (kind == "gaussian"):
        wanted = "continuous" if name == "fisher-z" else "discrete"
        raise ValueError(f"test {name!r} needs {wanted} data.")
    return {
        "g2": ci_tests.GSquare,
        "x2": ci_tests.ChiSquare,
        "mi-sh": ci_tests.ShrinkageMI,
        "fisher-z": ci_tests.FisherZ,
    }[name]()


def _make_learner(args, score, test):
    from skbn.learners import (
        FGES,
        MMHC,
        ExactSearch,
        HillClimb,
        OrderMCMC,
        PCStable,
        TabuSearch,
    )

    if args.learner == "exact":
        return ExactSearch(score, max_indegree=args.max_indegree)
    if args.learner == "mcmc":
        return OrderMCMC(
            score,
            ci_test=test,
            alpha=args.alpha,
            max_indegree=args.max_indegree,
            random_state=args.random_state,
        )
    if args.learner == "pc":
        return PCStable(test, alpha=args.alpha)
    if args.learner == "mmhc":
        return MMHC(
            test,
            score,
            alpha=args.alpha,
            max_indegree=args.max_indegree,
            random_state=args.random_state,
        )
    if args.learner == "fges":
        if args.max_indegree is not None:
            raise ValueError("--max-indegree applies to hc and tabu; fges takes --max-degree.")
        return FGES(score, max_degree=args.max_degree)
    if args.max_degree is not None:
        raise ValueError("--max-degree applies to fges; hc and tabu take --max-indegree.")
    cls = HillClimb if args.learner == "hc" else TabuSearch
    return cls(score, max_indegree=args.max_indegree, random_state=args.random_state)


def _read_csv(path: Path, kind: str | None):
    import pandas as pd

    if not path.exists():
        raise ValueError(f"cannot read {str(path)!r}: no such file")
    try:
        X = pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {str(path)!r} as CSV: {exc}") from None
    if kind == "discrete":
        X = X.astype(str).astype("category")
    elif kind == "gaussian":
        try:
            X = X.astype(float)
        except ValueError as exc:
            raise ValueError(f"--kind gaussian needs numeric columns: {exc}") from None
    return X, None


def _learn(args: argparse.Namespace) -> None:
    import time

    from skbn.data import check_data
    from skbn.metrics import structure_report

    X, truth, source = load_source(args)
    data = check_data(X)
    score = _make_score(args.score, data.kind, args)
    learner = _make_learner(args, score, _make_test(args.test, data.kind))
    start = time.perf_counter()
    learner.fit(data)
    elapsed = time.perf_counter() - start
    graph = learner.graph_
    n_undirected = sum(1 for u, v in graph.edges() if graph.has_edge(v, u)) // 2
    n_directed = graph.number_of_edges() - 2 * n_undirected
    print(f"data        {source}, {data.n_features} variables")
    print(f"learner     {learner!r}")
    print(
        f"result      {graph.graph['kind']}: {n_directed} directed and {n_undirected} "
        f"undirected edges, learned in {elapsed:.2f} s"
    )
    if hasattr(learner, "score_"):
        print(f"score       {learner.score_:.2f}")
    if truth is not None:
        print("\nagainst the true network:")
        print(structure_report(truth, graph))
    save_outputs(graph, args, f"{type(learner).__name__} on {_source_name(args)}", truth)


def _source_name(args) -> str:
    return args.network or args.data.name


def _list(details: bool) -> None:
    from skbn.datasets import list_networks, load_network

    if not details:
        print("\n".join(list_networks()))
        return
    print(f"{'network':<12}{'nodes':>7}{'arcs':>7}{'parameters':>12}")
    for name in list_networks():
        bn = load_network(name)
        print(f"{name:<12}{len(bn.nodes):>7}{bn.n_arcs:>7}{bn.n_parameters:>12}")


def _sample(args: argparse.Namespace) -> None:
    import time

    import pandas as pd

    from skbn.datasets import load_network

    bn = load_network(args.name)
    start = time.perf_counter()
    X = bn.sample(args.n_samples, random_state=args.random_state)
    elapsed = time.perf_counter() - start
    arities = [len(bn.states[v]) for v in bn.nodes]
    indegree = max((len(p) for p in bn.parents.values()), default=0)
    print(f"network     {bn.name}")
    print(f"nodes       {len(bn.nodes)} (states per node {min(arities)}-{max(arities)})")
    print(f"arcs        {bn.n_arcs} (largest parent set {indegree})")
    print(f"parameters  {bn.n_parameters}")
    print(f"sampled     {len(X)} rows in {elapsed:.3f} s (random_state={args.random_state})")
    with pd.option_context("display.max_columns", 8, "display.width", 100):
        print(X.head())
    if args.out:
        X.to_csv(args.out, index=False)
        print(f"data        written to {args.out}")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        from skbn.graph import plot_graph

        ax = plot_graph(bn.graph, title=f"{bn.name}: {len(bn.nodes)} nodes, {bn.n_arcs} arcs")
        ax.figure.tight_layout()
        ax.figure.savefig(args.plot, dpi=120)
        print(f"picture     written to {args.plot}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``skbn`` command; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; defaults to ``sys.argv[1:]``.

    Returns
    -------
    int
        0 on success, 2 on a usage or input error.

    Examples
    --------
    >>> main(["networks", "sample", "asia", "-n", "5"])  # doctest: +ELLIPSIS
    network     asia
    ...
    0
    """
    args = _parser().parse_args(argv)
    if any(getattr(args, name, None) for name in ("plot", "graph_plot")):
        import matplotlib

        matplotlib.use("Agg")  # files only; no window
    try:
        if run_method_command(args, load_source, save_outputs, save_figure):
            pass
        elif args.command == "learn":
            _learn(args)
        elif args.command == "networks" and args.action == "list":
            _list(args.details)
        elif args.command == "networks" and args.action == "sample":
            _sample(args)
    except BrokenPipeError:  # output piped into a pager or head that closed early
        return 0
    except (ValueError, TypeError, OSError) as exc:
        print(f"skbn: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
