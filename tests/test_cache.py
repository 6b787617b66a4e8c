"""The kernel cache (``labyrinth_env.core.cache``): a function is stamped with the contents of
every source it compiles in, so editing any of them (not only the function's own file) is
never answered with old code, while an unchanged tree loads from the cache; a folder that
cannot be written falls back to compiling in the process, with one warning."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import labyrinth_env
from labyrinth_env.core.cache import source_closure

TOY = Path(__file__).parent / "toy_ruleset"

# Plays the first decision of 40 games of the copied toy ruleset through its bound loops
# (``step_one`` lives in core/batch_template.py, the die in the toy's kernel/tables.py) and
# prints the rolls seen and whether ``step_one`` came from the cache.
SCRIPT = """
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import labyrinth_env
from toycopy import SPEC
labyrinth_env.register_ruleset(SPEC)
loops, K = SPEC.loops, SPEC.kernel
states = SPEC.new_states(1)
mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
rewards = np.zeros(K.NUM_SEATS)
rolls = set()
for seed in range(40):
    loops.init_one(states, np.uint64(seed), np.array([2, 30], dtype=np.int32))
    loops.refresh_one(states, mask, rewards)
    loops.step_one(states, K.A_PASS, mask, rewards)
    rolls.add(int(states[0]["roll"]))
stats = loops.step_one.stats
print(json.dumps({"rolls": sorted(rolls), "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values())}))
"""


def _run(packages: Path, cache: Path) -> dict:
    env = {**os.environ, "LABYRINTH_CACHE_DIR": str(cache), "NUMBA_NUM_THREADS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(packages)], capture_output=True, text=True, env=env, timeout=600
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # three fresh processes, two of which compile
def test_an_edit_to_any_compiled_source_recompiles_and_an_unchanged_tree_loads(tmp_path):
    packages = tmp_path / "packages"
    shutil.copytree(TOY, packages / "toycopy", ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    first = _run(packages, cache)
    assert first["rolls"] == [1, 2, 3, 4, 5, 6] and first["hits"] == 0
    again = _run(packages, cache)
    assert again["rolls"] == first["rolls"] and again["hits"] > 0 and again["misses"] == 0
    # a one-sided die, in a file that step_one's own file (the template) does not change with
    tables = packages / "toycopy" / "kernel" / "tables.py"
    tables.write_text(tables.read_text().replace("DIE_SIDES = 6", "DIE_SIDES = 1"))
    edited = _run(packages, cache)
    assert edited["rolls"] == [1] and edited["hits"] == 0


def test_the_stamp_covers_every_module_compiled_in_and_nothing_else():
    spec = labyrinth_env.get_spec("toy_race_v0")
    assert spec.loops.K is spec.kernel  # bound, so its closure can be read
    closure = set(source_closure("tests.toy_ruleset.loops"))
    assert {
        "tests.toy_ruleset.loops",  # the template's code, bound to the toy
        "tests.toy_ruleset.kernel",
        "tests.toy_ruleset.kernel.tables",
        "tests.toy_ruleset.kernel.turn",
        "tests.toy_ruleset.heuristic",
        "labyrinth_env.core.contract",
        "labyrinth_env.core.rng",
    } <= closure
    # Python-only layers (env, registry, spec) and other rulesets are not compiled in
    assert not {"tests.toy_ruleset.env", "labyrinth_env.registry", "labyrinth_env.aec", "labyrinth_env.spec"} & closure
    assert not any(name.startswith("labyrinth_env.rulesets.") for name in closure)


def test_an_unwritable_cache_folder_compiles_in_the_process_with_one_warning(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    env = {**os.environ, "LABYRINTH_CACHE_DIR": str(blocker / "cache"), "NUMBA_NUM_THREADS": "1"}
    code = (
        "import labyrinth_env, numpy as np\n"
        "from tests.toy_ruleset import SPEC\n"
        "labyrinth_env.register_ruleset(SPEC)\n"
        "env = labyrinth_env.make('toy_race_v0'); env.reset(seed=0)\n"
        "env.step(int(np.flatnonzero(env.observe(env.agent_selection)['action_mask'])[0]))\n"
        "print('played')\n"
    )
    root = Path(__file__).parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600, cwd=root)
    assert out.returncode == 0 and out.stdout.strip() == "played", out.stderr[-2000:]
    assert out.stderr.count("cannot be written") == 1, out.stderr[-2000:]
    assert "Traceback" not in out.stderr
