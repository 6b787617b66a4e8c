"""Issue 37: Paths of Destiny 3e asked a player to keep or reroll a Trap Check after "trap
check (trap Poisoned Spears; failed rolls 2; rolls 3)", with no dice against the
difficulty. The rulebook's check is per roll: "a player rolls 2 dice as many times as
indicated by the Number of Rolls ... sums both results of his dice and if this sum is equal
to or higher than the Trap Difficulty Level, his character manages to avoid some part of
harmful effects" (l.432). Each throw now stands in the log against the difficulty: in the
terminal, on the browser page, in text replays and in the HTML viewer. The dice are thrown
at the table: every seat sees them, and a replay recorded before still loads (its digest
covers the decoded data, which did not change)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env import cli
from labyrinth_env.play_web import WebGame
from labyrinth_env.render.replay_html import replay_frames
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

ENV = "paths_of_destiny_3e_v3"
REROLL = "reroll with the Crystal of Fate?"
# a throw as the sentence gives it: "9 (success)", "5 (7 on the dice, failure)"
THROW = r"(\d+) \((?:(\d+) on the dice, )?(success|failure)\)"


def asked_to_keep_or_reroll_a_trap(env) -> bool:
    K = env.kernel
    return int(env.record["decision"]) == K.D_REROLL and int(env.record["ck_kind"]) == K.CK_TRAP


def at_a_trap_reroll(seed: int):
    """A random 2-player game at the moment a seat is asked to keep or reroll a Trap Check."""
    env = labyrinth_env.raw_env(ENV, max_turns=40)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        if asked_to_keep_or_reroll_a_trap(env):
            return env
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    raise AssertionError(f"seed {seed}: no Trap Check reroll in the game (the games changed: pick another seed)")


def throws_of(text: str) -> list[tuple[int, int | None, str]]:
    throws = text.partition(": ")[2]
    return [(int(t), int(d) if d else None, how) for t, d, how in re.findall(THROW, throws)]


def test_a_trap_check_sentence_gives_every_throw_against_the_difficulty():
    say = labyrinth_env.raw_env(ENV).event_text
    spears = {"type": "trap_check", "seat": 1, "trap": "Poisoned Spears", "failed_rolls": 2, "rolls": 3}
    # the modifier decides the first throw: 7 on the dice is short of 8+, 7 + 1 is not
    assert say({**spears, "dice": [7, 4, 6], "modifier": 1}) == (
        "Player 1 makes the Poisoned Spears trap check, 3 throws of two dice against 8+, each throw +1 "
        "(items, the current event): 8 (7 on the dice, success), 5 (4 on the dice, failure) and "
        "7 (6 on the dice, failure); 2 failed."
    )
    net = {"type": "trap_check", "seat": 0, "trap": "Net", "failed_rolls": 1, "rolls": 1}
    assert say({**net, "dice": [6], "modifier": 0}) == (
        "Player 0 makes the Net trap check, 1 throw of two dice against 7+: 6 (failure); 1 failed."
    )


@pytest.mark.parametrize("seed", [24, 26])  # 3 throws unmodified; 2 throws with -2
def test_before_keep_or_reroll_the_log_shows_each_throw_and_every_seat_sees_the_same(seed):
    env = at_a_trap_reroll(seed)
    s, K = env.record, env.kernel
    check = [e for e in env.game_log if e["type"] == "trap_check"][-1]
    seat = check["seat"]
    assert seat == env.agent_name_mapping[env.agent_selection]
    needed = int(C.TRAP_DIFFICULTY[C.TRAP_NAMES.index(check["trap"])])
    # the throws the kernel made: as many as the trap's rolls, the seat's modifier on each,
    # and the failures the check counted
    assert len(check["dice"]) == check["rolls"] and all(2 <= d <= 12 for d in check["dice"])
    assert check["modifier"] == K.item_sum(s, seat, K.ITEM_TRAP) + K.event_mod(s, C.LONG_TRAP_MOD)
    totals = [d + check["modifier"] for d in check["dice"]]
    assert sum(t < needed for t in totals) == check["failed_rolls"] == int(s["ck_a"]) > 0
    assert f"trap check, {check['rolls']} throw" in check["text"] and f"against {needed}+" in check["text"]
    shown = [(t, d if check["modifier"] else None, "success" if t >= needed else "failure") for t, d in
             zip(totals, check["dice"], strict=True)]  # fmt: skip
    assert throws_of(check["text"]) == shown, check["text"]
    # the dice are thrown in the open: the other seat's view of this moment has the same log
    views = [env.seat_view(agent, model=False) for agent in env.possible_agents]
    texts = [[e["text"] for e in view.log] for view in views]
    assert texts[0] == texts[1] and check["text"] in texts[1 - seat]
    # and the data a replay digests is as it was: no throws in it
    assert "dice" not in env._event_data()[env.game_log.index(check)]


def test_the_terminal_text_replay_and_html_viewer_show_the_throws_before_keep_or_reroll(tmp_path, capsys):
    path = tmp_path / "game.json"
    rng = np.random.default_rng(1)

    def read(prompt: str) -> str:
        top = int(re.search(r"\(0-(\d+)", prompt).group(1))
        return str(rng.integers(0, top + 1))

    argv = ["play", "--env", ENV, "--agents", "random", "--seed", "1", "--max-turns", "30", "--replay", str(path)]
    assert cli.cmd_play(cli.build_parser().parse_args(argv), read=read) == 0
    out = capsys.readouterr().out
    asked = out.find(f"your turn: {REROLL}")
    assert asked >= 0, "seed 1 no longer asks Player 0 to reroll a Trap Check (the games changed: pick another seed)"
    env = labyrinth_env.load_replay(path).unwrapped
    checks = [e["text"] for e in env.game_log if e["type"] == "trap_check"]
    terminal = " ".join(out[:asked].split())  # the terminal wraps its lines
    shown = [t for t in checks if t in terminal]
    # the check being asked about was printed since the person's previous question
    assert shown and terminal.rfind(shown[-1]) > terminal.rfind("your turn"), checks
    assert len(throws_of(shown[-1])) == int(re.search(r"(\d+) throws?", shown[-1]).group(1)), shown[-1]
    # text replay prints every sentence; the HTML viewer's frames carry them
    cli.cmd_replay(cli.build_parser().parse_args(["replay", str(path)]))
    replayed = " ".join(capsys.readouterr().out.split())
    assert all(t in replayed for t in checks)
    frames, _ = replay_frames(json.loads(path.read_text()))
    assert [t for f in frames for t in f["events"] if t in checks] == checks


def test_the_browser_page_shows_the_throws_when_it_asks_to_keep_or_reroll(tmp_path):
    game = WebGame(ENV, 0, ["random"], 155, {"max_turns": 30}, tmp_path / "r.json")
    rng = np.random.default_rng(155)
    while not (game.persons_turn() and asked_to_keep_or_reroll_a_trap(game.env)):
        assert not game.over, "seed 155 no longer asks the person to reroll a Trap Check (pick another seed)"
        if game.persons_turn():
            legal = game.env.legal_actions()
            game.act(int(legal[rng.integers(len(legal))]))
        else:
            game.advance()
    page = game.state()
    assert page["status"] == f"your turn: {REROLL}"
    check = [e for e in game.env.game_log if e["type"] == "trap_check"][-1]
    assert page["log"][-1] == check["text"] and len(throws_of(page["log"][-1])) == check["rolls"] == 3
