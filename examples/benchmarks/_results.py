# SPDX-License-Identifier: BSD-3-Clause
"""Where a study's results go, and the manifest that says how they were made."""

from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import uuid
from pathlib import Path

import pandas as pd

#: One folder per study: ``results/<study>/`` holds its page, data, figures and manifest.
RESULTS = Path(__file__).resolve().parent / "results"
ROOT = RESULTS.parents[2]
#: Marks this process's run, so that a script that saves as it goes is recorded once.
_RUN = uuid.uuid4().hex


def result_path(study: str, name: str | None = None) -> Path:
    """The default path of a study's file (its page ``<study>.md`` unless ``name`` is given)."""
    return RESULTS / study / (name or f"{study}.md")


def command_line() -> str:
    """The command that is running, as a user would type it from the repository root."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name:
        program = f"python -m {spec.name}"
    else:
        script = Path(sys.argv[0]).resolve()
        try:
            script = script.relative_to(ROOT)
        except ValueError:
            pass
        program = f"python {script}"
    return " ".join([program, shlex.join(sys.argv[1:])]).strip()


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _memory_gib() -> float | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def machine() -> dict:
    """The facts about this machine that a timing depends on."""
    import numba
    import numpy

    import skbn

    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count()
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": cpus,
        "memory_gib": _memory_gib(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "skbn": skbn.__version__,
    }


def finished_keys(out: Path, columns: list[str]) -> set:
    """The key tuples (values of ``columns``) of the rows a resumable grid already wrote."""
    if not out.exists():
        return set()
    old = pd.read_csv(out)
    return set(zip(*(old[c] for c in columns)))


def append_row(out: Path, row: dict) -> None:
    """Append one row to a grid's CSV (the header with the first row), so a grid resumes."""
    pd.DataFrame([row]).to_csv(out, mode="a", header=not out.exists(), index=False)


def write_manifest(path: Path | str, command: str | None = None, **extra) -> Path:
    """Add this run to the manifest of the study that ``path`` belongs to.

    The manifest (``manifest.json`` beside ``path``) lists every run that wrote to the
    folder, oldest first: a page merged from several commands keeps each of them. A script
    that saves as it goes may call this after each save; its run is recorded once (and its
    date and ``extra`` facts updated).

    Parameters
    ----------
    path : path-like
        A file the run wrote (its page or its raw rows).
    command : str, optional
        The command to record; by default the one running.
    **extra
        Further facts to keep with the run (e.g. ``minutes``).

    Returns
    -------
    Path
        The manifest's path.
    """
    folder = Path(path).resolve().parent
    manifest = folder / "manifest.json"
    runs = json.loads(manifest.read_text(encoding="utf-8"))["runs"] if manifest.exists() else []
    commit = _git("rev-parse", "HEAD")
    dirty = _git(
        "status", "--porcelain", "--", "skbn", "examples", ":(exclude)examples/benchmarks/results"
    )
    run = {
        "command": command or command_line(),
        "commit": commit if commit is None or not dirty else f"{commit} (with local changes)",
        "machine": machine(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "run": _RUN,
        **extra,
    }
    if runs and runs[-1].get("run") == _RUN:
        runs = runs[:-1]
    text = json.dumps({"study": folder.name, "runs": [*runs, run]}, indent=1)
    manifest.write_text(text + "\n", encoding="utf-8")
    return manifest
