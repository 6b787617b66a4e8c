"""Issue 37, item 1: one sentence per event (``game_log``'s ``text``), players by absolute
number, throws against what they needed, turn numbers as the board shows them."""

from __future__ import annotations

import re

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.aec import replay_digest

GAMES = {
    "labyrinx_v1": {"max_turns": 60},
    "labyrinthos_v2": {"max_turns": 40},
    "paths_of_destiny_3e_v3": {"max_turns": 40},
    "paths_of_destiny_2011_v6": {"max_turns": 40},
    "team_edition_v2": {},
}


def random_game(env_id: str, seed: int, check_step=None, **options):
    env = labyrinth_env.raw_env(env_id, **{**GAMES[env_id], **options})
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        before = len(env.game_log)
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
        if check_step is not None:
            check_step(env, env.game_log[before:])
    return env


@pytest.mark.parametrize("env_id", sorted(GAMES))
def test_every_event_is_one_sentence_of_its_ruleset(env_id):
    env = random_game(env_id, 1)
    log = env.game_log
    assert log, "a game logs events"
    for event in log:
        text = event["text"]
        assert list(event)[-1] == "text" and text[0].isupper() and text.endswith("."), event
        # no raw key of the structured event ("to_start: seat 0, from ..."), no relative seat
        assert "seat " not in text and "_" not in text.replace("max_turns", ""), text
        assert not re.search(r"player \+\d", text, re.I), text
        assert event["type"] in env.sentences, f"{env_id}: no sentence for {event['type']!r}"
    # the sentences are not part of what a replay digests: recorded games stay valid
    assert env.log_digest() == replay_digest(env._event_data())
    assert all("text" not in e for e in env._event_data() if e["type"] != "daedalus_page")


def _board_turn(env) -> int:
    return int(re.search(r"\bturn (\d+)", env.render_text()).group(1))


@pytest.mark.parametrize("env_id", sorted(GAMES))
def test_the_log_numbers_turns_as_the_board_does(env_id):
    """Issue 37: the events' turn numbers were one lower than the board's (Labyrinthos,
    Team Edition)."""
    seen = []

    def check(env, events):
        starts = [e for e in events if e["type"] == "start_turn"]
        if starts and not any(e["type"] in ("win", "truncated", "game_end") for e in events):
            said = int(re.match(r"Turn (\d+):", starts[-1]["text"]).group(1))
            assert said == _board_turn(env), (starts[-1], env.render_text()[:0])
            seen.append(said)

    random_game(env_id, 2, check)
    assert len(seen) >= 3


def test_labyrinx_a_move_into_the_exit_space_names_the_exit():
    """Issue 37: a move to (3,4) was logged as (3,3): the exit space is one location over
    several spaces, named by its first; the sentence names the exit space."""
    env = labyrinth_env.raw_env("labyrinx_v1")
    env.reset(seed=0)
    exit_name = env.sentence_context()["exit"]
    rng = np.random.default_rng(0)
    found = 0
    for _ in range(3000):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        before = len(env.game_log)
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
        for e in env.game_log[before:]:
            if e["type"] == "move" and e["to"] == exit_name:
                assert e["text"].endswith("to the exit space."), e
                found += 1
            elif e["type"] == "move":
                assert e["to"] in e["text"], e
    assert found


def test_team_edition_a_teleport_to_another_corner_is_not_sent_home():
    env = random_game("team_edition_v2", 0, daedalus_deck={"teleport": 12})
    home_of = env.sentence_context()["home_of"]
    pages = [e for e in env.game_log if e["type"] == "sent_home" and e["cause"] == "daedalus page"]
    moved = [e for e in pages if e["from"] != e["to"]]
    elsewhere = [e for e in moved if home_of[e["seat"]] != e["to"]]
    at_home = [e for e in moved if home_of[e["seat"]] == e["to"]]
    assert elsewhere and all("is teleported" in e["text"] and "sent home" not in e["text"] for e in elsewhere)
    assert all("is sent home" in e["text"] for e in at_home)


