# SPDX-License-Identifier: BSD-3-Clause
"""What the subcommands share: the data source, the names of learners, scores and tests, output.

Learner names come from :mod:`skbn.learners` (``LEARNERS``), score and test names from the
registries of :mod:`skbn.scores` and :mod:`skbn.ci_tests`, so the command line accepts what
the Python API accepts and lists the same names in its errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = [
    "add_out",
    "add_knowledge",
    "add_source",
    "learner_from_spec",
    "load_source",
    "make_learner",
    "make_score",
    "knowledge_params",
    "make_test",
    "output_format",
    "positive_int",
    "refuse_network_file",
    "read_graph_arg",
    "save_figure",
    "save_outputs",
    "spec_help",
]


def _names():
    from skbn.ci_tests._registry import CI_TESTS
    from skbn.learners._registry import LEARNERS
    from skbn.scores._registry import SCORES

    return tuple(LEARNERS), tuple(SCORES.family_names()), tuple(CI_TESTS.family_names())


def spec_help() -> str:
    learners, scores, _ = _names()
    return (
        f"learner spec NAME[:SCORE], NAME one of {', '.join(learners)} and SCORE one of "
        f"{', '.join(scores)} (e.g. hc:bdeu)"
    )


def _parsed(text: str, cast, word: str):
    try:
        return cast(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {word}, got {text!r}") from None


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = _parsed(text, int, "a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value}")
    return value


def n_jobs(text: str) -> int:
    """An argparse type: joblib's ``n_jobs``, a whole number other than 0."""
    value = _parsed(text, int, "a whole number")
    if value == 0:
        raise argparse.ArgumentTypeError("0 jobs cannot run anything; use 1, 2, ... or -1")
    return value


def share(text: str) -> float:
    """An argparse type: a number in [0, 1]."""
    value = _parsed(text, float, "a number")
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {value}")
    return value


def add_source(parser, n_default: int = 10000, required: bool = True) -> None:
    """Add the arguments every method command shares: a CSV file or a bundled network."""
    source = parser.add_mutually_exclusive_group(required=required)
    source.add_argument("data", nargs="?", type=Path, help="CSV file, one column per variable")
    source.add_argument("--network", help="sample from this bundled network instead")
    parser.add_argument(
        "-n",
        "--n-samples",
        type=positive_int,
        default=None,
        help=f"rows to sample with --network (default: {n_default})",
    )
    parser.set_defaults(n_samples_default=n_default)
    parser.add_argument(
        "--nodes",
        type=positive_int,
        default=None,
        help="with --network: replicate it to at least this many variables",
    )
    parser.add_argument(
        "--kind",
        choices=("discrete", "gaussian", "mixed"),
        default=None,
        help="with --network: its own CPTs (discrete, default), a linear-Gaussian model on "
        "its graph, or mixed (its last 30%% of nodes in a topological order made continuous, "
        "a conditional-Gaussian network); with a CSV: treat every column as discrete "
        "(categories) or continuous, or mixed: float columns continuous, the others discrete "
        "(the default: from the column types)",
    )
    parser.add_argument(
        "--continuous",
        type=_column_list,
        default=(),
        metavar="COLS",
        help="with a CSV: these columns (comma-separated names) are continuous measurements "
        "(e.g. integer ages or counts, which are otherwise read as categories); --bins then "
        "cuts them too",
    )
    parser.add_argument(
        "--discrete",
        type=_column_list,
        default=(),
        metavar="COLS",
        help="with a CSV: these columns (comma-separated names) are categories, whatever "
        "their values (e.g. codes written as decimals)",
    )
    parser.add_argument(
        "--na-values",
        nargs="+",
        default=(),
        metavar="TOKEN",
        help="with a CSV: cells holding these tokens are missing values too (by default only "
        "empty cells are: a state may be named 'None' or 'NA')",
    )
    parser.add_argument(
        "--bins",
        type=positive_int,
        default=None,
        metavar="N",
        help="cut every continuous column into N bins (states b1 lowest to bN) before "
        "learning, so the data is discrete, as BIF, NET and XDSL files need",
    )
    parser.add_argument(
        "--binning",
        choices=("quantile", "uniform"),
        default="quantile",
        help="with --bins: bins of equal counts (quantile, default) or equal widths (uniform)",
    )
    parser.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")
    parser.add_argument(
        "--jobs", type=n_jobs, default=None, help="parallel jobs (joblib; -1 for all cores)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress output")


