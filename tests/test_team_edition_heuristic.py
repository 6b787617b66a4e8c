"""The Team Edition heuristic plays as a team (issue 19, item 6): spells it cannot use for
its own treasures are spent where they help a teammate (l.146 "Maybe you can even help one
of your teammates", l.186), and it never stands still on a treasure (item 2)."""

from __future__ import annotations

import numpy as np
from team_helpers import Scenario, cell

from labyrinth_env import get_spec
from labyrinth_env.rulesets.team_edition import kernel as K

B = get_spec("team_edition_v2").loops
LANTERN, SHELL = 13, 23
LANTERN_CELL, RED_HOME = cell(0, 4), cell(0, 6)


def heuristic(sc: Scenario) -> int:
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    return int(B.heuristic_one(sc.states, mask))


def red_blocked_from_the_lantern() -> Scenario:
    """Yellow (to act) has moved and pushed; its Shell is out of reach. Red, next, wants
    the Lantern two cells west of its home, behind a north-south straight at r0c5."""
    sc = Scenario()
    sc.lay(5, "NS")
    sc.give(0, SHELL)
    sc.give(1, LANTERN)
    sc.s["moves_left"] = 0
    sc.s["push_used"] = 1
    return sc.ready()


def test_heuristic_spends_unused_spell_to_help_the_next_player():
    sc = red_blocked_from_the_lantern()
    action = heuristic(sc)
    assert action in (K.A_ROTATE + 3 * 5 + 0, K.A_ROTATE + 3 * 5 + 2), "a quarter turn opens red's way"
    sc.step(action)
    assert int(sc.s["seat"]) == 1, "both spells used, no move left: the turn is over"
    assert LANTERN_CELL in sc.ready().move_targets()


def test_heuristic_ends_when_no_spell_helps_anyone():
    sc = red_blocked_from_the_lantern()
    sc.lay(5, "EW")  # red's way is open already
    sc.ready()
    assert heuristic(sc) == K.A_END


def test_heuristic_flips_the_tile_it_stops_on_and_never_stands_still():
    sc = Scenario()
    sc.lay(1, "EW")
    sc.put(0, LANTERN_CELL)
    sc.give(0, LANTERN)
    sc.ready()
    action = heuristic(sc)
    assert action != K.A_MOVE + LANTERN_CELL and sc.legal(action)
    sc = Scenario()
    sc.lay(1, "EW")
    sc.give(0, LANTERN)
    sc.ready().move(cell(0, 3))  # face down beyond the Skull
    assert int(sc.s["decision"]) == K.DECISION_FLIP and heuristic(sc) == K.A_FLIP