def test_team_edition_a_teleport_to_the_corner_a_piece_stands_on_says_it_stays():
    """A new user read "teleported from r6c6 to r6c6": the event is right (the piece stood on
    the corner the page names; the same Teleport page can come twice), the sentence was not."""
    env = random_game("team_edition_v2", 0, daedalus_deck={"teleport": 12})
    stays = [e for e in env.game_log if e["type"] == "sent_home" and e["from"] == e["to"]]
    assert stays
    for e in stays:
        assert f"from {e['from']} to" not in e["text"] and "already stands" in e["text"], e["text"]
        assert e["text"].startswith(f"The Book of Daedalus teleports Player {e['seat']} to {e['to']}"), e["text"]


def test_pod3e_throws_against_their_difficulty_and_no_roll_for_a_safe_jump():
    env = labyrinth_env.raw_env("paths_of_destiny_3e_v3")
    say = env.event_text
    assert say({"type": "safe_jump", "seat": 0, "roll": 0, "success": True}) == "Player 0 makes a safe jump."
    assert say({"type": "jump_check", "seat": 1, "roll": 7, "success": False}) == (
        "Player 1 makes a Jump Check: 7 against 8+: failure."
    )
    assert say({"type": "golem_check", "seat": 0, "roll": 12, "success": True}).endswith("12 against 12+: success.")
    text = say({"type": "trap_check", "seat": 1, "trap": "Poisoned Spears", "failed_rolls": 2, "rolls": 3})
    assert "3 throws" in text and "8+" in text and "2 failed" in text


def test_pod2011_throws_against_their_difficulty():
    env = labyrinth_env.raw_env("paths_of_destiny_2011_v6")
    say = env.event_text
    text = say(
        {"type": "trap_check", "seat": 1, "trap": "Net", "roll": 7, "difficulty": 8, "how": "enter", "success": False}
    )
    assert text == "Player 1 throws against the Net trap (enter): 7 against 8+: failure."
    assert (
        say({"type": "jump_down", "seat": 0, "die": 4, "success": True})
        == "Player 0 jumps down: 4 against 4+: success."
    )


def test_a_revealed_trap_and_a_placed_item_say_what_they_do():
    """Issue 37: nothing explained items or traps; an item's abilities are read "aloud to all
    players" when it is placed (3e l.150)."""
    env = labyrinth_env.raw_env("paths_of_destiny_3e_v3")
    text = env.event_text({"type": "item_placed", "seat": 0, "item": "Flaming Sword", "node": "(1,0)"})
    assert text.startswith("An item is placed at (1,0): Flaming Sword: +2 to your Combat Checks")
    text = env.event_text({"type": "trap_revealed", "seat": 0, "node": "(1,0)", "trap": "Poisoned Spears"})
    assert text.startswith("The trap at (1,0) is revealed: Poisoned Spears (3 x 8+): choose: lose 1 Life")


def test_labyrinthos_sentences_name_nobody_for_the_minotaurs_tile_turn_and_read_as_english():
    """A new user's walkthrough read "Player -1 turns the tile ...", "a Obsidian key" and
    "the empty key slot slot"."""
    from labyrinth_env.rulesets.labyrinthos.sentences import SENTENCES

    turn = SENTENCES["rotate_tile"]({"seat": -1, "cell": "r3c4", "way": "clockwise"}, {})
    assert turn == "The tile at r3c4 turns clockwise"
    key = SENTENCES["discover_key"]({"seat": 0, "colour": "Obsidian", "action": "Move", "slot": "empty key slot"}, {})
    assert "an Obsidian key" in key and "slot slot" not in key


def test_counts_and_endings_read_as_english():
    """A new user read "1 feet", "1 steps" and "the team has truncated"."""
    from labyrinth_env.rulesets.labyrinthos.sentences import SENTENCES as LABYRINTHOS
    from labyrinth_env.rulesets.paths_of_destiny_2011.sentences import SENTENCES as POD2011
    from labyrinth_env.rulesets.team_edition.sentences import SENTENCES as TEAM

    assert "1 Foot token and 2 Hand tokens" in LABYRINTHOS["refresh"]({"seat": 0, "feet": 1, "hand": 2}, {})
    assert POD2011["guard_card"]({"seat": 1, "card": "move", "steps": 1}, {}).endswith(", 1 step")
    ending = TEAM["game_end"]({"seat": -1, "outcome": "truncated", "collected": 4}, {})
    assert "run out of turns" in ending and "has truncated" not in ending


