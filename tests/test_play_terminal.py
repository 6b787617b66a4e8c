"""Issue 37, items 3 and 4: ``labyrinth play`` in the terminal (the seat's private lines,
the key once and on '?', group labels, forced choices, the final board, the agents ready
before the first move, the options) and the small texts (``envs`` ids, ``bench --help``),
and the Paths of Destiny text board naming every built space's corridors."""

from __future__ import annotations

import re

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env import cli
from labyrinth_env.rulesets import hexenv


def play(argv: list[str], answers: list[str], capsys) -> str:
    it = iter(answers)
    args = cli.build_parser().parse_args(["play", *argv])
    assert cli.cmd_play(args, read=lambda prompt: next(it, "q")) == 0
    return capsys.readouterr().out


def test_the_panel_shows_the_seats_hand_and_not_the_others(capsys):
    out = play(["--env", "labyrinx_v1", "--agents", "random", "--seed", "4", "--max-turns", "3"], ["q"], capsys)
    env = labyrinth_env.raw_env("labyrinx_v1", max_turns=3)
    env.reset(seed=4)
    mine, theirs = env.private_lines(0), env.private_lines(1)
    assert "what only you know:" in out and all(line in out for line in mine)
    others = [line for line in theirs if line not in mine and "card" in line]
    assert others and not [line for line in others if line in out]
    assert "getting the agents ready (random)" in out and out.index("agents ready") < out.index("your turn")


def test_key_once_then_on_question_mark_and_empty_input(capsys):
    out = play(["--env", "labyrinthos_v2", "--agents", "random", "--max-turns", "2"], ["", "?", "q"], capsys)
    assert out.count("key: ") == 2  # once with the first board, once for '?'
    assert "type a number 0-" in out and "no action is named ''" not in out


def test_a_group_label_typed_as_shown_opens_the_group(capsys):
    """Issue 37: "push top col 1" typed as the list showed it was "no action named"."""
    out = play(["--env", "team_edition_v2", "--agents", "random", "--max-turns", "2"], ["push top col 1", "q"], capsys)
    assert "no action is named" not in out
    assert "push top col 1 turn 0" in out


def test_a_single_legal_action_is_taken_with_a_line(monkeypatch, capsys):
    env = labyrinth_env.make("labyrinx_v1", render_mode="ansi")
    env.reset(seed=0)
    only = env.unwrapped.legal_actions()[0]
    monkeypatch.setattr(type(env.unwrapped), "legal_actions", lambda self: [only])
    asked = []
    assert cli._ask_action(env, lambda prompt: asked.append(prompt) or "q") == only
    assert not asked and "the only legal action, taken for you" in capsys.readouterr().out


def test_play_options_reach_the_game():
    args = cli.build_parser().parse_args(
        ["play", "--env", "team_edition_v2", "--variant", "expert", "--max-turns", "7", "--option", "num_players=3"]
    )
    assert cli.play_options(args) == {"variant": "expert", "max_turns": 7, "num_players": 3}
    help_text = cli.build_parser()._subparsers._group_actions[0].choices["play"].format_help()
    assert "0 plays first" not in help_text and "--web" in help_text


def test_a_finished_game_prints_its_final_board(capsys):
    out = play(["--env", "team_edition_v2", "--agents", "random", "--max-turns", "1"], ["end turn"] * 5, capsys)
    assert "game over" in out
    board_before = out.rsplit("game over", 1)[0]
    assert "status truncated" in board_before.rsplit("c0", 1)[1]


def test_envs_never_wraps_an_id(capsys, monkeypatch):
    monkeypatch.setattr(cli, "console", cli.Console(width=80))
    assert cli.main(["envs"]) == 0
    out = capsys.readouterr().out
    for env_id in labyrinth_env.list_envs():
        assert env_id in out


def test_envs_never_breaks_a_word_at_80_columns(capsys, monkeypatch):
    """The table's five columns at 80 columns broke 'reconstruct ed', 'introductor y'."""
    monkeypatch.setattr(cli, "console", cli.Console(width=80))
    assert cli.main(["envs"]) == 0
    out = capsys.readouterr().out
    words = " ".join(re.sub(r"[│┃|]", " ", out).split())
    for spec in labyrinth_env.specs():
        for word in re.findall(r"[A-Za-z]{4,}", f"{spec.title} {spec.summary} {spec.status}"):
            assert re.search(rf"\b{word}\b", words), (spec.env_id, word)


