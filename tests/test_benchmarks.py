"""Smoke tests of benchmarks/throughput.py: structure and output only, never speed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import throughput

ENV_ID = "team_edition_v0"


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
    # kernel batches run thousands of whole games even in 0.2 s
    assert by_kind["kernel_serial"]["games_per_s"] > 0
    assert by_kind["kernel_batch"]["games_per_s"] > 0
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


@pytest.mark.slow
def test_warm_compile_probe_structure() -> None:
    # normal on-disk cache: fast once the kernels are cached, a full compile otherwise
    probe = throughput.compile_probe(ENV_ID, None)
    assert probe["env_id"] == ENV_ID
    assert probe["total_s"] > 0 and probe["subprocess_wall_s"] >= probe["total_s"]
    for name in ("import", "init_one", "refresh_one", "step_one", "observe_one"):
        assert probe["phases_s"][name] >= 0
    assert set(probe["phases_s"]) >= {"random_steps_serial", "random_steps_batch"}


def test_vector_throughput_rows_and_outputs(tmp_path):
    from benchmarks import vector_throughput as vt

    assert vt.main(["--env", "team_edition_v0", "--batch", "1", "8", "--threads", "1", "--seconds", "0.1",
                    "--out", str(tmp_path / "v.json")]) == 0  # fmt: skip
    result = json.loads((tmp_path / "v.json").read_text())
    assert [(r["batch"], r["threads"]) for r in result["rows"]] == [(1, 1), (8, 1)]
    assert all(r["steps_per_s"] > 0 for r in result["rows"])
    assert vt.main(["--env", "nope_v0"]) == 2