def read_csv_checked(path: Path, na_values=(), kind: str | None = None):
    """:func:`skbn.io.read_table`, its warnings and errors phrased in the command's options."""
    import warnings

    from skbn.io import ManyStatesWarning, MissingLookalikeWarning, read_table

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        X = read_table(path, kind=kind, na_values=na_values)
    for record in caught:
        warning = record.message
        if isinstance(warning, MissingLookalikeWarning):
            held = warning.tokens
            shown = "; ".join(
                f"{c!r}: {', '.join(map(repr, t))}" for c, t in list(held.items())[:8]
            )
            tokens = " ".join(sorted({t for ts in held.values() for t in ts}))
            message = (
                f"columns hold values that other tools read as missing ({shown}); skbn reads "
                f"them as states. If they mark missing values, pass --na-values {tokens}."
            )
        elif isinstance(warning, ManyStatesWarning):
            shown = ", ".join(f"{c!r}: {k}" for c, k in list(warning.states.items())[:8])
            message = (
                f"--kind discrete makes every distinct value of these float columns a state "
                f"({shown} states); cut them with --bins N unless they really are categories."
            )
        else:
            message = str(warning)
        print(f"skbn: warning: {message}", file=sys.stderr)
    return X


def progress(args) -> int:
    """The ``verbose`` level of a command: progress bars on a terminal only.

    Redirected to a file, a bar's carriage returns would fill it with partial lines.
    """
    return 0 if args.quiet or not _on_terminal() else 1


def _on_terminal() -> bool:
    return sys.stderr.isatty()