def test_bench_help_keeps_its_default_path_whole(capsys):
    with pytest.raises(SystemExit):
        cli.main(["bench", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "benchmarks/results/throughput.json" in out


@pytest.mark.parametrize("env_id", ["paths_of_destiny_3e_v3", "paths_of_destiny_2011_v6"])
def test_the_text_board_names_every_built_spaces_corridors(env_id):
    """Issue 37: only tiles with several corridors had a line; single corridors, key spaces
    and the centre never showed."""
    env = labyrinth_env.raw_env(env_id)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(80):
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    text = " ".join(env.render_text().split())
    listed = re.search(r"corridors: (.*?) (?:player|face-down|ability|key:)", text).group(1)
    s = env.record
    for cell in range(hexenv.NUM_BOARD):
        nodes = [x for x in range(cell * hexenv.MAX_CORRIDORS, (cell + 1) * hexenv.MAX_CORRIDORS) if s["node_mask"][x]]
        if nodes:
            first = hexenv.edges_name(int(s["node_mask"][nodes[0]]))
            assert f"{hexenv.node_name(cell * hexenv.MAX_CORRIDORS)} {first}" in listed, cell


def test_labyrinthos_a_discard_is_offered_as_a_discard():
    """Issue 37: discards before drawing read "desperate action: X", as if played."""
    from labyrinth_env.rulesets.labyrinthos import kernel as K

    env = labyrinth_env.raw_env("labyrinthos_v2")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(3000):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        legal = env.legal_actions()
        cards = [a for a in legal if K.A_CARD <= a < K.A_CARD + K.NUM_CARD_TYPES]
        if int(env.record["decision"]) in (K.D_DISCARD_OPT, K.D_DISCARD) and cards:
            assert all(env.action_label(a).startswith("discard ") for a in cards)
            seen += 1
        elif cards:
            assert all(env.action_label(a).startswith("desperate action") for a in cards)
        env.step(legal[rng.integers(len(legal))])
    assert seen


@pytest.mark.parametrize(
    "env_id", ["labyrinx_v1", "labyrinthos_v2", "paths_of_destiny_3e_v3", "paths_of_destiny_2011_v6", "team_edition_v2"]
)
def test_a_whole_game_in_the_terminal_by_numbers(env_id, capsys):
    """A person answering every question with a number from the list plays a whole game."""
    rng = np.random.default_rng(1)

    def read(prompt: str) -> str:
        top = int(re.search(r"\(0-(\d+)", prompt).group(1))
        return str(rng.integers(0, top + 1))

    args = cli.build_parser().parse_args(["play", "--env", env_id, "--agents", "random", "--max-turns", "2"])
    assert cli.cmd_play(args, read=read) == 0
    out = capsys.readouterr().out
    assert "game over: your reward" in out and "stopped" not in out
    # a relative seat in an action's name comes with the player it is
    assert not re.search(r"player \+\d(?! \(Player \d\))", out)


def test_a_finished_terminal_game_writes_its_replay_when_asked(tmp_path, capsys):
    """``play --replay FILE`` in the terminal wrote nothing (a new user's walkthrough); the
    finished game's replay now loads back to the same game."""
    path = tmp_path / "game.json"
    argv = ["--env", "team_edition_v2", "--agents", "random", "--max-turns", "2", "--replay", str(path)]
    out = play(argv, ["0"] * 200, capsys)
    assert f"replay written to {path}" in out
    env = labyrinth_env.load_replay(path)
    assert env.unwrapped.game_log[-1]["type"] == "game_end"


@pytest.mark.parametrize("env_id", ["paths_of_destiny_3e_v3", "paths_of_destiny_2011_v6", "labyrinthos_v2"])
def test_what_only_you_know_cites_no_rulebook_lines(env_id):
    """A new user read "Crystal of Fate (l.346)" in their character's text: the components
    cite their lines for the rules docs, the panel does not."""
    options = {"characters": "random"} if env_id.startswith("paths_of_destiny_2011") else {}
    seen = []
    for seed in range(6):
        env = labyrinth_env.raw_env(env_id, **options)
        env.reset(seed=seed)
        for seat in range(env.options.num_players):
            seen += env.private_lines(seat)
    assert seen and not [line for line in seen if re.search(r"\bl\.\d", line)]
