"""The toy ruleset of ``tests/toy_ruleset`` joins every test run (and every xdist worker),
so the generic tests parametrised over ``labyrinth_env.list_envs()`` check it like the five
built-in rulesets.

A whole-suite run on several xdist workers first fills the kernel cache for every ruleset,
one process per worker (``labyrinth compile``, a line per ruleset as it goes): left to the
tests, the workers and the processes the tests start compiled the same kernels side by side
(on 2 cores from an empty cache the suite took 15 min 16 s; compiled once first, 10 min 48 s).
On a warm cache it costs the few seconds of loading; ``LABYRINTH_TEST_PRECOMPILE=0`` turns
it off.
"""

from __future__ import annotations

import os
import time

import pytest

import labyrinth_env
from tests.toy_ruleset import SPEC as TOY_SPEC

labyrinth_env.register_ruleset(TOY_SPEC)
ANALYSED = ("toy_race_v", "labyrinx_v")  # the rulesets tests analyse (env id starts)
PARALLEL = ("toy_race_v", "team_edition_v")  # the rulesets whose parallel vector loops tests run
TOY_ONLY = ("toy_race_v",)


def _whole_suite(config: pytest.Config) -> bool:
    """No selection of files, tests, keywords or markers: the run needs every ruleset."""
    if config.option.collectonly or config.option.keyword or config.option.markexpr:
        return False
    if getattr(config.option, "lf", False) or getattr(config.option, "failedfirst", False):
        return False
    return not any("::" in arg or arg.endswith(".py") for arg in config.args)


def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    workers = getattr(config.option, "numprocesses", None) or 0
    if hasattr(config, "workerinput") or workers < 2 or not _whole_suite(config):
        return
    if os.environ.get("LABYRINTH_TEST_PRECOMPILE", "1") in ("0", "false", "no", "off"):
        return
    from labyrinth_env.compile import compile_rulesets

    paths = precompile_paths()
    capture = config.pluginmanager.getplugin("capturemanager")
    started = time.perf_counter()
    with capture.global_and_fixture_disabled():
        print(f"\nthe kernels of every ruleset, compiled once for the {workers} test workers (or loaded if cached):")
        try:
            compile_rulesets(list(paths), paths, jobs=workers)
        except RuntimeError as exc:  # the tests of that ruleset will fail with the whole story
            print(f"compiling failed ({exc}); the tests follow and compile what they need")
            return
        print(f"kernels ready in {time.perf_counter() - started:.0f} s; the tests follow")


def precompile_paths() -> dict[str, list[str]]:
    """The compile paths of each ruleset that the tests run (what the precompile builds)."""
    from labyrinth_env.compile import PATHS

    # The self-play learner's kernels ("alphazero") and the benchmark's in-kernel loops
    # ("batch") serve the toy's tests above all (test_selfplay, test_compile, test_rulesets:
    # some 22 s CPU on an empty cache, which two test workers could compile side by side);
    # the other rulesets' few tests that run them (Labyrinx's hidden-information check of
    # the learner's search, Team Edition's benchmarks and forks) compile the part they call.
    # The game card's analysis loops ("analyze") serve the rulesets whose analysis the tests
    # run (test_analyze, test_game_ends: ANALYSED); the others' tests count only what a seat
    # cannot see (``unseen_one``, about 4 s to compile against some 25 s for the loops,
    # Team Edition on a loaded machine) and compile that themselves.
    # The vector env's parallel loops ("parallel", a third of a large ruleset's compile) serve
    # the tests that step 32 games and more at once or ask for them: the toy's (test_vector,
    # test_compile) and Team Edition's (test_fork, test_train's evaluations, test_benchmarks).
    common = [p for p in PATHS if p not in ("batch", "alphazero", "analyze", "parallel")]
    extra = {"analyze": ANALYSED, "parallel": PARALLEL, "alphazero": TOY_ONLY, "batch": TOY_ONLY}
    return {e: common + [p for p in PATHS if p in extra and e.startswith(extra[p])] for e in labyrinth_env.list_envs()}
