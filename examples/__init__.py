# SPDX-License-Identifier: BSD-3-Clause
"""Notebook-style examples and the scripts that reproduce the papers' experiments.

The folder is a package so that the benchmark scripts can share code by import: run them
from the repository root as ``python -m examples.benchmarks.<name>``. The short examples
(``quickstart.py`` and the like) also run as plain scripts.
"""
