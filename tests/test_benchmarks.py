"""Smoke tests of the benchmarks (throughput, vector_throughput, peers, ppo_throughput):
structure and output only, never speed."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import labyrinth_env
from labyrinth_env.benchmarks import throughput

ENV_ID = "team_edition_v2"


@pytest.fixture(scope="module")
def result() -> dict[str, Any]:
    return throughput.run([ENV_ID], seconds=0.2, repeats=1, quick=True, measure_compile=False, progress=False)


def test_rows_cover_every_kind(result: dict[str, Any]) -> None:
    kinds = {(row["env_id"], row["kind"]) for row in result["rows"]}
    assert kinds == {
        (throughput.REFERENCE_ID, "reference"),
        (ENV_ID, "aec"),
        (ENV_ID, "raw"),
        (ENV_ID, "kernel_serial"),
        (ENV_ID, "kernel_batch"),
    }


def test_rows_hold_positive_numbers(result: dict[str, Any]) -> None:
    for row in result["rows"]:
        assert row["steps_per_s"] > 0, row
        assert row["us_per_step"] > 0, row
        assert row["threads"] >= 1
        assert len(row["samples"]) == 1
        sample = row["samples"][0]
        assert sample["steps"] > 0 and sample["seconds"] > 0
    by_kind = {row["kind"]: row for row in result["rows"]}
    # the serial kernel runs about a thousand whole games in 0.2 s even on a busy machine; the
    # prange row can finish none there (2 OpenMP threads on 2 cores that other processes hold
    # wait for each other at every region), so only its counter's sign is checked
    assert by_kind["kernel_serial"]["games_per_s"] > 0
    assert by_kind["kernel_batch"]["games_per_s"] >= 0
    assert by_kind["reference"]["ratio_to_connect_four"] == pytest.approx(1.0)
    for kind in ("aec", "raw"):
        assert by_kind[kind]["ratio_to_connect_four"] > 0
    for kind in ("kernel_serial", "kernel_batch"):
        assert by_kind[kind]["ratio_to_connect_four"] is None


def test_parameters_and_machine_info(result: dict[str, Any]) -> None:
    params = result["parameters"]
    assert params["env_ids"] == [ENV_ID]
    assert params["repeats"] == 1 and params["quick"] is True
    assert params["measure_compile"] is False
    assert result["compile"] == []
    machine = result["machine"]
    for key in ("cpu_count", "python", "numpy", "numba", "pettingzoo", "numba_num_threads"):
        assert machine[key], key


def test_json_writer_round_trips(result: dict[str, Any], tmp_path: Path) -> None:
    out = throughput.write_json(result, tmp_path / "nested" / "throughput.json")
    loaded = json.loads(out.read_text())
    assert loaded["rows"] == json.loads(json.dumps(result["rows"]))
    assert loaded["benchmark"] == "throughput"


def test_print_table_runs(result: dict[str, Any]) -> None:
    from rich.console import Console

    console = Console(record=True, width=160)
    throughput.print_table(result, console)
    text = console.export_text()
    assert ENV_ID in text and throughput.REFERENCE_ID in text


def test_unknown_env_id_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown env id 'no_such_env'"):
        throughput.run(["no_such_env"], seconds=0.1, repeats=1, quick=True, measure_compile=False, progress=False)


def test_cli_rejects_unknown_env_id(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        throughput.main(["--env", "no_such_env", "--quick", "--no-compile"])
    assert exc.value.code == 2
    assert "unknown env id 'no_such_env'" in capsys.readouterr().err


def test_options_reach_every_row_and_the_json(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: dict[str, list[dict[str, Any]]] = {"make": [], "raw_env": []}

    def spy(name: str) -> Any:
        real = getattr(labyrinth_env, name)

        def call(env_id: str, **options: Any) -> Any:
            calls[name].append(options)
            return real(env_id, **options)

        return call

    monkeypatch.setattr(labyrinth_env, "make", spy("make"))
    monkeypatch.setattr(labyrinth_env, "raw_env", spy("raw_env"))
    result = throughput.run(
        [ENV_ID],
        seconds=0.05,
        repeats=1,
        quick=True,
        measure_compile=False,
        progress=False,
        kinds=("aec", "raw", "kernel_serial"),
        options={"num_players": 3},
    )
    assert result["parameters"]["options"] == {"num_players": 3}
    assert [row["kind"] for row in result["rows"]] == ["aec", "raw", "kernel_serial"]
    assert calls["make"] and all(options == {"num_players": 3} for options in calls["make"])
    # the first raw_env call only checks the id; the raw and kernel rows come after it
    assert len(calls["raw_env"]) >= 4 and all(options == {"num_players": 3} for options in calls["raw_env"][1:])


def test_an_option_the_env_does_not_take_fails_before_measuring(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="no_such_option"):
        throughput.run(
            [ENV_ID], seconds=0.05, repeats=1, quick=True, measure_compile=False, options={"no_such_option": 1}
        )
    with pytest.raises(SystemExit) as exc:
        throughput.main(["--env", ENV_ID, "--quick", "--no-compile", "--option", "num_players=9"])
    assert exc.value.code == 2
    assert "num_players" in capsys.readouterr().err


@pytest.mark.slow
def test_warm_compile_probe_structure() -> None:
    # normal on-disk cache: fast once the kernels are cached, a full compile otherwise
    probe = throughput.compile_probe(ENV_ID, None)
    assert probe["env_id"] == ENV_ID
    assert probe["total_s"] > 0 and probe["subprocess_wall_s"] >= probe["total_s"]
    for name in ("import", "init_one", "refresh_one", "step_one", "observe_one"):
        assert probe["phases_s"][name] >= 0
    assert set(probe["phases_s"]) >= {"random_steps_batch_serial", "random_steps_batch"}


# --- vector_throughput.py, peers.py, ppo_throughput.py -------------------------------------------


def _markdown_tables(text: str) -> list[list[str]]:
    """The markdown tables of ``text``, each as its lines."""
    tables: list[list[str]] = []
    current: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables


def _assert_valid_tables(text: str) -> int:
    tables = _markdown_tables(text)
    for table in tables:
        width = table[0].count("|")
        assert re.fullmatch(r"\|(-+:?\|)+", table[1]), table[1]
        for line in table:
            assert line.endswith("|") and line.count("|") == width, (table[0], line)
    return len(tables)


def test_vector_throughput_rows_and_outputs(tmp_path: Path) -> None:
    from labyrinth_env.benchmarks import vector_throughput as vt

    out = tmp_path / "v.json"
    argv = ["--env", ENV_ID, "--batch", "1", "8", "--threads", "1", "--seconds", "0.05"]
    assert vt.main([*argv, "--no-peers", "--no-compile", "--no-ppo", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert [(r["batch"], r["threads"]) for r in result["rows"]] == [(1, 1), (8, 1)]
    assert [(r["kind"], r["batch"]) for r in result["kernel_rows"]] == [("kernel", 1), ("kernel", 8)]
    assert all(r["steps_per_s"] > 0 for r in result["rows"] + result["kernel_rows"])
    assert result["peers"] == [] and result["compile"] == [] and result["ppo"] == []
    assert result["targets"] == []  # no batch-1024 row
    md = out.with_suffix(".md").read_text()
    assert _assert_valid_tables(md) == 1
    assert f"| VectorEnv (Python API) | {ENV_ID} | 1 |" in md and "in-kernel random play" in md
    assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "argv",
    [["--env", "nope_v0"], ["--batch", "0"], ["--threads", "1", "0"], ["--seconds", "0"], ["--pgx-batch", "0"]],
)
def test_vector_throughput_cli_rejects_bad_settings(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from labyrinth_env.benchmarks import vector_throughput as vt

    assert vt.main([*argv, "--no-peers", "--no-compile", "--no-ppo"]) == 2
    err = capsys.readouterr().err
    assert "nope_v0" in err or ">= 1" in err or "> 0" in err


def _fake_peer(peer: str, batch: int, steps_per_s: float) -> dict[str, Any]:
    from labyrinth_env.benchmarks import peers

    return peers._row(peer, batch, version="0", steps_per_s=steps_per_s, games_per_s=1.0, other_cpu=0.0)


def test_targets_and_markdown_report(tmp_path: Path) -> None:
    from labyrinth_env.benchmarks import peers
    from labyrinth_env.benchmarks import vector_throughput as vt

    result = vt.run([ENV_ID], batches=[2], threads=[1], seconds=0.05, with_peers=False, compile_s=False)
    # a batch-1024 row and peer rows with known rates: the ratios and verdicts follow from them
    fast = {**result["rows"][0], "batch": 1024, "steps_per_s": 1_000_000.0}
    slow = {**fast, "threads": 2, "steps_per_s": 300_000.0}
    nocopy = {**fast, "kind": "vector_nocopy", "steps_per_s": 1_200_000.0}
    result["rows"] += [fast, slow, nocopy]
    result["peers"] = [
        _fake_peer("openspiel_backgammon", 1, 50_000.0),
        _fake_peer("openspiel_backgammon_obs", 1, 40_000.0),
        _fake_peer("openspiel_backgammon_rl", 1, 20_000.0),
        _fake_peer("pgx_backgammon", 1024, 400_000.0),
        _fake_peer("pgx_connect_four", 1024, 900_000.0),
        peers.not_installed("pettingzoo_connect_four", 1, "pettingzoo[classic]"),
    ]
    targets = vt._targets(result["rows"], result["peers"], {ENV_ID: 2.0})
    result["targets"] = targets
    assert [(t["threads"], t["batch"], t["copy"]) for t in targets] == [
        (1, 1024, True),
        (2, 1024, True),
        (1, 1024, False),
    ]
    assert targets[0]["ratio_to_openspiel"] == pytest.approx(20.0) and targets[0]["openspiel_target_met"]
    assert targets[0]["ratio_to_openspiel_rl"] == pytest.approx(50.0) and targets[0]["openspiel_rl_target_met"]
    assert targets[1]["ratio_to_openspiel_rl"] == pytest.approx(15.0) and targets[1]["openspiel_rl_target_met"]
    assert targets[2]["ratio_to_openspiel"] == pytest.approx(24.0)
    assert targets[0]["ratio_to_openspiel_obs"] == pytest.approx(25.0) and targets[0]["openspiel_obs_target_met"]
    assert targets[1]["ratio_to_openspiel_obs"] == pytest.approx(7.5) and not targets[1]["openspiel_obs_target_met"]
    assert targets[0]["ratio_to_pgx"] == pytest.approx(2.5) and targets[0]["pgx_target_met"]
    # every player's decisions against the bare loop: 2 decisions per learner step
    assert targets[1]["decisions_per_step"] == 2.0
    assert targets[1]["ratio_to_openspiel_all_decisions"] == pytest.approx(12.0)
    assert targets[1]["ratio_to_openspiel"] == pytest.approx(6.0) and not targets[1]["openspiel_target_met"]
    assert targets[1]["ratio_to_pgx"] == pytest.approx(0.75) and not targets[1]["pgx_target_met"]

    md = vt.markdown_report(result)
    assert _assert_valid_tables(md) == 3  # steps/s, targets, peers
    # columns: every batch size measured, ours and the peers'
    assert "| row | env / game | threads | 1 | 2 | 1024 | other CPU (max) |" in md
    assert "20.00× (met)" in md and "0.75× (not met)" in md and "| 2.00 | 12.00× |" in md
    assert (
        f"- {ENV_ID} (best: 1 thread(s), copy=False): ≥ 10× OpenSpiel bare 24.00× (met), obs + mask 30.00× (met), "
        "RL API 60.00× (met); "
        "faster than Pgx 3.00× (met)"
    ) in md
    assert f"| VectorEnv (Python API, copy=False) | {ENV_ID} | 1 |" in md
    assert "| PettingZoo connect_four_v3 (AEC) | — | 1 | not installed |" in md

    paths = vt.write_reports(result, tmp_path / "r" / "vector.json")
    assert json.loads(paths["json"].read_text())["targets"] == json.loads(json.dumps(targets))
    assert paths["markdown"].read_text() == md
    assert paths["png"] is not None and paths["png"].stat().st_size > 1000


def test_targets_without_peers_say_not_measured() -> None:
    from labyrinth_env.benchmarks import vector_throughput as vt

    row = {"env_id": ENV_ID, "kind": "vector", "batch": 1024, "threads": 1, "steps_per_s": 5.0}
    (target,) = vt._targets([row], [])
    assert target["ratio_to_openspiel"] is None and target["openspiel_target_met"] is None
    assert target["ratio_to_openspiel_rl"] is None and target["openspiel_rl_target_met"] is None
    assert target["ratio_to_openspiel_obs"] is None and target["openspiel_obs_target_met"] is None
    assert vt._ratio(None, None) == "not measured"


def test_vector_probe_times_every_phase() -> None:
    from labyrinth_env.benchmarks import vector_throughput as vt

    probe = vt.vector_probe(ENV_ID, import_s=0.5)
    assert set(probe["phases_s"]) == {"import", "make", "reset", "step", "random_steps_batch"}
    assert probe["phases_s"]["import"] == 0.5
    assert all(v >= 0 for v in probe["phases_s"].values())
    assert probe["total_s"] == pytest.approx(sum(probe["phases_s"].values()))


@pytest.mark.slow
def test_vector_compile_probe_in_a_fresh_interpreter() -> None:
    from labyrinth_env.benchmarks import vector_throughput as vt

    probe = vt.compile_probe(ENV_ID, None)
    assert probe["env_id"] == ENV_ID and probe["process_wall_s"] >= probe["total_s"] > 0


@pytest.mark.parametrize(
    ("blocked", "call", "peer", "package"),
    [
        ("pyspiel", lambda p: p.openspiel_backgammon(0.05), "openspiel_backgammon", "open_spiel"),
        ("pyspiel", lambda p: p.openspiel_backgammon(0.05, observe=True), "openspiel_backgammon_obs", "open_spiel"),
        ("pyspiel", lambda p: p.openspiel_backgammon_rl(0.05), "openspiel_backgammon_rl", "open_spiel"),
        ("pgx", lambda p: p.pgx_game("backgammon", 16, 0.05), "pgx_backgammon", "pgx"),
        ("pgx", lambda p: p.pgx_game("connect_four", 16, 0.05), "pgx_connect_four", "pgx"),
        ("pettingzoo.classic", lambda p: p.connect_four_aec(0.05), "pettingzoo_connect_four", "pettingzoo[classic]"),
    ],
)
def test_missing_peer_gives_a_not_installed_row(
    monkeypatch: pytest.MonkeyPatch, blocked: str, call: Any, peer: str, package: str
) -> None:
    from labyrinth_env.benchmarks import peers

    monkeypatch.setitem(sys.modules, blocked, None)  # makes ``import blocked`` raise ImportError
    row = call(peers)
    assert row["peer"] == peer and row["status"] == "not installed"
    assert row["steps_per_s"] is None and row["compile_s"] is None
    assert package in row["note"] and peers.INSTALL_HINT in row["note"]


def test_all_peers_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from labyrinth_env.benchmarks import peers

    for name in ("pyspiel", "pgx", "pettingzoo.classic"):
        monkeypatch.setitem(sys.modules, name, None)
    rows = peers.run(0.05, pgx_batches=[8, 1024])
    assert [(r["peer"], r["batch"]) for r in rows] == [
        ("pettingzoo_connect_four", 1),
        ("openspiel_backgammon", 1),
        ("openspiel_backgammon_obs", 1),
        ("openspiel_backgammon_rl", 1),
        ("pgx_backgammon", 8),
        ("pgx_backgammon", 1024),
        ("pgx_connect_four", 8),
        ("pgx_connect_four", 1024),
    ]
    assert {r["status"] for r in rows} == {"not installed"}


def test_peer_bad_input() -> None:
    from labyrinth_env.benchmarks import peers

    with pytest.raises(ValueError, match="unknown Pgx game 'chess'"):
        peers.pgx_game("chess", 8, 0.1)
    with pytest.raises(ValueError, match="batch must be an int >= 1"):
        peers.pgx_game("backgammon", 0, 0.1)
    with pytest.raises(ValueError, match="seconds must be > 0"):
        peers.openspiel_backgammon(0)


def test_openspiel_backgammon_measures_when_installed() -> None:
    pytest.importorskip("pyspiel")
    from labyrinth_env.benchmarks import peers

    row = peers.openspiel_backgammon(0.05, seed=1)
    assert row["status"] == "ok" and row["batch"] == 1
    assert row["steps_per_s"] > 0 and row["chance_steps_per_s"] > 0  # backgammon rolls dice
    assert row["version"]


def test_pgx_connect_four_measures_when_installed() -> None:
    pytest.importorskip("pgx")
    from labyrinth_env.benchmarks import peers

    row = peers.pgx_game("connect_four", 4, 0.05, seed=1)
    assert row["status"] == "ok" and row["batch"] == 4
    assert row["steps_per_s"] > 0 and row["compile_s"] > 0
    assert row["games_per_s"] >= 0


def test_connect_four_peer_measures() -> None:
    pytest.importorskip("pettingzoo.classic")
    from labyrinth_env.benchmarks import peers

    row = peers.connect_four_aec(0.05)
    assert row["status"] == "ok" and row["steps_per_s"] > 0 and row["games_per_s"] >= 0


def test_stopwatch_counts_nested_calls_once() -> None:
    from labyrinth_env.benchmarks.ppo_throughput import Stopwatch

    watch = Stopwatch()
    inner = watch.wrap(lambda: time.sleep(0.01))

    @watch.wrap
    def outer() -> None:
        inner()
        inner()

    start = time.perf_counter()
    outer()
    wall = time.perf_counter() - start
    assert 0.02 <= watch.seconds <= wall


def test_ppo_timing_splits_env_and_learner_time() -> None:
    pytest.importorskip("sb3_contrib")
    from labyrinth_env.agents.train_ppo import TrainConfig
    from labyrinth_env.benchmarks import ppo_throughput

    cfg = TrainConfig(
        env_id=ENV_ID,
        options={"num_players": 2},
        vector={"num_envs": 4, "learner_seats": "rotate", "opponents": "random"},
        ppo={"n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
    )
    row = ppo_throughput.measure(cfg, rollouts=3, torch_threads=1, numba_threads=1)
    assert row["iterations"] == 3 and row["measured_iterations"] == 2  # the first is a warm-up
    assert row["steps"] == 2 * 4 * 32 and row["timesteps_trained"] == 3 * 4 * 32
    assert row["env_s"] > 0 and row["policy_s"] > 0 and row["update_s"] > 0
    assert row["env_share"] + row["learner_share"] == pytest.approx(1.0)
    assert row["policy_share"] + row["update_share"] == pytest.approx(row["learner_share"])
    assert row["steps_per_s"] == pytest.approx(row["steps"] / row["seconds"])
    assert row["torch_threads"] == 1 and row["numba_threads"] == 1
    table = ppo_throughput.markdown_table([row])
    assert _assert_valid_tables(table) == 1 and f"| {ENV_ID} |" in table


def test_ppo_timing_builds_the_policy_the_config_names() -> None:
    """The benchmark builds its model as training does (``agents.train_ppo.build_model``):
    a config with ``ppo.policy: lookahead`` times the LookaheadPolicy."""
    pytest.importorskip("sb3_contrib")
    from labyrinth_env.agents.train_ppo import TrainConfig
    from labyrinth_env.benchmarks import ppo_throughput

    cfg = TrainConfig(
        env_id="team_edition_v2",
        options={"num_players": 2, "lookahead": True},
        vector={"num_envs": 4, "learner_seats": "all", "opponents": "random"},
        ppo={"policy": "lookahead", "n_steps": 16, "batch_size": 32, "n_epochs": 1, "net_arch": [16]},
    )
    row = ppo_throughput.measure(cfg, rollouts=2, torch_threads=1, numba_threads=1)
    assert row["policy"] == "lookahead" and row["steps"] == 4 * 16
    assert "lookahead [16]" in ppo_throughput.markdown_table([row])


def test_ppo_benchmark_bad_input() -> None:
    pytest.importorskip("sb3_contrib")
    from labyrinth_env.agents.train_ppo import TrainConfig
    from labyrinth_env.benchmarks import ppo_throughput

    cfg = TrainConfig(env_id=ENV_ID, vector={"num_envs": 2, "opponents": "self_play"})
    with pytest.raises(ValueError, match="kernel-side opponents only"):
        ppo_throughput.measure(cfg, rollouts=1)
    with pytest.raises(ValueError, match="rollouts must be an int >= 1"):
        ppo_throughput.measure(TrainConfig(env_id=ENV_ID), rollouts=0)


def test_decisions_per_learner_step() -> None:
    from labyrinth_env.benchmarks import vector_throughput as vt

    assert vt.decisions_per_learner_step("team_edition_v2") == 1.0  # the learner plays every seat
    two_players = vt.decisions_per_learner_step("paths_of_destiny_3e_v3", games=3, seed=1)
    # two seats taking turns: about one opponent decision per learner decision
    assert 1.5 < two_players < 2.5
    assert vt.decisions_per_learner_step("paths_of_destiny_3e_v3", games=3, seed=1) == two_players


def test_step_breakdown_parts_add_up(tmp_path) -> None:
    from labyrinth_env.benchmarks import step_breakdown

    row = step_breakdown.breakdown(ENV_ID, batch=8, seconds=0.1)
    assert row["observation_bytes"] == labyrinth_env.raw_env(ENV_ID).obs_size * 4
    parts = ("sampler_us", "observe_us", "zero_fill_us", "legal_mask_us")
    assert all(row[k] > 0 for k in parts) and row["step_us"] >= row["game_and_rest_us"] >= 0
    assert "| team_edition_v2 | 9.6 KB |" in step_breakdown.table([row])
    with pytest.raises(ValueError, match="batch must be >= 1"):
        step_breakdown.breakdown(ENV_ID, batch=0)
    out = tmp_path / "b.json"
    assert step_breakdown.main(["--env", ENV_ID, "--batch", "4", "--seconds", "0.05", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["rows"][0]["env_id"] == ENV_ID


def test_vector_memory_reports_peak_rss_and_what_the_env_holds(tmp_path: Path) -> None:
    """``benchmarks/vector_memory.py``: a fresh process per batch size, the peak RSS and the
    env's own arrays; the space's bounds stay one row's worth at any batch size."""
    from benchmarks import vector_memory

    out = tmp_path / "memory.json"
    assert vector_memory.main(["--env", "team_edition_v2", "--envs", "2", "64", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [r["num_envs"] for r in rows] == [2, 64]
    assert all(r["peak_rss_mib"] > r["states_mib"] > 0 for r in rows)
    assert rows[0]["space_bounds_mib"] == rows[1]["space_bounds_mib"]
    with pytest.raises(ValueError, match="unknown env id 'chess_v1'"):
        vector_memory.main(["--env", "chess_v1"])


def test_rllib_benchmark_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    from labyrinth_env.benchmarks import rllib_ppo

    with pytest.raises(SystemExit) as exc:
        rllib_ppo.main(["--env", "no_such_env"])
    assert exc.value.code == 2 and "unknown env id(s) ['no_such_env']" in capsys.readouterr().err
    if importlib.util.find_spec("tree") is None:  # RLlib is not installed here: one line, exit 2
        assert rllib_ppo.main(["--env", "team_edition_v2"]) == 2
        assert "RLlib is not installed" in capsys.readouterr().err


def test_compile_time_with_an_archive_refuses_bad_arguments_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from labyrinth_env import cli

    archive = tmp_path / "kernels.tar.gz"
    archive.write_bytes(b"")
    for argv, words in [
        (["--archive", str(tmp_path / "none.tar.gz")], "no such file (write one with labyrinth compile --export FILE)"),
        (["--archive", str(archive), "--paths", "aec"], "--archive measures the AEC path and the demo: drop --paths"),
        (["--no-demo"], "--no-demo goes with --archive"),
    ]:
        with pytest.raises(SystemExit) as exc:
            cli.main(["compile-time", *argv])
        assert exc.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert words in err[-1] and "Traceback" not in "\n".join(err), err


def _write_run(folder: Path, rates: list[tuple[int, float]]) -> None:
    folder.mkdir(parents=True)
    rows = [
        {"opponent": "random", "games": 100, "win_rate": w, "ci95": [max(w - 0.1, 0), min(w + 0.1, 1)], "timesteps": t}
        for t, w in rates
    ]
    rows.append({"opponent": "heuristic", "games": 100, "win_rate": 0.5, "ci95": [0.4, 0.6], "timesteps": 10})
    (folder / "eval.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_compare_runs_times_the_goal_and_draws_every_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from labyrinth_env.benchmarks import compare_runs

    _write_run(tmp_path / "a", [(0, 0.0), (100, 0.95), (200, 0.9)])
    _write_run(tmp_path / "b", [(0, 0.0), (100, 0.3)])
    out = tmp_path / "cmp.png"
    code = compare_runs.main([f"both={tmp_path / 'a'}", f"none={tmp_path / 'b'}", "--goal", "0.9", "--out", str(out)])
    assert code == 0 and out.stat().st_size > 0
    table = json.loads(out.with_suffix(".json").read_text())["runs"]
    assert table["both"] == {
        "goal_step": 100,
        "best": 0.95,
        "best_step": 100,
        "last": 0.9,
        "last_step": 200,
        "games": 100,
    }
    assert table["none"]["goal_step"] is None and table["none"]["last"] == 0.3
    assert "never" in capsys.readouterr().out


def test_compare_runs_draws_the_iterations_of_self_play_and_distill_runs(tmp_path: Path) -> None:
    """``eval.jsonl`` of ``algo: alphazero`` and ``algo: distill`` runs (each line an
    iteration's evaluations) is read by iteration; a PPO run beside one is refused."""
    from labyrinth_env.benchmarks import compare_runs

    folder = tmp_path / "distill"
    folder.mkdir()
    lines = [
        {"iteration": i, "eval": [{"opponent": "self", "games": 200, "win_rate": w, "ci95": [w - 0.05, w + 0.05]}]}
        for i, w in ((0, 0.85), (1, 0.8), (2, 0.9))
    ]
    (folder / "eval.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    out = tmp_path / "cmp.png"
    assert compare_runs.main([f"d={folder}", "--opponent", "self", "--goal", "0.9", "--out", str(out)]) == 0
    table = json.loads(out.with_suffix(".json").read_text())["runs"]["d"]
    assert (table["goal_step"], table["best"], table["last_step"]) == (2, 0.9, 2)
    _write_run(tmp_path / "ppo", [(0, 0.5)])
    (tmp_path / "ppo" / "eval.jsonl").write_text(
        json.dumps({"opponent": "self", "games": 100, "win_rate": 0.5, "ci95": [0.4, 0.6], "timesteps": 10}) + "\n"
    )
    assert compare_runs.main([f"d={folder}", f"p={tmp_path / 'ppo'}", "--opponent", "self", "--out", str(out)]) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["x"], "give each run as LABEL=FOLDER"),
        (["a={missing}"], "eval.jsonl: no such file"),
        (["a={bad}"], "line 1: not an evaluation"),
        (["a={good}", "--opponent", "mcts"], "no evaluation against 'mcts'"),
        (["a={good}", "a={good}"], "two runs with one label"),
        (["a={good}", "--goal", "2"], "--goal must be a win rate in"),
    ],
)
def test_compare_runs_cli_errors_are_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from labyrinth_env.benchmarks import compare_runs

    _write_run(tmp_path / "good", [(0, 0.5)])
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "eval.jsonl").write_text("{not json}\n")
    folders = {"missing": tmp_path / "missing", "bad": tmp_path / "bad", "good": tmp_path / "good"}
    argv = [a.format(**folders) for a in argv]
    assert compare_runs.main([*argv, "--out", str(tmp_path / "o.png")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
