"""``labyrinth compile``: it fills the cache with what the envs then use, says what it does
away from a terminal, and answers bad arguments in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from labyrinth_env import cli
from labyrinth_env.compile import PATHS, compile_rulesets
from tests.toy_ruleset import SPEC as TOY_SPEC

TOY = TOY_SPEC.env_id
ROOT = Path(__file__).resolve().parent.parent

# A fresh process that uses the toy ruleset as a user would (the AEC env, a vector env of
# each kind with each opponent, the heuristic and search agents) and prints how many numba
# compiles that took.
_USE_EVERYTHING = """
import json, sys
import numpy as np
from numba.core import event
import labyrinth_env
from labyrinth_env.agents import make_agent
from labyrinth_env.vector import VectorEnv
from tests.toy_ruleset import SPEC
labyrinth_env.register_ruleset(SPEC)
compiled = []
class Count(event.Listener):
    def on_start(self, ev): pass
    def on_end(self, ev): compiled.append(ev.data["dispatcher"].py_func.__qualname__)
event.register("numba:compile", Count())
env = labyrinth_env.make(SPEC.env_id)
env.reset(seed=3)
obs = env.observe(env.agent_selection)
env.step(int(make_agent("heuristic").act(obs, env)))
make_agent("mcts:simulations=2,rollout_steps=4", 0).act(env.observe(env.agent_selection), env)
env.unwrapped.seat_view()  # a seat's forward model: determinize
if "alphazero" in sys.argv[1:]:  # the learned agent's and the self-play learner's kernels
    from labyrinth_env.compile import _warm_alphazero
    _warm_alphazero(SPEC, env.unwrapped)
for opponents in ("random", "heuristic"):
    for parallel in (False, True):
        vec = VectorEnv(SPEC.env_id, 40, seed=1, opponents=opponents, parallel=parallel)
        vec.reset()
        for _ in range(3):
            vec.step(np.argmax(vec.action_masks(), axis=1))