@pytest.mark.parametrize(
    ("env_id", "why"),
    [
        ("paths_of_destiny_3e_v3", "may pick up a key only if another character dropped it there"),
        ("paths_of_destiny_2011_v6", "may take a key only if another player picked it up and lost it"),
    ],
)
def test_a_move_onto_ones_own_key_space_says_why_its_key_is_not_offered(env_id, why):
    """A new user stood by the key next to his start and was offered nothing, with no reason
    (3e l.193, 2011 l.119); the move's sentence gives it, and only for the mover's own."""
    env = random_game(env_id, 0, max_turns=80)
    own = env.sentence_context()["own_key_space"]
    assert sorted(own) == list(range(env.options.num_players))
    moves = [e for e in env.game_log if e["type"] == "move"]
    onto = [e for e in moves if own[e["seat"]] == e["to"]]
    assert onto and all(f"to {e['to']}, its own key" in e["text"] and why in e["text"] for e in onto)
    assert not [e for e in moves if own[e["seat"]] != e["to"] and "own key" in e["text"]]


@pytest.mark.parametrize("players", [2, 4])
def test_labyrinthos_logs_its_public_setup(players):
    """A new user saw no setup at the start of a Labyrinthos game, where the other rulesets
    log theirs: the maze (l.42-44: "Place the Door tile in the middle ... starting Maze tiles
    ... face down in a 3x3 Grid ... remaining tiles ... face down, to form a new 7x7 grid"),
    the keys and the deck (l.45-46), the deal (l.47) and, after the last hero is chosen, the
    starting tiles turned up (l.48: which tile lies where) and where each hero stands
    (l.49), none of which the kernel records as an event. Every seat reads the same, and
    nothing names a starting tile while it lies face down."""
    from labyrinth_env.rulesets.labyrinthos import components as C

    env = labyrinth_env.raw_env("labyrinthos_v2", num_players=players)
    env.reset(seed=3)
    texts = [e["text"] for e in env.game_log]
    first = int(env.record["first_player"])
    setup = [t for t in texts if t.startswith("The Door tile")]
    assert setup == [
        "The Door tile lies in the middle at r3c3 with the 8 starting tiles face down around it and the other 40 "
        "tiles face down around those, a 7x7 maze; the key tokens lie face down by colour and the Desperation deck "
        f"is shuffled; each player is dealt 4 Desperation cards face down; Player {first} plays first and chooses "
        "a hero first."
    ]
    start_names = [C.TILE_NAMES[t] for t in C.START_TILES]
    rng = np.random.default_rng(3)
    compared = False
    while True:
        legal = env.legal_actions()
        if int(env.record["hero_pos"]) == players - 1:
            # the last choice is next: the starting tiles still lie face down, and a world
            # where they lie otherwise reads the same
            texts = [e["text"] for e in env.game_log]
            assert not [n for n in start_names if any(n in t for t in texts)]
            other = labyrinth_env.raw_env("labyrinthos_v2", num_players=players)
            other.reset(seed=3)
            for a in env.actions_taken:
                other.step(a)
            env.kernel.determinize(other._states[0], env.agent_name_mapping[env.agent_selection], np.uint64(9))
            assert other._states.tobytes() != env._states.tobytes()
            assert [e["text"] for e in other.game_log] == texts
            compared = True
        env.step(legal[rng.integers(len(legal))])
        if min(env.record["hero"][:players]) >= 0:
            break
    flipped = [e["text"] for e in env.game_log if "the starting tiles are turned face up" in e["text"]]
    assert compared and len(flipped) == 1
    s = env.record
    tiles = ", ".join(f"r{c // 7}c{c % 7} {C.TILE_NAMES[int(s['cell_tile'][c])]}" for c in env.kernel.START_CELLS)
    assert f"the starting tiles are turned face up ({tiles}) and each hero stands" in flipped[0], flipped[0]
    for p in range(players):
        where = f"r{int(s['position'][p]) // 7}c{int(s['position'][p]) % 7}"
        assert f"Player {p} at {where}" in flipped[0]
    views = [[e["text"] for e in env.seat_view(a, model=False).log] for a in env.possible_agents]
    assert all(v == views[0] for v in views) and flipped[0] in views[0]


