# SPDX-License-Identifier: BSD-3-Clause
"""Families of parameter objects resolved by name and data kind: the one place that decides.

A *family* is a statistic that exists for one or more kinds of data, e.g. "bic" is
:class:`~skbn.scores.BIC` on discrete data and :class:`~skbn.scores.GaussianBIC` on continuous
data. Learners, scorers and the command line accept a family name (or an alias that pgmpy,
bnlearn, causal-learn or Tetrad users type) wherever they accept an object; the registry turns
it into the object for the data kind at ``fit``. Nothing else in skbn chooses a score or a
test by looking at the data.

:mod:`skbn.scores` and :mod:`skbn.ci_tests` each hold one :class:`FamilyRegistry`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["DATA_KINDS", "Family", "FamilyRegistry"]

#: The kinds of data skbn's scores and tests are written for.
DATA_KINDS = ("discrete", "gaussian", "mixed")

_KIND_WORDS = {
    "discrete": "discrete",
    "gaussian": "continuous (Gaussian)",
    "mixed": "mixed discrete and continuous",
}


def _canonical(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


@dataclass(frozen=True)
class Family:
    """One named statistic and its class for each data kind."""

    name: str
    classes: Mapping[str, type]
    description: str = ""
    #: Alias -> (kind restriction or None, preset parameters).
    aliases: Mapping[str, tuple[str | None, dict]] = field(default_factory=dict)


class FamilyRegistry:
    """Maps family names (and aliases) times data kinds to parameter-object classes.

    Parameters
    ----------
    what : str
        What the entries are, for messages ("score", "CI test").
    base : type
        The base class of the objects (``Score``, ``CITest``).
    parameter : str
        The learner parameter that takes them ("criterion", "ci_test"), for messages.
    """

    def __init__(self, what: str, base: type, parameter: str) -> None:
        self.what = what
        self.base = base
        self.parameter = parameter
        self._families: dict[str, Family] = {}
        self._lookup: dict[str, tuple[str, str | None, dict]] = {}
        self._spelling: dict[str, str] = {}  # canonical key -> the name as registered
        # (purpose, kind) -> (family, preset parameters)
        self._defaults: dict[tuple[str, str], tuple[str, dict]] = {}

    # -- building ------------------------------------------------------------------------------
    def register(
        self,
        name: str,
        *,
        description: str = "",
        aliases: Mapping[str, tuple[str | None, dict]] | None = None,
        **classes: type,
    ) -> None:
        """Add family ``name`` with one class per data kind (``discrete=BIC, ...``).

        ``aliases`` maps other names to ``(kind or None, preset parameters)``: an alias with a
        kind accepts only that kind of data (bnlearn's "bic-g" is Gaussian BIC only).
        """
        unknown = set(classes) - set(DATA_KINDS)
        if unknown:  # pragma: no cover - a programming error
            raise ValueError(f"Unknown data kinds {sorted(unknown)}.")
        family = Family(name, dict(classes), description, dict(aliases or {}))
        self._families[name] = family
        self._lookup[_canonical(name)] = (name, None, {})
        self._spelling[_canonical(name)] = name
        for alias, (kind, preset) in family.aliases.items():
            if _canonical(alias) in self._spelling:
                continue  # a spelling of a name already registered
            self._lookup[_canonical(alias)] = (name, kind, dict(preset))
            self._spelling[_canonical(alias)] = alias

    def set_default(self, purpose: str = "search", **families) -> None:
        """The family used when the parameter is None, per data kind.

        Each value is a family name, or ``(name, params)`` for a family with preset
        parameters (parameters given at resolution override them). ``purpose`` keeps
        separate defaults for separate uses: ``"search"`` (a learner's own score or test,
        what ``None`` resolves to) and others (e.g. scoring held-out data).
        """
        for kind, spec in families.items():
            name, params = (spec, {}) if isinstance(spec, str) else spec
            self._defaults[(purpose, kind)] = (name, dict(params))

    def default(self, kind: str, purpose: str = "search") -> tuple[str, dict]:
        """The default family name and its preset parameters for data of ``kind``."""
        if (purpose, kind) not in self._defaults:
            raise ValueError(f"No default {self.what} for {_KIND_WORDS.get(kind, kind)} data.")
        name, params = self._defaults[(purpose, kind)]
        return name, dict(params)

    def resolve_default(self, kind: str, purpose: str):
        """A new object of the default family for ``purpose`` on data of ``kind``."""
        name, params = self.default(kind, purpose)
        return self.resolve(name, kind, **params)

    # -- queries -------------------------------------------------------------------------------
    @property
    def families(self) -> dict[str, Family]:
        """The registered families by name."""
        return dict(self._families)

    def names(self) -> list[str]:
        """Every accepted name: family names and aliases, sorted.

        Matching ignores case and treats ``-`` and ``_`` alike.
        """
        return sorted(self._spelling.values())

    def family_names(self) -> list[str]:
        """The family names only, in registration order."""
        return list(self._families)

    def _entry(self, name: str) -> tuple[str, str | None, dict]:
        key = _canonical(name)
        if key not in self._lookup:
            families = [_canonical(n) for n in self._families]
            close = difflib.get_close_matches(key, families, n=1) or difflib.get_close_matches(
                key, self._lookup, n=1
            )
            hint = f" Did you mean {self._spelling[close[0]]!r}?" if close else ""
            raise ValueError(
                f"Unknown {self.what} {name!r}.{hint} {self.parameter} takes a "
                f"{self.base.__name__} object or one of: {', '.join(self.family_names())} "
                f"(also accepted: {', '.join(n for n in self.names() if n not in self._families)})."
            )
        return self._lookup[key]

    def family_of(self, obj) -> str | None:
        """The family an object belongs to (by its class), or None."""
        for family in self._families.values():
            if type(obj) in family.classes.values():
                return family.name
        return None

    def kinds(self, spec) -> tuple[str, ...]:
        """The data kinds ``spec`` (None, a name or an object) can work on."""
        if spec is None:
            return tuple(k for k in DATA_KINDS if ("search", k) in self._defaults)
        if isinstance(spec, str):
            family, kind, _ = self._entry(spec)
            available = self._families[family].classes
            return (kind,) if kind is not None else tuple(k for k in DATA_KINDS if k in available)
        if isinstance(spec, self.base):
            return (spec.data_kind,)
        raise TypeError(
            f"{self.parameter} must be a {self.base.__name__}, one of its family names or None; "
            f"got {type(spec).__name__}."
        )

    def resolve(self, spec, kind: str, **params):
        """The object ``spec`` stands for on data of ``kind``.

        A name gives a new object with ``params`` (and an alias's preset parameters); an object
        is returned as it is if it works on ``kind``; None gives the default family.
        """
        if spec is None:
            spec, preset = self.default(kind)
            params = {**preset, **params}
        if isinstance(spec, str):
            family, only, preset = self._entry(spec)
            classes = self._families[family].classes
            if (only is not None and only != kind) or kind not in classes:
                usable = [n for n, f in self._families.items() if kind in f.classes]
                raise ValueError(
                    f"The {self.what} {spec!r} is not defined for {_KIND_WORDS.get(kind, kind)} "
                    f"data. For such data use one of: {', '.join(usable)}."
                )
            cls = classes[kind]
            try:
                return cls(**{**preset, **params})
            except TypeError:
                valid = sorted(cls().get_params())
                raise ValueError(
                    f"{', '.join(sorted(params))} cannot be set on the {self.what} {spec!r} "
                    f"({cls.__name__}); its parameters are {valid or 'none'}."
                ) from None
        if params:
            one = len(params) == 1
            raise ValueError(
                f"{', '.join(sorted(params))} {'applies' if one else 'apply'} to a {self.what} "
                f"given by name only; with {spec!r}, set {'it' if one else 'them'} on the "
                f"{self.what} object instead."
            )
        self.kinds(spec)  # type check
        if spec.data_kind != kind:
            family = self.family_of(spec)
            hint = (
                f" Use {family!r} to get the {self.what} of that family for the data."
                if family and kind in self._families[family].classes
                else ""
            )
            raise ValueError(
                f"{type(spec).__name__} needs {_KIND_WORDS[spec.data_kind]} data, but the data "
                f"is {_KIND_WORDS.get(kind, kind)}.{hint}"
            )
        return spec

    def table(self) -> list[tuple[str, dict[str, str], list[str], str]]:
        """``(family, {kind: class name}, aliases, description)`` rows, for docs and the CLI."""
        return [
            (
                f.name,
                {k: c.__name__ for k, c in f.classes.items()},
                sorted(f.aliases),
                f.description,
            )
            for f in self._families.values()
        ]


def required_kind(*pairs: tuple[FamilyRegistry, object]) -> str:
    """The data kind that several specs agree on, or "auto" if more than one would do.

    ``pairs`` are ``(registry, spec)``; raises if the specs have no kind in common.
    """
    allowed = set(DATA_KINDS)
    for registry, spec in pairs:
        allowed &= set(registry.kinds(spec))
    if not allowed:
        described = ", ".join(f"{r.parameter}={s!r}" for r, s in pairs)
        raise ValueError(
            f"{described} need different kinds of data; choose ones for the same kind."
        )
    return allowed.pop() if len(allowed) == 1 else "auto"
