"""Saying what numba compiles while it compiles.

The first use of a ruleset in a process compiles its kernels unless the cache holds them
(``core.cache``): tens of seconds that would otherwise pass in silence. ``compiling(what)``
watches numba's compile events inside its block and, once compiling has gone on for a
moment, shows it on stderr: a live line in a terminal ("compiling Labyrinthos kernels,
first run only: 37 functions, 12 s, now: advance"), a plain line every few seconds
elsewhere, and one line at the end. Nothing shows when everything comes from the cache.

``LABYRINTH_PROGRESS=0`` silences it (the counts are still returned).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from numba.core import event

SHOW_AFTER_S = 1.0  # compiles shorter than this pass without a word
PLAIN_EVERY_S = 5.0  # a line this often when stderr is not a terminal


@dataclass
class CompileReport:
    """What compiled inside a ``compiling`` block."""

    what: str
    functions: int = 0  # compiles finished (one function for one set of argument types)
    seconds: float = 0.0  # the block's wall time
    current: str = ""  # the function being compiled now
    started: float = field(default_factory=time.perf_counter)
    _depth: int = 0

    def line(self) -> str:
        elapsed = time.perf_counter() - self.started
        now = f", now: {self.current}" if self.current else ""
        return f"compiling {self.what}, first run only: {self.functions} functions, {elapsed:.0f} s{now}"


class _Listener(event.Listener):
    def __init__(self, report: CompileReport) -> None:
        self.report = report

    def on_start(self, ev: Any) -> None:
        self.report._depth += 1
        py_func = getattr(ev.data.get("dispatcher"), "py_func", None)
        self.report.current = getattr(py_func, "__name__", "")

    def on_end(self, ev: Any) -> None:
        self.report._depth -= 1
        self.report.functions += 1


def enabled() -> bool:
    return os.environ.get("LABYRINTH_PROGRESS", "1") not in ("0", "false", "no", "off")


@contextmanager
def compiling(what: str, show: bool | None = None) -> Iterator[CompileReport]:
    """Count (and, after ``SHOW_AFTER_S``, show) the numba compiles in the block."""
    report = CompileReport(what)
    listener = _Listener(report)
    show = enabled() if show is None else show
    stop = threading.Event()
    shown = threading.Event()
    thread = threading.Thread(target=_show, args=(report, stop, shown), daemon=True) if show else None
    event.register("numba:compile", listener)
    if thread is not None:
        thread.start()
    try:
        yield report
    finally:
        event.unregister("numba:compile", listener)
        stop.set()
        if thread is not None:
            thread.join()
        report.seconds = time.perf_counter() - report.started
        report.current = ""
        if shown.is_set():
            _write(f"compiled {what}: {report.functions} functions in {report.seconds:.0f} s (cached for later runs)\n")


def _write(text: str, live: bool = False) -> None:
    stream = sys.stderr
    if live:
        stream.write("\r\033[2K" + text)
    else:
        stream.write(("\r\033[2K" if stream.isatty() else "") + text)
    stream.flush()


def _show(report: CompileReport, stop: threading.Event, shown: threading.Event) -> None:
    terminal = sys.stderr.isatty()
    last_plain = 0.0
    while not stop.wait(0.25):
        elapsed = time.perf_counter() - report.started
        if (report.functions == 0 and report._depth == 0) or elapsed < SHOW_AFTER_S:
            continue
        if terminal:
            _write(report.line()[:150], live=True)
            shown.set()
        elif elapsed - last_plain >= PLAIN_EVERY_S or not shown.is_set():
            _write(report.line() + "\n")
            last_plain = elapsed
            shown.set()


_FIRST_DONE: set[Any] = set()


@contextmanager
def first_use(key: Any, what: str) -> Iterator[CompileReport | None]:
    """``compiling(what)`` the first time a block with this ``key`` runs in the process
    (a ruleset's entry points, an agent's kernel); afterwards a plain block (no listener in
    hot loops)."""
    if key in _FIRST_DONE:
        yield None
        return
    with compiling(what) as report:
        yield report
    _FIRST_DONE.add(key)
