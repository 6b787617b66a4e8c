"""Typed, validated options shared by every ruleset.

A ruleset declares its options as a frozen dataclass whose fields carry an ``Option``
description in their metadata (allowed values, a custom check). ``parse_options``
turns keyword arguments (from ``make()`` or a YAML config) into that dataclass, or
raises ``ValueError`` naming the option and what is allowed. Nothing is half-applied:
an env is built only from a fully validated options object.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")


@dataclass(frozen=True)
class Option:
    """How one option is checked. ``choices`` lists allowed values; ``int_range`` bounds an
    integer (inclusive); ``optional`` admits None; ``check`` normalises or raises ValueError
    with a message of its own; ``help`` is shown in errors and docs; ``none_refused`` says
    why None, which users may expect (another ruleset's option of that name admits it), is
    not allowed here."""

    help: str
    choices: tuple | None = None
    int_range: tuple[int, int] | None = None
    optional: bool = False
    check: Callable[[Any], Any] | None = None
    none_refused: str | None = None


def option(default: Any, help: str, **kwargs: Any) -> Any:
    """A dataclass field with an ``Option`` description."""
    spec = Option(help=help, **kwargs)
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: type(default)(default), metadata={"option": spec})
    return field(default=default, metadata={"option": spec})


def check_bool(value: Any) -> bool:
    """An ``Option.check`` for flags: only True or False (not 0, 1 or "yes")."""
    if not isinstance(value, bool):
        raise ValueError("expected True or False")
    return value


def lookahead_option() -> Any:
    """The ``lookahead`` option every ruleset offers: a learner's aid, off by default, that
    appends per-action features of what each legal action leads to (``observation_size``)."""
    return option(False, "append per-action lookahead features to the observation (for learners)", check=check_bool)


def plain(value: Any) -> Any:
    """``value`` with numpy scalars turned into the Python values they stand for (also
    inside lists, tuples and dicts), so that an option given as ``np.int64(2)`` or
    ``np.str_("x")`` is checked and stored as ``2`` or ``"x"``."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    return value


def _allowed(spec: Option) -> str:
    parts = []
    if spec.choices is not None:
        parts.append("one of " + ", ".join(repr(c) for c in spec.choices))
    if spec.int_range is not None:
        parts.append(f"an integer from {spec.int_range[0]} to {spec.int_range[1]}")
    if spec.optional:
        parts.append("None")
    return " or ".join(parts) if parts else spec.help


def _check_value(name: str, value: Any, spec: Option) -> Any:
    value = plain(value)
    if value is None and spec.optional:
        return None
    if value is None and spec.none_refused:
        raise ValueError(f"option {name}=None is not allowed: {spec.none_refused}; expected {_allowed(spec)}")
    if spec.int_range is not None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"option {name}={value!r} is not allowed: expected {_allowed(spec)}")
        lo, hi = spec.int_range
        if not lo <= value <= hi:
            raise ValueError(f"option {name}={value!r} is not allowed: expected {_allowed(spec)}")
    if spec.choices is not None and value not in spec.choices:
        raise ValueError(f"option {name}={value!r} is not allowed: expected {_allowed(spec)}")
    if spec.check is not None:
        try:
            value = spec.check(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"option {name}={value!r} is not allowed: {exc}") from None
    return value


# Options of other PettingZoo envs that users bring along, with what to use here instead.
FOREIGN_OPTIONS = {
    "max_cycles": "PettingZoo's cycles, where every agent acts once, do not exist in these turn-based "
    "games; max_turns limits whole turns and ends the game as a truncation",
}


def parse_options(cls: type[T], given: Mapping[str, Any], env_id: str) -> T:
    """Build ``cls`` from ``given``: unknown names, bad values and bad combinations raise
    ``ValueError`` naming the option and the allowed values."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(given) - set(fields))
    if unknown:
        hints = "".join(f" ({name}: {FOREIGN_OPTIONS[name]})" for name in unknown if name in FOREIGN_OPTIONS)
        raise ValueError(
            f"unknown option(s) {', '.join(unknown)} for {env_id}; allowed options: {', '.join(fields)}{hints}"
        )
    values = {}
    for name, value in given.items():
        values[name] = _check_value(name, value, fields[name].metadata["option"])
    obj = cls(**values)
    validate = getattr(obj, "validate", None)
    if validate is not None:
        validate()
    return obj


def describe_options(cls: type) -> list[tuple[str, Any, str]]:
    """(name, default, allowed) rows for docs and ``--help``."""
    rows = []
    for f in dataclasses.fields(cls):
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        rows.append((f.name, default, _allowed(f.metadata["option"])))
    return rows


def options_dict(obj: Any) -> dict[str, Any]:
    """The options as plain JSON-able values (for replays and configs)."""
    out = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else (dict(v) if isinstance(v, Mapping) else v)
    return out


def option_assignment(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` from a command line (``--option``), the value read as YAML
    (``lookahead=true``, ``num_players=3``, ``daedalus_deck={push: 30}``)."""
    import yaml

    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"--option takes NAME=VALUE (e.g. variant=standard), got {text!r}")
    try:
        return key.strip(), yaml.safe_load(value)
    except yaml.YAMLError as exc:
        raise ValueError(f"--option {text!r}: the value is not YAML ({exc})") from None
