"""Configs load into envs; malformed ones get clear errors; the CLI runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labyrinth_env import cli, make
from labyrinth_env.config import load_config, make_from_config

CONFIGS = sorted((Path(__file__).parent.parent / "configs").rglob("*.yaml"))
ENV_CONFIGS = [p for p in CONFIGS if not {"train", "tournament"} & set(p.parts)]  # train/, tournament/: other kinds


@pytest.mark.parametrize("path", ENV_CONFIGS, ids=lambda p: p.name)
def test_every_config_makes_an_env(path):
    env = make_from_config(path)
    env.reset(seed=0)
    assert env.agent_selection in env.agents


def test_config_overrides():
    env = make_from_config(ENV_CONFIGS[0], num_players=3)
    assert env.num_agents == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("env_id: [", "not YAML"),
        ("- 1", "expected a mapping"),
        ("env_id: team_edition_v2\nextra: 1", "unknown key"),
        ("env_id: chess_v1", "env_id 'chess_v1'"),
        ("env_id: team_edition_v2\noptions: 3", "'options' must be a mapping"),
        ("env_id: team_edition_v2\noptions: {num_players: 7}", "num_players=7"),
    ],
)
def test_malformed_config(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        make_from_config(path)


def test_missing_config():
    with pytest.raises(ValueError, match="does not exist"):
        load_config("/no/such/config.yaml")


def test_cli_envs_and_replay(tmp_path, capsys):
    assert cli.main(["envs"]) == 0
    assert "team_edition_v2" in capsys.readouterr().out
    end, steps, _ = cli.play_random_game("team_edition_v2", seed=1, num_players=2)
    assert end["type"] == "game_end" and steps > 0
    import labyrinth_env

    env = labyrinth_env.raw_env("team_edition_v2")
    env.reset(seed=2)
    env.step(env.legal_actions()[0])
    env.save_replay(tmp_path / "g.json")
    assert cli.main(["replay", str(tmp_path / "g.json")]) == 0
    assert "turn 1" in capsys.readouterr().out


def test_cli_bad_input_exit_code(tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{}")
    assert cli.main(["replay", str(tmp_path / "bad.json")]) == 2
    assert "malformed replay" in capsys.readouterr().err


def _one_line_error(capsys, argv: list[str], *words: str) -> None:
    """``argv`` exits with code 2 and one line naming what was wrong, no traceback."""
    code = cli.main(argv)
    captured = capsys.readouterr()
    text = (captured.out + captured.err).strip()
    assert code == 2, text
    assert "Traceback" not in text and len(text.splitlines()) == 1, text
    for word in words:
        assert word in text, (word, text)


def test_cli_user_errors_are_one_line_and_exit_code_2(tmp_path, capsys):
    """Each bad input of the hardening issue: a folder as a replay or config, JSON nested
    too deeply, a 5,001-digit number, a binary YAML file, option names that are not
    words, an --out that cannot be a folder, replay versions ``true`` and ``1.0``."""
    folder = tmp_path / "folder"
    folder.mkdir()
    _one_line_error(capsys, ["replay", str(folder)], str(folder), "is a folder")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    _one_line_error(capsys, ["replay", str(deep)], str(deep), "nested too deeply")
    env = make("team_edition_v2", num_players=2)
    env.reset(seed=1)
    env.save_replay(tmp_path / "good.json")
    good = json.loads((tmp_path / "good.json").read_text())
    huge = json.dumps(good).replace(f'"seed": {good["seed"]}', '"seed": ' + "9" * 5001)
    for text, words in [
        (huge, ["huge.json", "unreadable JSON value"]),
        (json.dumps({**good, "version": True}), ["'version' must be the integer 1, got True"]),
        (json.dumps({**good, "version": 1.0}), ["'version' must be the integer 1, got 1.0"]),
    ]:
        (tmp_path / "huge.json").write_text(text)
        _one_line_error(capsys, ["replay", str(tmp_path / "huge.json")], *words)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(bytes(range(256)) * 4)
    _one_line_error(capsys, ["tournament", "--config", str(binary)], str(binary), "not text")
    _one_line_error(capsys, ["tournament", "--config", str(folder)], str(folder), "is a folder")
    numbered = tmp_path / "numbered.yaml"
    numbered.write_text("env_id: team_edition_v2\noptions: {1: 2}\n")
    _one_line_error(capsys, ["tournament", "--config", str(numbered)], "option names must be words, got 1")
    with pytest.raises(ValueError, match="option names must be words, got 1"):
        load_config(numbered)
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    argv = ["tournament", "--env", "team_edition_v2", "--agents", "random", "--games", "2", "--no-progress"]
    _one_line_error(capsys, [*argv, "--no-plot", "--out", str(a_file / "sub")], "cannot write", "a_file")


def test_cli_subcommands_pass_every_option_to_their_module(capsys):
    """``labyrinth evaluate --games 2 ...`` reaches agents.evaluate with its options (an
    argparse remainder would refuse a first argument that looks like an option)."""
    args = ["evaluate", "--env", "team_edition_v2", "--agent", "random", "--games", "2", "--no-progress"]
    assert cli.main(args) == 0
    assert "2 games" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["train", "--help"])
    assert "--config" in capsys.readouterr().out
    try:
        code = cli.main(["tournament", "--env", "chess_v1", "--agents", "random"])
    except SystemExit as exc:  # argparse-style exit of the module
        code = exc.code
    assert code == 2
    captured = capsys.readouterr()
    assert "chess_v1" in captured.out + captured.err


def test_demo_runs_games_and_a_tournament(tmp_path, capsys):
    out = tmp_path / "demo"
    assert cli.main(["demo", "--games", "1", "--agent-games", "4", "--no-bench", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "random games per ruleset" in printed and "heuristic" in printed
    assert (out / "games.jsonl").read_text().count("\n") == 4
    assert (out / "report.md").is_file()


def test_play_lists_actions_by_name_and_takes_numbers_or_names(capsys):
    """A person in seat 0 against the heuristic: a bad answer is refused with the reason,
    a number or an action name is played, and 'q' stops the game."""
    answers = iter(["nonsense", "999", "0", "end turn", "q"])
    args = cli.build_parser().parse_args(["play", "--env", "paths_of_destiny_3e_v3", "--players", "2", "--seed", "3"])
    assert cli.cmd_play(args, read=lambda prompt: next(answers)) == 0
    out = capsys.readouterr().out
    assert "no action is named 'nonsense'" in out and "999 is not on the list: choose 0-" in out
    assert "Player 1 chooses:" in out or "your action" in out
    assert out.rstrip().endswith("stopped")
    with pytest.raises(ValueError, match="--seat 5"):
        cli.cmd_play(cli.build_parser().parse_args(["play", "--env", "team_edition_v2", "--seat", "5"]))


def test_a_reader_that_leaves_early_ends_the_command_quietly(monkeypatch, tmp_path):
    """``labyrinth compile | head -4``: a plain ``print`` after the reader has gone raised a
    BrokenPipeError traceback (rich's own output already stopped quietly). The command now
    stops with code 1, and stdout goes to devnull so the final flush cannot fail again."""
    import os
    import sys

    def reader_gone(_args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "cmd_envs", reader_gone)
    with open(tmp_path / "stdout", "w") as out:
        monkeypatch.setattr(sys, "stdout", out)
        assert cli.main(["envs"]) == 1
        assert os.path.samefile(f"/proc/self/fd/{out.fileno()}", os.devnull)


def test_outputs_that_cannot_be_written_and_inputs_that_are_not_files_are_one_line(tmp_path, capsys):
    """Issue 32, item 6: replay --html, evaluate --json and analyze --out into a missing
    folder or below a file fail at once (before any game) with one line and exit code 2;
    ``labyrinth replay`` refuses a device (``/dev/zero`` would be read until memory runs
    out), a FIFO (it would block for ever) and a file over the size cap."""
    import os

    env = make("team_edition_v2", num_players=2)
    env.reset(seed=1)
    env.save_replay(tmp_path / "good.json")
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    html = ["replay", str(tmp_path / "good.json"), "--html"]
    _one_line_error(capsys, [*html, str(a_file / "x.html")], "--html", "is a file; it must be a folder")
    _one_line_error(capsys, [*html, str(a_file / "deeper" / "x.html")], "--html", "is a file, not a folder")
    _one_line_error(capsys, ["replay", str(tmp_path / "good.json"), "--html", str(tmp_path)], "is a folder")
    evaluate = ["evaluate", "--env", "team_edition_v2", "--agent", "random", "--games", "1", "--no-progress"]
    _one_line_error(capsys, [*evaluate, "--json", str(tmp_path / "missing" / "r.json")], "--json", "does not exist")
    _one_line_error(capsys, [*evaluate, "--json", str(a_file / "r.json")], "--json", "is a file")
    analyze = ["analyze", "--env", "toy_race_v0", "--players", "2", "--games", "2", "--no-progress"]
    _one_line_error(capsys, [*analyze, "--out", str(a_file / "sub")], "--out", "is a file, not a folder")
    _one_line_error(capsys, [*analyze, "--out", str(a_file)], "--out", "is a file; it must be a folder")
    _one_line_error(capsys, ["replay", "/dev/zero"], "/dev/zero", "not a regular file")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    _one_line_error(capsys, ["replay", str(fifo)], "fifo.json", "not a regular file")
    _one_line_error(capsys, ["replay", str(fifo), "--game", "0"], "fifo.json")
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(65 * 2**20)  # sparse: no disk used
    _one_line_error(capsys, ["replay", str(big)], "big.json", "at most 67,108,864")


def test_sizes_and_headings_read_as_a_person_would_write_them():
    """Issue 37's small texts: ``replay --html`` said "0.0 MB" for 21 KB, and ``evaluate``
    printed ``team_edition_v2 ()`` for a game with default options."""
    from labyrinth_env.agents.evaluate import env_heading
    from labyrinth_env.cli import file_size_text

    assert file_size_text(21_400) == "21 KB"
    assert file_size_text(512) == "512 bytes"
    assert file_size_text(3_400_000) == "3.4 MB"
    assert env_heading({"env_id": "team_edition_v2", "options": {}}) == "team_edition_v2 (default options)"
    assert env_heading({"env_id": "labyrinx_v1", "options": {"num_players": 3}}) == "labyrinx_v1 (num_players=3)"


@pytest.mark.parametrize("command", ["compile", "bench", "evaluate", "tournament", "analyze", "play", "replay"])
def test_help_shows_no_source_markup(command, capsys):
    """``--help`` is read in a terminal: the docstrings' reST backticks stay in the source."""
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    text = capsys.readouterr().out
    assert "usage" in text and "``" not in text, text[:400]
