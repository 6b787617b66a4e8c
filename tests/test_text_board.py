"""Issue 37: what a person reads in the terminal and on the page: the key explains every mark
the board shows, the board and log fit the terminal, players are named as the log names them."""

from __future__ import annotations

import re

import numpy as np
import pytest

import labyrinth_env


def random_state(env_id: str, seed: int, steps: int, **options):
    env = labyrinth_env.raw_env(env_id, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    return env


@pytest.mark.parametrize("env_id", ["paths_of_destiny_3e_v3", "paths_of_destiny_2011_v6"])
def test_the_hex_key_explains_a_tiles_second_corridor_and_its_levels(env_id):
    """A new user saw '(1,-2) SW-NE bridge /1 SE-NW under' and no word on '/1'."""
    for seed in range(20):
        env = random_state(env_id, seed, 150)
        board, _, key = env.render_text().partition("\nkey: ")
        if re.search(r"/1 [A-Z]", board):
            break
    else:
        pytest.fail("no tile with a second corridor in 20 games")
    key = " ".join(key.split())
    assert "/1 and /2 a tile's second and third corridor" in key and "(q,r)/1 in the actions" in key
    for level in re.findall(r"[A-Z]+(?:-[A-Z]+)+ (bridge|under)\b", board):
        assert f"{level}: " in key, level


def test_labyrinx_key_explains_the_characters_icons():
    """A new user saw 'player 0 Engineer [TTC]' and no word on the marks."""
    env = random_state("labyrinx_v1", 0, 0)
    board, _, key = env.render_text().partition("\nkey: ")
    assert re.search(r"player 0 \w+ \[[MTC]{3}\]", board)
    key = " ".join(key.split())
    assert "[MTC] after a character: its challenge icons (M monster, T trap, C chest)" in key


ENVS = ["labyrinthos_v2", "labyrinx_v1", "paths_of_destiny_2011_v6", "paths_of_destiny_3e_v3", "team_edition_v2"]


@pytest.mark.parametrize("env_id", ENVS)
def test_the_text_board_fits_an_80_column_terminal(env_id):
    """Issue 37: panels and keys ran to 100 columns and wrapped mid-word in an 80-column
    terminal; fitted to ``text_width`` every line fits (the maps are at most 72 wide)."""
    players = 4 if env_id in ("labyrinthos_v2", "team_edition_v2") else 6
    env = labyrinth_env.raw_env(env_id, num_players=players)
    env.text_width = 80
    for seed in range(2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(300):
            if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                break
            long = [line for line in env.render_text().splitlines() if len(line) > 80]
            assert not long, long
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])


def test_team_edition_narrower_than_100_columns_puts_the_panel_below_and_says_so():
    env = random_state("team_edition_v2", 0, 10)
    beside = env.render_text()
    env.text_width = 80
    below = env.render_text()
    rows = {text: [line for line in text.splitlines() if re.match(r"r\d ", line)] for text in (beside, below)}
    assert any("treasures collected" in line for line in beside.splitlines()[:25])
    assert len(rows[below]) == 7 and all(len(line) <= 42 for line in rows[below])
    assert any(len(line) > 42 for line in rows[beside])
    assert "treasures collected" in below.partition("\nkey: ")[0]
    assert "the panel is below the board" in " ".join(below.partition("\nkey: ")[2].split())
    assert "the panel is below the board" not in beside


def test_terminal_play_fits_its_output_to_the_terminal(monkeypatch, capsys):
    import os

    from labyrinth_env import cli

    monkeypatch.setattr(cli.shutil, "get_terminal_size", lambda: os.terminal_size((80, 24)))
    rng = np.random.default_rng(0)

    def read(prompt: str) -> str:
        return str(rng.integers(0, int(re.search(r"\(0-(\d+)", prompt).group(1)) + 1))

    args = cli.build_parser().parse_args(
        ["play", "--env", "paths_of_destiny_3e_v3", "--agents", "random", "--max-turns", "3", "--players", "4"]
    )
    assert cli.cmd_play(args, read=read) == 0
    out = capsys.readouterr().out
    assert "game over" in out
    assert [line for line in out.splitlines() if len(line) > 80] == []


def test_players_are_named_as_the_log_names_them_in_the_terminal_and_on_the_page(capsys, tmp_path):
    """The terminal printed 'player_1: rotate tile ...' and the page 'player_1 (random) to
    act' (agent names) beside the log's and board's 'Player 1'."""
    from labyrinth_env import cli
    from labyrinth_env.play_web import WebGame

    rng = np.random.default_rng(0)

    def read(prompt: str) -> str:
        return str(rng.integers(0, int(re.search(r"\(0-(\d+)", prompt).group(1)) + 1))

    args = cli.build_parser().parse_args(["play", "--env", "labyrinx_v1", "--agents", "random", "--max-turns", "3"])
    assert cli.cmd_play(args, read=read) == 0
    out = capsys.readouterr().out
    assert "Player 1 chooses: " in out and not re.search(r"player_\d", out)
    game = WebGame("labyrinx_v1", 0, ["random"], 0, {"max_turns": 3}, tmp_path / "r.json")
    while game.persons_turn():
        game.act(game.env.legal_actions()[0])
    state = game.state()
    assert state["status"].startswith("Player 1 (random) to act") and not re.search(r"player_\d", state["status"])
    from labyrinth_env.play_web import page_html

    assert "player_${" not in page_html("Labyrinx") and "you are Player ${s.seat}" in page_html("Labyrinx")


def test_terminal_play_follows_a_resized_terminal(monkeypatch, capsys):
    """The width is read again at each step: a person who widens the window mid-game gets
    the wide board from then on."""
    import os

    from labyrinth_env import cli

    answered = []
    monkeypatch.setattr(cli.shutil, "get_terminal_size", lambda: os.terminal_size((120 if answered else 80, 24)))

    def read(prompt: str) -> str:
        answered.append(prompt)
        return "0" if len(answered) < 40 else "q"

    args = cli.build_parser().parse_args(["play", "--env", "team_edition_v2", "--agents", "random", "--max-turns", "4"])
    assert cli.cmd_play(args, read=read) == 0
    out = capsys.readouterr().out
    assert "the panel is below the board" in out and any(len(line) > 80 for line in out.splitlines())


def _shown_texts(group):
    from labyrinth_env.render.canvas import Group

    for child in group.children:
        if isinstance(child, Group):
            yield from _shown_texts(child)
            if child.title:
                yield child.title
        elif child.kind == "text":
            yield child.attrs["text"]


@pytest.mark.parametrize("env_id", ENVS)
def test_boards_pictures_and_actions_cite_no_rulebook_lines(env_id):
    """A 3e item's tooltip on the page read '... all its rolls (l.428); ...': line numbers
    are for the rules docs (the log and the private lines leave them out already)."""
    options = {"characters": "random"} if env_id == "paths_of_destiny_2011_v6" else {}
    cited = set()
    for seed in range(3):
        env = random_state(env_id, seed, 0, max_turns=40, **options)
        rng = np.random.default_rng(seed)
        step = 0
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            if step % 5 == 0:
                shown = [env.render_text(), *_shown_texts(env.picture(viewer=0).root)]
                shown += [env.action_label(a) for a in env.legal_actions()]
                cited |= {m for text in shown for m in re.findall(r".{0,30}\bl\.\d+", text)}
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
            step += 1
    assert cited == set()
