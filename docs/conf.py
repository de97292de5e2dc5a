# SPDX-License-Identifier: BSD-3-Clause
"""Sphinx configuration of the skbn documentation (built with -W in CI)."""

import json
import runpy
import shutil
from pathlib import Path

import skbn

project = "skbn"
author = "the skbn developers"
copyright = "the skbn developers"  # noqa: A001
release = skbn.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
templates_path = ["_templates"]

autosummary_generate = True
autodoc_typehints = "none"
autodoc_default_options: dict = {}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set = set()

myst_enable_extensions = ["colon_fence", "dollarmath"]
# command-line options such as --quick stay two hyphens instead of becoming an en dash
smartquotes = False
myst_heading_anchors = 3
# "ref.python": numpydoc links attribute names such as graph_, which several classes define;
# Sphinx then warns that the (unqualified) name is ambiguous.
suppress_warnings = ["myst.header", "ref.python"]

html_theme = "pydata_sphinx_theme"
html_title = f"skbn {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # the guide's first pages in the top bar, the rest under "More": one row at 1,280 px
    "header_links_before_dropdown": 3,
}
# top-level guide pages have no section to navigate: no empty left column (the API reference
# and the method pages keep theirs)
html_sidebars = {
    "*": [],
    "results/*": [],
    "methods/*": [],
    "api": ["sidebar-nav-bs"],
    "api/**": ["sidebar-nav-bs"],
}
html_static_path = ["_static"]
html_css_files = ["skbn.css"]


# Benchmark results live with the scripts that make them (examples/benchmarks/results/<study>/,
# one folder per study with its manifest); the build copies each study's page and files into
# docs/results/ (not tracked) and ends each page with how it was made.
DOCS = Path(__file__).resolve().parent
RESULTS = DOCS.parent / "examples" / "benchmarks" / "results"


def _provenance(study: Path) -> str:
    """Return the closing section of a study's page: its manifest's runs and its files."""
    manifest = json.loads((study / "manifest.json").read_text(encoding="utf-8"))
    lines = ["", "## How this page was made", ""]
    for run in manifest["runs"]:
        command = run.get("command") or "(the command is in the script's usage)"
        commit = (run.get("commit") or "unknown")[:10]
        machine = run.get("machine")
        where = (
            f"{machine['cpus']} CPUs, {machine['memory_gib']} GiB, {machine['platform']}, "
            f"Python {machine['python']}, numba {machine['numba']}, skbn {machine['skbn']}"
            if machine
            else "machine as the page describes it"
        )
        lines.append(f"- `{command}`: commit `{commit}`, {run.get('date', '')[:10]}, {where}")
    notes = {run["note"] for run in manifest["runs"] if run.get("note")}
    lines += ["", *sorted(notes)] if notes else []
    data = sorted(f.name for f in study.iterdir() if f.suffix in {".csv", ".json"})
    data = [name if name != "manifest.json" else f"{study.name}.manifest.json" for name in data]
    files = ", ".join(f"{{download}}`{name} <{name}>`" for name in data)
    lines += ["", f"Files: {files} (in `examples/benchmarks/results/{study.name}/`)."]
    return "\n".join(lines) + "\n"


_findings_first = runpy.run_path(str(DOCS / "_scripts" / "findings_first.py"))["findings_first"]


def _copy_results() -> None:
    target = DOCS / "results"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    for study in sorted(p for p in RESULTS.iterdir() if p.is_dir()):
        for path in sorted(study.iterdir()):
            if path.name == "manifest.json":
                shutil.copy2(path, target / f"{study.name}.manifest.json")
            elif path.suffix == ".md":
                page, moved = _findings_first(path.read_text(encoding="utf-8").rstrip("\n"))
                closing = _provenance(study)
                if moved:  # under the closing section's title
                    head, _, tail = closing.partition("## How this page was made\n")
                    closing = f"{head}## How this page was made\n\n{moved}\n{tail}"
                (target / path.name).write_text(page + "\n" + closing, encoding="utf-8")
            else:
                shutil.copy2(path, target / path.name)


_copy_results()


def _draw_architecture() -> None:
    target = DOCS / "_figures"
    target.mkdir(exist_ok=True)
    script = runpy.run_path(str(DOCS / "_scripts" / "architecture.py"))
    script["main"](target / "architecture_layers.png")


_draw_architecture()

# "On this page" lists a class's methods by their own names ("fit()"), not with the class
# name before each, which the narrow column cut off
toc_object_entries_show_parents = "hide"
