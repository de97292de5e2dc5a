# SPDX-License-Identifier: BSD-3-Clause
"""Small shared helpers; the one place that imports scikit-learn's private API."""
