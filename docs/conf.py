# SPDX-License-Identifier: BSD-3-Clause
"""Sphinx configuration of the skbn documentation (built with -W in CI)."""

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
}
# top-level guide pages have no section to navigate: no empty left column (the API reference
# and the method pages keep theirs)
html_sidebars = {"*": [], "api": ["sidebar-nav-bs"]}
html_static_path = ["_static"]
html_css_files = ["skbn.css"]