def test_labyrinthos_a_token_event_is_a_gain_or_a_loss():
    """The log read 'Player 0 has 2 Feet tokens and 0 Hand tokens' for a gain of two and
    '-1 Feet tokens' for a loss: the event is a change, not a holding."""
    say = labyrinth_env.raw_env("labyrinthos_v2").event_text
    assert say({"type": "tokens", "seat": 0, "feet": 2, "hand": 0}) == "Player 0 takes 2 Feet tokens."
    assert say({"type": "tokens", "seat": 1, "feet": -1, "hand": -1}) == "Player 1 loses 1 Foot token and 1 Hand token."


def _picture_turn(env) -> int:
    from labyrinth_env.render.canvas import Group

    def texts(group):
        for child in group.children:
            if isinstance(child, Group):
                yield from texts(child)
            elif child.kind == "text":
                yield child.attrs["text"]

    found = [m for t in texts(env.picture(viewer=0).root) if (m := re.match(r"(?:Turn|Round) (\d+) ·", t))]
    return int(found[0].group(1))


@pytest.mark.parametrize("env_id", sorted(GAMES))
def test_a_game_cut_short_names_its_last_turn_as_the_log_does(env_id):
    """A finished game read 'Turn 7 · stopped (turn limit)' after the log's last 'Turn 6'
    (the kernels count on past the last turn before they stop); and its panel asked for a
    decision no one will take."""
    env = random_game(env_id, 0, max_turns=3)
    assert int(env.record["outcome"]) == 2, "cut short at max_turns"
    last = [e for e in env.game_log if e["type"] == "start_turn"][-1]
    said = int(re.match(r"Turn (\d+):", last["text"]).group(1))
    assert said == _board_turn(env) == _picture_turn(env) == 3
    assert "decision:" not in env.render_text().partition("\nkey: ")[0]


def test_labyrinx_despair_says_where_its_card_came_from():
    """'Player 0 despairs and draws 0 cards.' read as if nothing happened (l.40: a card
    without a challenge comes from the discard pile, or cards are drawn until one comes)."""
    say = labyrinth_env.raw_env("labyrinx_v1").event_text
    assert say({"type": "despair", "seat": 0, "cards_drawn": 0}) == (
        "Player 0 despairs, discarding its hand, and draws none: a card without a challenge comes from the "
        "discard pile, if one lies there."
    )
    drew = say({"type": "despair", "seat": 1, "cards_drawn": 2})
    assert drew.endswith("draws 2 cards to find one without a challenge.")


def test_labyrinthos_a_hero_with_nowhere_to_go_stays_rather_than_leaving_the_board():
    """The kernel records a displaced hero with no connected tile next to it as going to -1
    (it stays, attack.displace); the log read 'is driven off the board'."""
    env = labyrinth_env.raw_env("labyrinthos_v2")
    say = env.event_text
    stays = say({"type": "displace", "seat": 1, "to": None, "by": 0})
    assert stays == "Player 1 has no connected tile to be moved to and stays." and "off the board" not in stays
    moved = say({"type": "displace", "seat": 1, "to": "r2c3", "by": 0})
    assert moved == "Player 1 is moved to r2c3 by Player 0, who controls the Minotaur."
    medusa = labyrinth_env.raw_env("labyrinthos_v2", monster="medusa").event_text
    assert medusa({"type": "hunt", "target": 1}) == "Medusa hunts Player 1."


@pytest.mark.parametrize("env_id", sorted(GAMES))
def test_the_log_cites_no_rulebook_lines(env_id):
    """An item placed read 'Thief's Tools: When every roll ... (l.428); ...': the component
    texts cite their lines for the rules docs, not for players (as the private lines)."""
    cited = []
    for seed in range(4):
        env = random_game(env_id, seed)
        cited += [e["text"] for e in env.game_log if re.search(r"\bl\.\d", e["text"])]
    assert cited == []


def test_team_edition_a_treasure_for_ones_own_board_says_so():
    """'Player 0 collects the Magic Crystal for Player 0's board' named the collector twice."""
    say = labyrinth_env.raw_env("team_edition_v2").event_text
    own = {"type": "collect", "seat": 0, "treasure": "Magic Crystal", "from_board_of": 0, "bonus_move": False}
    assert say(own) == "Player 0 collects the Magic Crystal for its own board."
    assert say({**own, "from_board_of": 1}) == "Player 0 collects the Magic Crystal for Player 1's board."
