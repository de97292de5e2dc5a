# SPDX-License-Identifier: BSD-3-Clause
"""The ``skbn`` command: one module per subcommand.

``skbn learn`` learns a structure from a CSV file, or from data it samples from a bundled
network (then it also prints a structure report against the true network); ``skbn tune``
(OTSL), ``compare`` (Intersection-Validation), ``bootstrap``, ``pef`` and ``autosle`` run the
meta-estimators on the same kinds of input; ``skbn report`` scores a graph file against a
true graph, ``skbn fit-parameters`` fits a graph's parameters and writes the network (BIF,
NET, XDSL); ``skbn query`` asks a network for posteriors or the most probable explanation,
and ``skbn effect`` estimates a causal effect from data and a graph; ``skbn networks list``
lists the bundled networks and ``skbn networks sample NAME`` draws data from one. Each
subcommand module has ``add_parser(subparsers)`` and ``run(args)``; learner, score and test
names come from the registries of the library.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

from skbn.cli import (
    autosle,
    bootstrap,
    compare,
    effect,
    fit_parameters,
    learn,
    networks,
    pef,
    query,
    report,
    tune,
)

__all__ = ["main"]

#: The subcommands, in the order ``skbn --help`` lists them.
COMMANDS = {
    "learn": learn,
    "tune": tune,
    "compare": compare,
    "bootstrap": bootstrap,
    "pef": pef,
    "autosle": autosle,
    "report": report,
    "fit-parameters": fit_parameters,
    "query": query,
    "effect": effect,
    "networks": networks,
}


def _parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the subcommand named in ``argv`` gets its options (and imports).

    The others get their one-line summary, which is all ``skbn --help`` shows, so the help
    loads no learner, score or test.
    """
    from skbn._version import __version__

    parser = argparse.ArgumentParser(
        prog="skbn", description="Structure learning of Bayesian networks."
    )
    parser.add_argument("--version", action="version", version=f"skbn {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    words = list(sys.argv[1:] if argv is None else argv)
    chosen = next((w for w in words if not w.startswith("-")), None)
    for name, module in COMMANDS.items():
        if name == chosen:
            module.add_parser(commands)
        else:
            commands.add_parser(name, help=module.SUMMARY)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"skbn: warning: {message}", file=sys.stderr)


#: Picture formats matplotlib writes with its Agg, PDF, PS and SVG back ends.
PICTURE_SUFFIXES = (
    ".png",
    ".svg",
    ".svgz",
    ".pdf",
    ".eps",
    ".ps",
    ".jpg",
    ".jpeg",
    ".tif",
    ".tiff",
    ".webp",
    ".pgf",
)


#: The options that name a file a command writes (besides the pictures).
OUTPUT_FILES = ("out", "results", "strengths")


def _check_folder(path, flag: str) -> None:
    """Refuse, before any work, a file to write whose folder does not exist."""
    from pathlib import Path

    if path is None or str(path) == "-":
        return
    if not Path(path).resolve().parent.is_dir():
        raise ValueError(f"{flag} {path}: the folder {str(Path(path).parent)!r} does not exist.")


def _check_picture(path, flag: str) -> None:
    """Refuse, before any work, a picture path whose format or folder will not do."""
    if path is None:
        return
    from pathlib import Path

    path = Path(path)
    if path.suffix.lower() not in PICTURE_SUFFIXES:
        raise ValueError(
            f"{flag} {path}: cannot tell the picture format from the suffix; use one of "
            f"{', '.join(PICTURE_SUFFIXES)}."
        )
    _check_folder(path, flag)


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
    args = _parser(argv).parse_args(argv)
    if any(getattr(args, name, None) for name in ("plot", "graph_plot")):
        import matplotlib

        matplotlib.use("Agg")  # files only; no window
    try:
        for name in ("plot", "graph_plot"):  # a picture that cannot be written fails now
            _check_picture(getattr(args, name, None), "--" + name.replace("_", "-"))
        for name in OUTPUT_FILES:  # and so does any other file the command writes
            _check_folder(getattr(args, name, None), "--" + name.replace("_", "-"))
        with warnings.catch_warnings():
            # the library's warnings reach the user as one line each, without source paths
            warnings.showwarning = _show_warning
            COMMANDS[args.command].run(args)
    except BrokenPipeError:  # output piped into a pager or head that closed early
        return 0
    except (ValueError, TypeError, OSError) as exc:
        print(f"skbn: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError as exc:
        detail = f" ({exc})" if str(exc) else ""
        print(
            f"skbn: error: out of memory{detail}; ask for less: fewer rows (-n), nodes "
            "(--nodes) or columns, or a learner with bounded memory (docs/limits.md).",
            file=sys.stderr,
        )
        return 2
    return 0
