# SPDX-License-Identifier: BSD-3-Clause
"""Findings first: a results page's opening command paragraph moves to its end when built."""

from __future__ import annotations

_COMMAND_OPENINGS = ("Command:", "Commands:", "Regenerate with", "Command (", "Commands (")


def findings_first(text: str) -> tuple[str, str]:
    """Split off a page's opening command paragraph, for the end of the built page.

    Pages written before the "findings first" rule open with the command that made them (and
    often the setup), right under the title; the built page moves that paragraph (with a code
    block that follows one ending in a colon) to "How this page was made", so every page
    reads from its findings. Returns ``(page, moved)``.
    """
    lines = text.split("\n")
    if not lines or not lines[0].startswith("# "):
        return text, ""
    start = 1
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start >= len(lines) or not lines[start].startswith(_COMMAND_OPENINGS):
        return text, ""
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    if lines[end - 1].rstrip().endswith(":"):  # "Regenerate with:" and its code block
        fence = end
        while fence < len(lines) and not lines[fence].strip():
            fence += 1
        if fence < len(lines) and lines[fence].startswith("```"):
            close = fence + 1
            while close < len(lines) and not lines[close].startswith("```"):
                close += 1
            end = close + 1
    moved = "\n".join(lines[start:end]).strip()
    pointer = [
        "The setup (problems, units, what the brackets hold) and the command that made this"
        " page are under [How this page was made](#how-this-page-was-made) at its end.",
        "",
    ]
    rest = lines[:start] + pointer + lines[end:]
    while len(rest) > start + len(pointer) and not rest[start + len(pointer)].strip():
        rest.pop(start + len(pointer))
    return "\n".join(rest), moved
