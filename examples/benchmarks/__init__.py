# SPDX-License-Identifier: BSD-3-Clause
"""Benchmarks of skbn against other libraries and the papers' figures.

Each script writes its study to ``examples/benchmarks/results/<study>/``: the page, its raw
rows (CSV or JSON), its figures and ``manifest.json`` (the command, commit, machine and date
of every run that wrote there). The documentation build copies the pages and their files into
``docs/results/``. Run a script from the repository root, e.g.
``python -m examples.benchmarks.boss --help``.
"""