def _column_list(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError("expected comma-separated column names, e.g. age,dose")
    return names


def declare_kinds(X, continuous=(), discrete=()):
    """``X`` with the ``continuous`` columns as floats and the ``discrete`` ones as categories."""
    import pandas as pd

    both = sorted(set(continuous) & set(discrete))
    if both:
        raise ValueError(f"--continuous and --discrete both name {both}; choose one for each.")
    unknown = [c for c in (*continuous, *discrete) if c not in X.columns]
    if unknown:
        raise ValueError(
            f"--continuous/--discrete name {unknown[:5]}, which are not columns of the data "
            f"(its columns: {list(X.columns)[:10]})."
        )
    X = X.copy()
    for name in continuous:
        try:
            X[name] = X[name].astype(float)
        except (TypeError, ValueError):
            example = X[name][pd.to_numeric(X[name], errors="coerce").isna() & X[name].notna()]
            raise ValueError(
                f"--continuous {name}: column {name!r} holds values that are not numbers "
                f"(e.g. {example.iloc[0]!r}); leave it out of --continuous."
            ) from None
    for name in discrete:
        X[name] = X[name].astype("string").astype("category")  # missing values stay missing
    return X


def discretise(X, bins: int, binning: str = "quantile"):
    """:func:`skbn.preprocessing.bin_continuous`, and how many columns it cut."""
    import pandas as pd

    from skbn.preprocessing import bin_continuous

    if bins < 2:
        raise ValueError(f"--bins {bins}: cut into at least 2 bins.")
    cut = sum(pd.api.types.is_float_dtype(X[c]) for c in X.columns)
    return bin_continuous(X, bins, binning), cut


def load_source(args, default_kind: str = "discrete"):
    """Return ``(X, truth or None, description)`` from the shared data arguments."""
    X, truth, description = _load_source(args, default_kind)
    continuous, discrete = getattr(args, "continuous", ()), getattr(args, "discrete", ())
    if continuous or discrete:
        if args.data is None:
            raise ValueError("--continuous and --discrete apply to a CSV file's columns.")
        X = declare_kinds(X, continuous, discrete)
        description += "; " + ", ".join(
            f"{len(c)} column(s) declared {w}"
            for c, w in ((continuous, "continuous"), (discrete, "discrete"))
            if c
        )
    if getattr(args, "bins", None):
        X, cut = discretise(X, args.bins, args.binning)
        if not cut:
            raise ValueError(
                f"--bins {args.bins}: the data has no continuous column to cut (integer "
                "columns are read as categories; name measurements with --continuous)."
            )
        description += f"; {cut} continuous column(s) cut into {args.bins} {args.binning} bins"
    return X, truth, description


def _load_source(args, default_kind: str = "discrete"):
    if args.data is not None and args.n_samples is not None:
        raise ValueError(
            f"-n/--n-samples applies to --network data; {args.data} is read whole (take a "
            "sample of the file first to use fewer rows)."
        )
    if args.n_samples is None:
        args.n_samples = args.n_samples_default
    if args.network and args.kind == "mixed":
        from skbn.datasets import load_network, make_conditional_gaussian

        if args.nodes:
            raise ValueError("--kind mixed samples the network itself; --nodes does not apply.")
        network = make_conditional_gaussian(
            load_network(args.network), 0.3, random_state=args.random_state
        )
        X = network.sample(args.n_samples, random_state=args.random_state)
        return X, network.graph, f"{args.n_samples} rows sampled from {args.network} (mixed)"
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
    X = read_csv_checked(args.data, getattr(args, "na_values", ()), kind=args.kind)
    return X, None, f"{args.data} ({len(X)} rows)"


def source_name(args) -> str:
    """A short name of the data source, for titles."""
    return args.network or args.data.name


def save_figure(ax, path) -> None:
    """Save the figure of ``ax`` to ``path`` and say so."""
    import matplotlib.pyplot as plt

    # the saved area grows to hold everything drawn (a legend beside the axes, an arc bowed
    # out of them) instead of the axes shrinking under fixed-size node boxes
    ax.figure.savefig(path, dpi=120, bbox_inches="tight", pad_inches=0.2)
    plt.close(ax.figure)
    print(f"picture     written to {path}")


#: ``--format`` values: graph formats (structure only) and network formats (with parameters).
GRAPH_FORMATS = ("json", "graphml", "dot")
NETWORK_FORMATS = ("bif", "net", "xdsl")  # the keys of skbn.io.NETWORK_FORMATS (tested)
OUT_HELP = (
    "write the result: a graph (.json, .graphml, .dot, .txt for Tetrad) or, with its "
    "parameters fitted on the data, a network (.bif, .bif.gz, .net, .xdsl)"
)


def add_out(parser, help: str = OUT_HELP) -> None:
    """``--out FILE`` and ``--format``, checked by :func:`output_format` before any work."""
    parser.add_argument("--out", type=Path, help=help)
    parser.add_argument(
        "--format",
        choices=GRAPH_FORMATS + NETWORK_FORMATS,
        default=None,
        help="format of --out when its suffix does not say",
    )


def output_format(out, format: str | None) -> str | None:
    """The format ``--out`` will be written in (None without ``--out``); refuses bad ones now."""
    if out is None:
        if format is not None:
            raise ValueError("--format applies to --out; give --out FILE too.")
        return None
    if str(out) == "-":
        raise ValueError(
            "--out -: writing to standard output is not supported (the command prints its "
            "report there); give a file name, e.g. --out graph.json."
        )
    if format is None:
        format = _file_format(Path(out))
        if format is None:
            raise ValueError(
                f"--out {out}: cannot tell the format from the suffix; use .json, .graphml or "
                ".dot for a graph, .bif, .net or .xdsl for a network with parameters, or pass "
                "--format."
            )
    # the folder is checked for every command's files in skbn.cli.main, before any work
    return format


def refuse_network_file(out, format: str | None, kind: str) -> None:
    """Refuse, before any learning, a network file (BIF, NET, XDSL) for non-discrete data."""
    fmt = output_format(out, format)
    if fmt in NETWORK_FORMATS and kind != "discrete":
        raise ValueError(
            f"--out {out}: {fmt.upper()} files hold discrete networks, and this data is "
            f"{kind}. Write the graph instead (.json, .graphml or .dot), or add --bins N to "
            "cut each continuous column into N categories before learning."
        )


def _file_format(path: Path) -> str | None:
    """The network or graph format the suffix names (:func:`skbn.io.format_of`), or None."""
    from skbn.io import format_of

    try:
        return format_of(path)
    except ValueError:
        return None


def read_graph_arg(text: str, what: str):
    """A graph from a graph file, a network file (its DAG) or a bundled network's name."""
    from skbn.datasets import list_networks, load_network

    path = Path(text)
    if not path.exists():
        if text in list_networks():
            return load_network(text).graph
        raise ValueError(
            f"{what} {text!r}: no such file, and not a bundled network (skbn networks list)."
        )
    fmt = _file_format(path)
    if fmt is None:
        raise ValueError(
            f"{what} {text!r}: cannot tell the format from the suffix; use a graph file "
            "(.json, .graphml, .txt from Tetrad) or a network file (.bif, .net, .xdsl)."
        )
    if fmt in NETWORK_FORMATS:
        from skbn.io import read_network

        return read_network(path).graph
    from skbn.graph import read_graph

    return read_graph(path)


_HEADERS = {("from", "to"), ("source", "target"), ("parent", "child"), ("node", "tier")}


def _pairs(path: Path, what: str) -> list[tuple[str, str]]:
    """Two-column rows of a CSV file; '#' comments, blank lines and a header are skipped."""
    import csv

    if not path.exists():
        raise ValueError(f"{what} {str(path)!r}: no such file")
    rows = []
    with path.open(newline="", encoding="utf-8") as handle:
        for number, row in enumerate(csv.reader(handle), start=1):
            cells = [c.strip() for c in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if len(cells) != 2 or not all(cells):
                raise ValueError(
                    f"{what} {str(path)!r}, line {number}: expected two comma-separated names, "
                    f"got {row!r}"
                )
            if not rows and tuple(c.lower() for c in cells) in _HEADERS:
                continue
            rows.append((cells[0], cells[1]))
    return rows


def read_edges_arg(text: str, what: str) -> list[tuple[str, str]]:
    """Arcs from a CSV of ``from,to`` rows, or from a graph or network file's arcs."""
    path = Path(text)
    if path.suffix.lower() in (".csv", ".txt"):
        return _pairs(path, what)
    return list(read_graph_arg(text, what).edges)


def read_tiers_arg(text: str) -> dict[str, int]:
    """``node,tier`` rows (tier a whole number; lower tiers come first)."""
    tiers = {}
    for node, tier in _pairs(Path(text), "--tiers"):
        try:
            tiers[node] = int(tier)
        except ValueError:
            raise ValueError(
                f"--tiers {text!r}: the tier of {node!r} must be a whole number, got {tier!r}"
            ) from None
    return tiers


def knowledge_params(args) -> dict:
    """The learner parameters set by ``--start``, ``--require``, ``--forbid``, ``--tiers``."""
    params = {}
    if getattr(args, "start", None):
        params["start_graph"] = read_graph_arg(args.start, "--start")
    if getattr(args, "require", None):
        params["required_edges"] = read_edges_arg(args.require, "--require")
    if getattr(args, "forbid", None):
        params["forbidden_edges"] = read_edges_arg(args.forbid, "--forbid")
    if getattr(args, "tiers", None):
        params["tiers"] = read_tiers_arg(args.tiers)
    return params


def add_knowledge(parser) -> None:
    """``--start``, ``--require``, ``--forbid`` and ``--tiers``: background knowledge files."""
    parser.add_argument(
        "--start",
        help="hc/tabu/boss: start from this graph (a graph or network file, or a bundled name)",
    )
    parser.add_argument(
        "--require",
        help="arcs every result must have: a CSV of from,to rows, or a graph file's arcs",
    )
    parser.add_argument(
        "--forbid", help="arcs no result may have: a CSV of from,to rows, or a graph file's arcs"
    )
    parser.add_argument(
        "--tiers",
        help="a CSV of node,tier rows: no arc from a later tier to an earlier one",
    )


def save_outputs(
    graph, out=None, plot=None, title: str = "", truth=None, learner=None, format=None, data=None
) -> None:
    """Write the result to ``out`` and draw it to ``plot``.

    A network format writes ``learner.network_``, or with ``data`` and no learner the
    parameters of ``graph`` fitted on ``data``.
    """
    if out:
        fmt = output_format(out, format)
        if fmt in NETWORK_FORMATS:
            from skbn.io import write_network

            if learner is not None:
                try:
                    network = learner.network_
                except ValueError as exc:
                    if "no consistent DAG extension" not in str(exc):
                        raise
                    raise ValueError(
                        f"--out {out}: the learned graph has undirected edges that no DAG can "
                        "orient consistently, so it has no network to write; write the graph "
                        "instead (.json, .graphml or .dot), or use a score-based learner."
                    ) from None
            else:
                from skbn.parameters import fit_network

                network = fit_network(graph, data)
            write_network(network, out, format=fmt)
            print(f"network     written to {out} (structure and parameters, {fmt.upper()})")
        else:
            from skbn.graph import write_graph

            write_graph(graph, out, format=fmt)
            print(f"graph       written to {out}")
    if plot:
        from skbn.graph import is_marked
        from skbn.plotting import plot_graph

        # a PAG is drawn with its marks; the report above compares it with the truth
        truth = None if is_marked(graph) else truth
        save_figure(plot_graph(graph, truth=truth, title=title), plot)


def make_score(name: str | None, kind: str, penalty_discount=1.0, gamma=None, iss=None):
    """Return the score ``name`` stands for on ``kind`` data, with the options it takes.

    None is the library's default for the kind; an option left None keeps the score's own
    value.
    """
    from skbn.scores._registry import SCORES

    score = SCORES.resolve(name, kind)  # the registry's error lists the names it knows
    options = {"penalty_discount": penalty_discount, "gamma": gamma, "iss": iss}
    accepted = score.get_params()
    if gamma is not None and "gamma" not in accepted:
        raise ValueError(
            f"--gamma applies to the ebic scores; {score!r} has no gamma (use --score ebic)."
        )
    if iss is not None and "iss" not in accepted:
        raise ValueError(
            f"--iss applies to the bdeu score; {score!r} has no iss (use --score "
            "bdeu on discrete data)."
        )
    return score.set_params(**{k: v for k, v in options.items() if k in accepted and v is not None})


def make_test(name: str | None, kind: str):
    """The CI test ``name`` stands for on ``kind`` data (None: the registry's default)."""
    from skbn.ci_tests._registry import CI_TESTS

    return None if name is None else CI_TESTS.resolve(name, kind)


#: Each command-line option of a learner and the learner parameter it sets.
LEARNER_OPTIONS = {
    "--score": "criterion",
    "--test": "ci_test",
    "--alpha": "alpha",
    "--max-indegree": "max_indegree",
    "--max-degree": "max_degree",
    "--random-state": "random_state",
}


def and_list(names) -> str:
    """``a, b and c``."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def make_learner(
    name: str,
    score,
    test=None,
    *,
    alpha: float = 0.05,
    max_indegree=None,
    max_degree=None,
    random_state=None,
    n_features=None,
):
    """A learner by short name, with the options of the command line.

    Each option sets the learner parameter of :data:`LEARNER_OPTIONS` when the learner has
    it (the learner's ``get_params`` says); a degree bound given to a learner without that
    parameter is refused, naming the learners that take it. ``"auto"`` is
    :func:`skbn.learners.default_learner`'s choice for ``n_features`` columns, with the
    options given.
    """
    from skbn.learners import get_learner
    from skbn.learners._registry import LEARNERS

    learner = get_learner(name, n_features=n_features)
    name = next(short for short, cls in LEARNERS.items() if type(learner) is cls)
    accepted = learner.get_params()
    given = {
        "--score": score,
        "--test": test,
        "--alpha": alpha,
        "--max-indegree": max_indegree,
        "--max-degree": max_degree,
        "--random-state": random_state,
    }
    params = {}
    for option, value in given.items():
        parameter = LEARNER_OPTIONS[option]
        if parameter in accepted:
            if value is not None:
                params[parameter] = value
        elif value is not None and option in ("--max-indegree", "--max-degree"):
            other = "--max-degree" if option == "--max-indegree" else "--max-indegree"
            hint = f"; {name} takes {other}" if LEARNER_OPTIONS[other] in accepted else ""
            from skbn.learners import learners_taking

            raise ValueError(
                f"{option} applies to {and_list(learners_taking(parameter))}, not {name}{hint}."
            )
    return learner.set_params(**params)


def learner_from_spec(spec: str, kind: str, random_state: int):
    """A learner from ``NAME[:SCORE]`` (e.g. ``hc:bdeu``), with default options."""
    from skbn.learners._registry import LEARNERS

    name, _, score = spec.partition(":")
    if name not in LEARNERS:
        raise ValueError(
            f"unknown learner {name!r} in {spec!r}; choose from {', '.join(LEARNERS)}."
        )
    if LEARNERS[name]._learns_pag:
        dags = [n for n, cls in LEARNERS.items() if not cls._learns_pag]
        raise ValueError(
            f"{name!r} in {spec!r} learns a PAG (hidden common causes allowed), which this "
            f"command does not take yet; use skbn learn --learner {name}, or one of "
            f"{', '.join(dags)} here."
        )
    return make_learner(name, make_score(score or None, kind), random_state=random_state)


#: Most edges a command lists; ``--out`` writes them all.
MAX_LISTED_EDGES = 100


def print_edges(graph, header: str = "edges") -> None:
    """List a graph's edges (``u -> v``, or ``u -- v`` for an undirected one), sorted.

    A PAG's or MAG's edges are listed with their marks (``a o-> b``, ``a <-> b``).
    """
    from skbn.graph import is_marked, marked_edges

    lines = []
    if is_marked(graph):
        lines = sorted(marked_edges(graph), key=lambda e: (e.split()[0], e.split()[2]))
    for u, v in [] if lines else sorted(graph.edges(), key=lambda e: (str(e[0]), str(e[1]))):
        if graph.has_edge(v, u):
            if str(u) < str(v):
                lines.append(f"{u} -- {v}")
        else:
            lines.append(f"{u} -> {v}")
    if header:
        print(f"{header:<11} (none)" if not lines else header)
    for line in lines[:MAX_LISTED_EDGES]:
        print(f"  {line}")
    if len(lines) > MAX_LISTED_EDGES:
        print(f"  ... and {len(lines) - MAX_LISTED_EDGES} more")