print(json.dumps(compiled))
"""


def test_compiled_paths_leave_nothing_to_compile_in_a_new_process(tmp_path, capsys):
    paths = ["aec", "vector", "parallel", "heuristic", "determinize", "search", "alphazero"]
    seconds = compile_rulesets([TOY], paths, jobs=1)
    assert set(seconds) == {TOY}
    out = capsys.readouterr().out  # not a terminal here: plain lines, not a bar drawn at the end
    assert f"{TOY}: compiling" in out and (f"{TOY}: compiled in" in out or f"{TOY}: ready in" in out)
    # said once: a bar drawn at the end off a terminal would say it again
    assert out.count(f"{TOY}: compiled in") + out.count(f"{TOY}: ready in") == 1, out
    done = subprocess.run(
        [sys.executable, "-c", _USE_EVERYTHING, "alphazero"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_every_path_is_named_and_helped():
    assert PATHS == ("aec", "vector", "parallel", "heuristic", "determinize", "search", "alphazero", "batch", "analyze")
    from labyrinth_env.compile import PATH_HELP

    assert set(PATH_HELP) == set(PATHS)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--env", "nope_v0"], ("unknown env id 'nope_v0'", "available")),
        (["--jobs", "0"], ("--jobs must be >= 1, got 0",)),
        (["--paths", "everything"], ("invalid choice: 'everything'",)),
        (["--import", "k.tar.gz", "--env", "team_edition_v2"], ("--import takes no --env or --paths",)),
        (["--import", "k.tar.gz", "--export", "x.tar.gz"], ("not allowed with argument",)),
    ],
)
def test_bad_arguments_are_one_line_errors(argv, words, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["compile", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert all(w in err[-1] for w in words), err
    assert "Traceback" not in "\n".join(err)


@pytest.mark.slow  # compiles the toy's AEC path twice: ~20 s on 2 busy cores
def test_a_compile_says_n_of_about_m_functions_with_m_from_the_last_compile_of_the_same_sources(
    tmp_path, monkeypatch, capsys
):
    import shutil

    from labyrinth_env import progress
    from labyrinth_env.compile import COUNTS_FILE

    monkeypatch.setenv("LABYRINTH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(progress, "PLAIN_EVERY_S", 0.0)  # every count as a line
    compile_rulesets([TOY], ["aec"], jobs=1)
    first = capsys.readouterr().out
    ((key, recorded),) = json.loads((tmp_path / COUNTS_FILE).read_text()).items()
    assert f"{TOY}: compiled in" in first and f"({recorded} functions)" in first, first
    assert "of about" not in first  # nothing to go by the first time
    for folder in tmp_path.iterdir():  # the kernels gone, the count kept
        if folder.is_dir():
            shutil.rmtree(folder)
    compile_rulesets([TOY], ["aec"], jobs=1)
    again = capsys.readouterr().out
    assert f"of about {recorded} functions" in again, again
    # a cache that holds them: loaded, nothing compiled, the count unchanged
    seconds = compile_rulesets([TOY], ["aec"], jobs=1)
    assert f"{TOY}: ready in" in capsys.readouterr().out
    assert json.loads((tmp_path / COUNTS_FILE).read_text()) == {key: recorded}
    assert set(seconds) == {TOY}


def test_commands_compile_what_their_agents_need_before_the_first_game(monkeypatch):
    from labyrinth_env.agents import evaluate as ev
    from labyrinth_env.agents import tournament
    from labyrinth_env.compile import agent_paths

    assert agent_paths(["random", "heuristic", "mcts:simulations=5", "learned", "ppo:x.zip"]) == [
        "aec",
        "heuristic",
        "determinize",
        "search",
        "alphazero",
    ]
    calls = []
    monkeypatch.setattr(ev, "prepare", lambda env_id, specs: calls.append(("prepare", env_id, list(specs))))

    def match(env_id, specs, games, seed, progress=False, **options):
        calls.append(("games", env_id))
        return {}

    monkeypatch.setattr(ev, "evaluate_match", match)
    monkeypatch.setattr(ev, "format_match", lambda result: "")
    assert ev.main(["--env", TOY, "--agents", "heuristic,mcts", "--games", "1", "--no-progress"]) == 0
    assert calls == [("prepare", TOY, ["heuristic", "mcts"]), ("games", TOY)]

    calls.clear()
    monkeypatch.setattr(tournament, "prepare", lambda env_id, specs: calls.append(("prepare", env_id, list(specs))))

    def play(t, *args, **kwargs):
        calls.append(("games", t.env_id))
        return {}

    monkeypatch.setattr(tournament, "_play_and_report", play)
    tournament.run_tournament(TOY, ["random", "heuristic"], games=1, progress=False, plot=False)
    assert calls == [("prepare", TOY, ["random", "heuristic"]), ("games", TOY)]


def _slow_exit_child(*args) -> None:
    """``compile._child``, then a slow exit (numba and LLVM tearing down took 6-20 s)."""
    import time

    from labyrinth_env.compile import _child

    _child(*args)
    time.sleep(6)


def test_a_rulesets_line_comes_when_it_is_done_not_when_its_process_has_exited(monkeypatch):
    import multiprocessing
    import time

    from labyrinth_env import compile as C

    spawn = multiprocessing.get_context("spawn")

    class SlowExits:
        Queue = spawn.Queue

        def Process(self, target, args, daemon):
            return spawn.Process(target=_slow_exit_child, args=args, daemon=daemon)

    lines = []
    monkeypatch.setattr(C.multiprocessing, "get_context", lambda kind: SlowExits())
    monkeypatch.setattr(C, "print", lambda text, **kw: lines.append((time.perf_counter(), text)), raising=False)
    C.compile_rulesets([TOY], ["aec"], jobs=1)
    returned = time.perf_counter()
    (said,) = [t for t, text in lines if text.startswith((f"{TOY}: ready in", f"{TOY}: compiled in"))]
    assert returned - said > 4, lines  # said at once, while the process was still exiting
