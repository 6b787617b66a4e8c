"""Scenario tests for the Paths of Destiny 3e rulebook: set-up, the turn, building,
moving, exploring, jumps, stun and rest, traps, the Golem, events (their limits), the win
and truncation. One test (or a few) per rule, named after it, in rulebook order; the
dice-driven rules also get a statistical test from the event log. Combat, free attacks,
death, items, keys, event effects and the Crystal of Fate are in
``tests/test_pod3e_rules_combat.py``. ``docs/rules/paths_of_destiny_3e.md`` maps every
rule to these tests.

Board reference (see ``pod3e_helpers``): the centre is cell 18 (node 54); ``line(0)`` =
cells 18, 19, 20, 21 runs east to key space 0 (node 63) and its starting space (node 111,
seat 0 in a 2-player game); ``line(3)`` = 18, 17, 16, 15 runs west to key space 3 (node
45) and starting space 3 (node 120, seat 1). ``east_corridor()`` lays straight corridors
on 19 and 20, so that centre, 19, 20 and key space 0 form one line of corridors.
"""

from __future__ import annotations

import numpy as np
import pytest
from hex_helpers import events_of, key_node_of, node
from pod3e_helpers import (
    CENTER,
    KEY_CELLS,
    Scenario,
    ev,
    neighbor,
    new_game,
    rng_for_rolls,
    rolls_from,
    start_node_of,
    tile_named,
    trap_check,
)

from labyrinth_env.core.grid import ROTATE_HEX
from labyrinth_env.core.rng import roll_2d6, seed_state
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_3e.env import raw_env

CENTRE = node(CENTER)  # 54
N19, N20 = node(19), node(20)  # the straight corridors east of the centre
KEY0, KEY3 = key_node_of(0), key_node_of(3)  # seat 0's and seat 1's key spaces (2 players)
START0, START3 = start_node_of(0), start_node_of(3)
FAR = key_node_of(2)  # an unused key space, where the Golem is parked out of the way
DRAWN_TILE_OBS = K.OBS_GLOBAL + K.NUM_DECISIONS + K.NUM_SEATS + 3  # + tile id
STRAIGHT = tile_named("Straight Corridor")
DEAD_END = tile_named("Dead End")


def no_crystals(sc: Scenario) -> Scenario:
    """Every Crystal of Fate inactive, so a failed check asks nobody about a reroll."""
    for p in range(int(sc.s["num_players"])):
        sc.set(p, crystal=0)
    return sc


def east_corridor(**options) -> Scenario:
    """Straight corridors on 19 and 20 (centre - 19 - 20 - key space 0), the Golem parked
    far away, no Crystals."""
    sc = Scenario(**options)
    sc.lay_line(0)
    sc.golem(FAR)
    return no_crystals(sc)


def place_mask(s: np.void) -> np.ndarray:
    """place_ok as a (cell, rotation) table."""
    return s["place_ok"].reshape(K.NUM_BOARD, 6).astype(bool)


def main_actions(sc: Scenario) -> set[int]:
    return {a for a in sc.legal_actions() if a < K.A_PLACE}


def trap_mask(sc: Scenario) -> np.ndarray:
    return sc.mask()[K.A_SET_TRAP : K.A_SET_TRAP + K.NUM_BOARD_NODES]


def kinds(evs) -> list[int]:
    return [e[0] for e in evs]


# =====================================================================================
# Game set-up
# =====================================================================================
def test_setup_board_central_key_and_starting_spaces():
    _, s = new_game(seed=3, num_players=6)
    assert set(np.flatnonzero(s["cell_built"][: K.NUM_BOARD]).tolist()) == {CENTER, *KEY_CELLS}
    assert s["cell_tile"][CENTER] == C.CENTRAL_TILE_ID and s["node_mask"][CENTRE] == 0b111111
    assert int(s["center_cell"]) == CENTER
    for i, c in enumerate(KEY_CELLS):
        assert s["cell_tile"][c] == C.KEY_TILE_ID and s["cell_rot"][c] == i
        assert (int(s["node_mask"][node(c)]) >> i) & 1, "the key space opens towards its starting space"
        start = K.START_CELL + i
        assert s["cell_built"][start] and s["node_mask"][node(start)] == 1 << ((i + 3) % 6)
        assert K.NEIGHBORS[c, i] == start and K.NEIGHBORS[start, (i + 3) % 6] == c
    # every other board cell is empty and every normal tile is in the Labyrinth pool
    assert sorted(s["tile_pool"][: int(s["tile_pool_len"])].tolist()) == list(range(C.NUM_NORMAL_TILES))


def test_setup_key_token_on_each_key_space():
    _, s = new_game(seed=4, num_players=3)
    assert s["key_node"].tolist() == [node(c) for c in KEY_CELLS]
    assert s["key_holder"].tolist() == [-1] * 6 and s["key_dropped_by"].tolist() == [-1] * 6


def test_setup_golem_on_central_space():
    for n in range(2, 7):
        _, s = new_game(seed=5, num_players=n)
        assert int(s["golem_node"]) == CENTRE


def test_setup_pools_and_decks_shuffled():
    _, a = new_game(seed=6)
    _, b = new_game(seed=7)
    for field, size in (("tile_pool", 30), ("trap_pool", 60), ("item_pool", 15), ("golem_deck", 12)):
        assert sorted(a[field][:size].tolist()) == list(range(size)), field
        assert a[field][:size].tolist() != b[field][:size].tolist(), f"{field} is shuffled"
    assert int(a["tile_pool_len"]) == 30 and int(a["trap_pool_len"]) == 60 and int(a["item_pool_len"]) == 15
    assert int(a["golem_pos"]) == 0 and (a["node_trap"] == -1).all() and (a["item_node"] == -1).all()


def test_setup_annihilation_last_in_event_deck():
    orders = set()
    for seed in range(40):
        _, s = new_game(seed=seed)
        deck = s["event_deck"].tolist()
        assert deck[-1] == C.ANNIHILATION and sorted(deck) == list(range(12))
        assert int(s["event_pos"]) == 0 and int(s["current_event"]) == -1
        orders.add(tuple(deck))
    assert len(orders) == 40, "the other eleven cards are shuffled"


def test_setup_four_life_and_active_crystal_each():
    for n in range(2, 7):
        _, s = new_game(seed=8, num_players=n)
        assert s["life"][:n].tolist() == [4] * n and s["crystal"][:n].tolist() == [1] * n
        assert s["stun"][:n].tolist() == [0] * n and (s["items"][:n] == -1).all()
        assert s["life"][n:].tolist() == [0] * (6 - n), "unused seats are empty"


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_seating_by_player_count(n):
    _, s = new_game(seed=9, num_players=n)
    starts = list(C.START_SEATS[n])
    assert s["seat_start"][:n].tolist() == starts
    assert s["position"][:n].tolist() == [start_node_of(i) for i in starts]
    assert len(set(starts)) == n


def test_setup_two_player_variant_moves_central_space():
    _, s = new_game(seed=10, num_players=2, two_player_variant=True)
    centre = int(K.VARIANT_CENTER)
    assert centre == neighbor(CENTER, 1), "one step from the middle in direction 1"
    assert int(s["center_cell"]) == centre and s["cell_tile"][centre] == C.CENTRAL_TILE_ID
    assert not s["cell_built"][CENTER], "the middle is an ordinary space to build"
    assert int(s["golem_node"]) == node(centre)
    assert s["seat_start"][:2].tolist() == [0, 2]
    assert s["position"][:2].tolist() == [start_node_of(0), start_node_of(2)]


def test_two_players_use_the_two_player_setup():
    """l.96: "the game setup for 2 players differs from the one described above. See page
    15": two players get the page-15 board without asking; the standard board only with
    the documented ``two_player_variant=False``; with 3 or more players the option does
    nothing."""
    env = raw_env(num_players=2)
    env.reset(seed=11)
    s = env.record
    assert int(s["center_cell"]) == int(K.VARIANT_CENTER) and s["seat_start"][:2].tolist() == [0, 2]
    env = raw_env(num_players=2, two_player_variant=False)
    env.reset(seed=11)
    assert int(env.record["center_cell"]) == CENTER
    env = raw_env(num_players=3, two_player_variant=True)
    env.reset(seed=11)
    assert int(env.record["center_cell"]) == CENTER and env.record["seat_start"][:3].tolist() == [0, 2, 4]


def test_two_player_variant_rules_use_moved_central_space():
    sc = Scenario(two_player_variant=True)
    centre = node(int(K.VARIANT_CENTER))  # cell 12, axial (1, -1)
    no_crystals(sc)
    sc.golem(FAR)
    assert not trap_mask(sc).any(), "seat 0 is on its starting space"
    sc.put(0, key_node_of(1))
    assert not trap_mask(sc)[centre], "no traps on the (moved) central space"
    # a straight on (2,-2) = cell 7 joins key space 1 (direction 1) and the centre (direction 4)
    (between,) = sc.lay(7, "14")
    sc.put(0, between)
    sc.give_key(0, 1)
    evs = sc.move(4)
    assert sc.pos(0) == centre and ev(K.EV_WIN, 0) in evs


def test_setup_first_player_highest_2d6_ties_rerolled():
    tie_seen = False
    for seed in range(300):
        _, s = new_game(seed=seed, num_players=4)
        rolls = [(e[1], e[2]) for e in events_of(s, K.EV_FIRST_PLAYER)]
        rolling = [0, 1, 2, 3]
        i = 0
        while True:
            this_round = rolls[i : i + len(rolling)]
            assert [p for p, _ in this_round] == rolling, "only the tied players roll again"
            i += len(rolling)
            best = max(r for _, r in this_round)
            rolling = [p for p, r in this_round if r == best]
            if len(rolling) == 1:
                break
            tie_seen = True
        assert i == len(rolls)
        assert int(s["seat"]) == rolling[0] and int(s["decider"]) == rolling[0] and K.to_act(s) == rolling[0]
        assert int(s["turn"]) == 0 and int(s["actions_left"]) == 2
    assert tie_seen


def test_stat_first_player_roll_distribution():
    n, games = 4, 4000
    first = np.zeros(n)
    first_round = []
    for seed in range(games):
        _, s = new_game(seed=seed, num_players=n)
        first[int(s["seat"])] += 1
        first_round += [e[2] for e in events_of(s, K.EV_FIRST_PLAYER)[:n]]
    share = first / games
    assert np.all(np.abs(share - 0.25) < 0.035), share  # about 4.5 standard deviations
    r = np.array(first_round)
    assert r.min() == 2 and r.max() == 12
    assert abs(r.mean() - 7.0) < 0.1
    assert abs((r == 7).mean() - 6 / 36) < 0.015 and abs((r == 12).mean() - 1 / 36) < 0.008


# =====================================================================================
# Playing the game: two actions per turn
# =====================================================================================
def test_two_actions_per_turn_turn_ends_by_itself():
    sc = east_corridor()
    sc.put(0, N20)
    sc.move(3)
    assert int(sc.s["seat"]) == 0 and int(sc.s["actions_left"]) == 1 and sc.to_act() == 0
    evs = sc.move(0)
    assert int(sc.s["seat"]) == 1 and int(sc.s["actions_left"]) == 2 and sc.to_act() == 1
    assert ev(K.EV_START_TURN, 1, 1) in evs and int(sc.s["turn"]) == 1


def test_actions_not_saved_end_turn_forfeits():
    sc = east_corridor()
    sc.put(0, N20)
    sc.move(3)
    sc.end()
    assert int(sc.s["seat"]) == 1 and int(sc.s["actions_left"]) == 2
    sc.end()
    assert int(sc.s["seat"]) == 0 and int(sc.s["actions_left"]) == 2, "the unused action was not kept"


def test_two_action_activity_not_spent_partially():
    sc = east_corridor()
    nodes = sc.lay(13, ("25", C.BRIDGE), ("14", C.UNDER))  # a bridge away from the line
    sc.put(0, nodes[0])
    sc.actions(1)
    assert not sc.legal(K.A_SAFE_JUMP) and sc.legal(K.A_RISKY_JUMP)
    sc.s["crystal"][0] = 0
    assert not sc.legal(K.A_ACTIVATE_CRYSTAL), "activating the Crystal costs 2 actions"
    sc.actions(2)
    assert sc.legal(K.A_SAFE_JUMP) and sc.legal(K.A_ACTIVATE_CRYSTAL)


def test_turns_pass_clockwise():
    sc = Scenario(num_players=4)
    seats = [int(sc.s["seat"])]
    for _ in range(5):
        sc.end()
        seats.append(int(sc.s["seat"]))
    assert seats == [0, 1, 2, 3, 0, 1]


def test_only_active_player_spends_actions():
    sc = east_corridor(num_players=3)
    sc.put(0, N20)
    assert sc.decision == K.D_MAIN and sc.decider == 0 and sc.to_act() == 0
    sc.end()
    assert sc.decision == K.D_MAIN and sc.decider == 1 == int(sc.s["seat"])


# =====================================================================================
# Build
# =====================================================================================
def test_build_draws_top_tile_and_shows_it():
    sc = east_corridor()
    sc.put(0, KEY0)
    top = sc.pool_tiles()[-1]
    n = int(sc.s["tile_pool_len"])
    sc.step(K.A_BUILD)
    s = sc.s
    assert sc.decision == K.D_PLACE and sc.decider == 0
    assert int(s["drawn_tile"]) == top and int(s["tile_pool_len"]) == n - 1
    assert int(s["actions_left"]) == 1
    for seat in (0, 1):
        obs = sc.observe(seat)
        shown = obs[DRAWN_TILE_OBS : DRAWN_TILE_OBS + C.NUM_TILES]
        assert shown[top] == 1.0 and shown.sum() == 1.0, "the drawn tile is face up for everyone"
    legal = sc.legal_actions()
    assert legal and all(K.A_PLACE <= a < K.A_GOLEM_DIR for a in legal), "only placements now"
    cell, rot = divmod(legal[0] - K.A_PLACE, 6)
    evs = sc.place(cell, rot)
    assert ev(K.EV_BUILD, 0, top, cell, rot) in evs
    assert int(s["cell_tile"][cell]) == top and int(s["drawn_tile"]) == -1
    obs = sc.observe(0)
    assert obs[DRAWN_TILE_OBS : DRAWN_TILE_OBS + C.NUM_TILES].sum() == 0.0


def test_build_placement_adjacent_to_board():
    sc = Scenario()
    sc.put(0, KEY0)
    sc.golem(FAR)
    sc.next_tile(STRAIGHT)
    sc.step(K.A_BUILD)
    ok = place_mask(sc.s)
    built = sc.s["cell_built"]
    for c in range(K.NUM_BOARD):
        touches = any(0 <= neighbor(c, d) < K.NUM_BOARD and built[neighbor(c, d)] for d in range(6))
        assert ok[c].any() == (not built[c] and touches), c
    # the ring round the centre and the inner neighbours of the six key spaces: 6 + 18 cells
    assert int(ok.any(axis=1).sum()) == 24


def test_build_never_closes_last_corridor_to_central_space():
    sc = Scenario()
    sc.golem(FAR)
    sc.next_tile(STRAIGHT)
    for d in range(1, 6):  # the ring round the centre, turned away from it, except cell 19
        sc.lay(neighbor(CENTER, d), f"{(d + 1) % 6}{(d + 4) % 6}")
    sc.put(0, KEY0)
    sc.step(K.A_BUILD)
    ok = place_mask(sc.s)
    centre_side = [r for r in range(6) if (int(ROTATE_HEX[C.TILE_CORRIDOR_MASK[STRAIGHT, 0], r]) >> 3) & 1]
    assert centre_side == [0, 3]
    assert np.flatnonzero(ok[19]).tolist() == centre_side, "19 is the last way into the central space"
    assert ok[20].all(), "a cell that closes nothing takes the tile in every rotation"
    for r in range(6):
        assert sc.legal(K.A_PLACE + 19 * 6 + r) == (r in centre_side)


def test_build_never_closes_last_corridor_to_key_space():
    sc = Scenario()
    sc.golem(FAR)
    sc.next_tile(STRAIGHT)
    sc.lay(14, "14")  # beside key space 0, not touching it (its edge 5 faces the key space)
    sc.lay(27, "03")  # likewise (its edge 1 faces the key space)
    sc.put(0, KEY3)
    sc.step(K.A_BUILD)
    ok = place_mask(sc.s)
    assert np.flatnonzero(ok[20]).tolist() == [0, 3], "20 is the last way to key space 0"
    assert ok[19].all()


@pytest.mark.parametrize("under_blocked", [False, True])
def test_build_path_rule_counts_bridges(under_blocked):
    # Key space 0's only way out is the bridge on 20 (edges 0-3); the corridor under it
    # (edges 2-5) leads on through cell 13. A jump joins the two, so while 13 is open a
    # dead end may go anywhere on 19; once 13 is closed, 19 is the key space's last way.
    sc = Scenario()
    sc.golem(FAR)
    sc.lay(14, "14")
    sc.lay(27, "03")
    sc.lay(20, ("03", C.BRIDGE), ("25", C.UNDER))
    if under_blocked:
        sc.lay(13, "03")  # does not touch 20 (13's edge 5 faces 20)
    sc.put(0, KEY3)
    sc.next_tile(DEAD_END)
    sc.step(K.A_BUILD)
    ok = place_mask(sc.s)
    if under_blocked:
        assert not ok[19].any(), "a dead end on 19 would cut key space 0 off in every rotation"
        assert ok.any(), "elsewhere it still fits"
    else:
        assert ok[19].all(), "the jump under the bridge keeps key space 0 connected"


def test_build_no_legal_place_returns_tile_to_bottom():
    # Every cell built except 19, and the central space opens only towards 19: a dead end
    # on 19 would close the central space whatever its rotation.
    sc = Scenario()
    s = sc.s
    sc.golem(FAR)
    for c in range(K.NUM_BOARD):
        if s["cell_built"][c] or c == 19:
            continue
        d = next((d for d in range(6) if neighbor(CENTER, d) == c), None)
        if d is None:
            K.set_tile(s, c, C.CENTRAL_TILE_ID, 0)  # a filler open on all six sides
        else:
            sc.lay(c, f"{(d + 1) % 6}{(d + 2) % 6}{(d + 4) % 6}{(d + 5) % 6}", tile=tile_named("Crossroads"))
    sc.put(0, KEY3)
    sc.next_tile(DEAD_END)
    before = sc.pool_tiles()
    assert sc.legal(K.A_BUILD)
    evs = sc.step(K.A_BUILD)
    assert ev(K.EV_BUILD_NOWHERE, 0, DEAD_END) in evs
    assert sc.pool_tiles() == [DEAD_END, *before[:-1]], "the tile goes to the bottom of the pool"
    assert not s["cell_built"][19] and int(s["drawn_tile"]) == -1
    assert int(s["actions_left"]) == 1 and sc.decision == K.D_MAIN, "the action is spent"


def test_build_not_offered_without_tile_or_free_place():
    sc = east_corridor()
    sc.put(0, N20)
    assert sc.legal(K.A_BUILD)
    sc.empty_pool()
    assert not sc.legal(K.A_BUILD), "an empty Labyrinth pool: nothing to build"


def test_build_trap_icon_places_face_down_trap():
    sc = Scenario()
    sc.golem(FAR)
    sc.put(0, KEY3)
    niche = tile_named("Trapped Niche")
    sc.next_tile(niche)
    token = int(sc.s["trap_pool"][int(sc.s["trap_pool_len"]) - 1])
    sc.step(K.A_BUILD)
    evs = sc.place(19, 3)  # the niche opens towards the centre
    s = sc.s
    assert int(s["node_trap"][N19]) == token and s["trap_up"][N19] == 0
    assert int(s["trap_pool_len"]) == 59 and ev(K.EV_TRAP_PLACED, 0, N19) in evs
    obs = sc.observe(1)
    base = N19 * K.NODE_FEATURES
    assert obs[base + K.F_TRAP_DOWN] == 1.0
    assert obs[base + K.F_TRAP_TYPE : base + K.F_TRAP_TYPE + C.NUM_TRAP_TYPES].sum() == 0.0, "its type is hidden"


def test_build_chest_icon_places_face_up_item():
    sc = Scenario()
    sc.golem(FAR)
    sc.put(0, KEY3)
    sc.next_tile(tile_named("Treasure Alcove"))
    item = int(sc.s["item_pool"][int(sc.s["item_pool_len"]) - 1])
    sc.step(K.A_BUILD)
    evs = sc.place(19, 3)
    s = sc.s
    assert int(s["item_node"][item]) == N19 and int(s["item_pool_len"]) == 14
    assert ev(K.EV_ITEM_PLACED, 0, item, N19) in evs
    obs = sc.observe(1)
    assert obs[N19 * K.NODE_FEATURES + K.F_ITEM + item] == 1.0, "the item lies face up"


def test_build_tile_without_icons_places_no_tokens():
    sc = Scenario()
    sc.golem(FAR)
    sc.put(0, KEY3)
    sc.next_tile(STRAIGHT)
    sc.step(K.A_BUILD)
    evs = sc.place(19, 0)
    assert not events_of(evs, K.EV_TRAP_PLACED) and not events_of(evs, K.EV_ITEM_PLACED)
    assert int(sc.s["trap_pool_len"]) == 60 and int(sc.s["item_pool_len"]) == 15


# =====================================================================================
# Types of spaces, starting spaces and Move
# =====================================================================================
def test_first_activity_from_start_must_be_moving_onto_key_space():
    sc = Scenario()
    sc.golem(FAR)
    assert sc.pos(0) == START0
    assert main_actions(sc) == {K.A_MOVE + 3, K.A_END_TURN}, "only the step onto the key space (or pass)"
    sc.move(3)
    assert sc.pos(0) == KEY0
    assert K.A_BUILD in main_actions(sc) and K.A_MOVE_GOLEM in main_actions(sc)


def test_golem_on_key_space_must_be_moved_off_first():
    sc = east_corridor()
    sc.put(0, START0)
    sc.golem(KEY0)
    assert main_actions(sc) == {K.A_MOVE_GOLEM}
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    sc.step(K.A_MOVE_GOLEM)
    assert sc.legal_actions() == [K.A_GOLEM_DIR + 0, K.A_GOLEM_DIR + 3], "into the starting space or on"
    evs = sc.golem_dir(3)
    assert int(sc.s["golem_node"]) == N20 and ev(K.EV_GOLEM_MOVE, -1, KEY0, N20) in evs
    assert main_actions(sc) == {K.A_MOVE + 3, K.A_END_TURN}


def test_golem_on_key_space_keep_moving_it_until_it_leaves():
    sc = east_corridor()
    sc.put(0, START0)
    sc.golem(KEY0)
    sc.next_golem_card(C.GOLEM_IDLE)
    sc.step(K.A_MOVE_GOLEM)
    assert int(sc.s["golem_node"]) == KEY0 and int(sc.s["actions_left"]) == 1
    assert main_actions(sc) == {K.A_MOVE_GOLEM}, "the player keeps moving the Golem (no End turn)"
    sc.next_golem_card(C.GOLEM_CENTER)
    sc.step(K.A_MOVE_GOLEM)
    assert int(sc.s["golem_node"]) == CENTRE and int(sc.s["seat"]) == 1


def test_trap_on_key_space_ignored_when_leaving_start():
    sc = east_corridor()
    sc.put(0, START0)
    sc.place_trap(KEY0, C.TRAP_NAMES.index("Spiked Pit"))
    evs = sc.move(3)
    assert sc.pos(0) == KEY0
    assert not events_of(evs, K.EV_TRAP_REVEALED) and not events_of(evs, K.EV_TRAP_CHECK)
    assert sc.s["trap_up"][KEY0] == 0 and int(sc.s["life"][0]) == 4
    # entering the key space any other way springs it
    sc.move(3)
    sc.fresh_turn(0)
    sc.rolls(2)
    evs = sc.move(0)
    assert events_of(evs, K.EV_TRAP_REVEALED) and int(sc.s["life"][0]) == 3


def test_move_to_same_corridor_on_adjacent_tile():
    sc = east_corridor()
    sc.clear_cell(19)
    east, side = sc.lay(19, "03", "12")  # Divided Hall: two separate corridors
    north = sc.lay(12, "25")[0]  # its edge 5 meets 19's edge 2
    sc.put(0, N20)
    sc.put(1, north)
    evs = sc.move(3)
    assert sc.pos(0) == east and ev(K.EV_MOVE, 0, N20, east) in evs
    moves = {a - K.A_MOVE for a in main_actions(sc) if K.A_MOVE <= a < K.A_MOVE + 6}
    assert moves == {0, 3}, "only along the corridor's own edges; never to the other corridor of the tile"
    sc.end()
    sc.move(5)
    assert sc.pos(1) == side, "entering from another side reaches the other corridor"


def test_move_needs_corridor_on_both_sides():
    sc = east_corridor()
    sc.lay(13, "03")  # 13 lies north-east of 19, but neither corridor touches the shared edge
    sc.put(0, N19)
    moves = {a - K.A_MOVE for a in main_actions(sc) if K.A_MOVE <= a < K.A_MOVE + 6}
    assert moves == {0, 3}
    sc.put(0, N20)
    sc.clear_cell(19)
    moves = {a - K.A_MOVE for a in main_actions(sc) if K.A_MOVE <= a < K.A_MOVE + 6}
    assert moves == {0}, "never onto an empty space"


def test_move_not_into_another_starting_space():
    sc = east_corridor(num_players=2)
    sc.put(0, KEY3)  # seat 1's key space, in front of seat 1's starting space
    assert not sc.legal(K.A_MOVE + 3), "seat 1's starting space is closed to seat 0"
    assert K.move_target(sc.s, 0, 3) == -1
    sc.put(0, key_node_of(1))  # a key space whose starting space nobody uses: open (l.177)
    assert sc.legal(K.A_MOVE + 1)
    sc.put(0, KEY0)
    assert sc.legal(K.A_MOVE + 0), "its own starting space is not closed to it"


def test_move_explores_new_corridor():
    sc = east_corridor()
    sc.put(0, N20)
    sc.place_trap(N19, C.TRAP_NAMES.index("Tripwire"))
    sc.rolls(12)
    evs = sc.move(3)
    assert kinds(evs)[:3] == [K.EV_MOVE, K.EV_TRAP_REVEALED, K.EV_TRAP_CHECK]


# =====================================================================================
# Exploring a corridor: ability tokens, Golem, trap, characters, pick-up
# =====================================================================================
def test_exploring_order_golem_trap_characters_pickup():
    sc = east_corridor()
    sc.put(0, N20)
    sc.put(1, N19)
    sc.golem(N19)
    sc.place_trap(N19, C.TRAP_NAMES.index("Tripwire"))
    sc.place_item(4, N19)
    sc.rolls(12, 9)  # Golem Check passed, then the trap avoided
    evs = sc.move(3)
    order = [k for k in kinds(evs) if k in (K.EV_MOVE, K.EV_GOLEM_CHECK, K.EV_TRAP_REVEALED, K.EV_TRAP_CHECK)]
    assert order == [K.EV_MOVE, K.EV_GOLEM_CHECK, K.EV_TRAP_REVEALED, K.EV_TRAP_CHECK]
    assert [e[1] for e in events_of(evs, K.EV_GOLEM_CHECK)] == [0], "only the character that entered"
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 0, "then the characters"
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_COUNTER and sc.decider == 1
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_PICKUP and sc.decider == 0, "last the tokens"
    sc.step(K.A_PICK_ITEM + 4)
    assert sc.s["items"][0].tolist() == [4, -1] and int(sc.s["item_node"][4]) == -1


def test_exploring_stops_when_golem_check_sends_character_to_start():
    sc = east_corridor()
    sc.put(0, N20)
    sc.golem(N19)
    sc.place_trap(N19, C.TRAP_NAMES.index("Spiked Pit"))
    sc.place_item(4, N19)
    sc.rolls(11)
    evs = sc.move(3)
    assert ev(K.EV_GOLEM_CHECK, 0, 11, 0) in evs and sc.pos(0) == START0
    assert not events_of(evs, K.EV_TRAP_REVEALED) and sc.s["trap_up"][N19] == 0
    assert int(sc.s["item_node"][4]) == N19 and sc.decision == K.D_MAIN


# =====================================================================================
# Risky jump from / on a bridge
# =====================================================================================
def bridge_scenario() -> tuple[Scenario, int, int]:
    """A bridge on 19 (edges 0-3, on the centre line) over a corridor (edges 1-4)."""
    sc = Scenario()
    sc.lay(20, "03")
    bridge, under = sc.lay(19, ("03", C.BRIDGE), ("14", C.UNDER))
    sc.golem(FAR)
    no_crystals(sc)
    return sc, bridge, under


def test_risky_jump_only_on_bridge_or_under():
    sc, bridge, under = bridge_scenario()
    sc.put(0, N20)
    assert not sc.legal(K.A_RISKY_JUMP) and not sc.legal(K.A_SAFE_JUMP)
    for at in (bridge, under):
        sc.put(0, at)
        assert sc.legal(K.A_RISKY_JUMP) and sc.legal(K.A_SAFE_JUMP)


def test_risky_jump_success_from_bridge_explores_under():
    sc, bridge, under = bridge_scenario()
    sc.put(0, bridge)
    sc.place_item(4, under)
    sc.rolls(8)
    evs = sc.step(K.A_RISKY_JUMP)
    assert ev(K.EV_JUMP, 0, 8, 1, 1) in evs and sc.pos(0) == under
    assert ev(K.EV_MOVE, 0, bridge, under) in evs
    assert int(sc.s["life"][0]) == 4 and int(sc.s["stun"][0]) == 0
    assert sc.decision == K.D_PICKUP, "explored as if it had moved"


def test_risky_jump_success_on_bridge_explores_bridge():
    sc, bridge, under = bridge_scenario()
    sc.put(0, under)
    sc.place_trap(bridge, C.TRAP_NAMES.index("Tripwire"))
    sc.rolls(12, 12)
    evs = sc.step(K.A_RISKY_JUMP)
    assert ev(K.EV_JUMP, 0, 12, 1, 1) in evs and sc.pos(0) == bridge
    assert events_of(evs, K.EV_TRAP_REVEALED), "the bridge corridor is explored"


def test_risky_jump_failure_from_bridge_falls_loses_2_life_stun_explores():
    sc, bridge, under = bridge_scenario()
    sc.put(0, bridge)
    sc.place_trap(under, C.TRAP_NAMES.index("Tripwire"))
    sc.place_item(4, under)
    sc.rolls(7, 12)
    evs = sc.step(K.A_RISKY_JUMP)
    assert ev(K.EV_JUMP, 0, 7, 0, 1) in evs
    assert sc.pos(0) == under, "falls to the corridor under the bridge"
    assert int(sc.s["life"][0]) == 2 and int(sc.s["stun"][0]) == 1
    life_at = kinds(evs).index(K.EV_LIFE)
    assert life_at < kinds(evs).index(K.EV_STUN) < kinds(evs).index(K.EV_TRAP_REVEALED), "Life, stun, explore"
    assert int(sc.s["item_node"][4]) == under and sc.decision == K.D_MAIN, "stunned: no pick-up"


def test_risky_jump_failure_from_bridge_no_exploring_when_dead():
    sc, bridge, under = bridge_scenario()
    sc.put(0, bridge)
    sc.set(0, life=2)
    sc.place_trap(under, C.TRAP_NAMES.index("Tripwire"))
    sc.rolls(2)
    evs = sc.step(K.A_RISKY_JUMP)
    assert events_of(evs, K.EV_DEATH) and sc.pos(0) == START0
    assert not events_of(evs, K.EV_TRAP_REVEALED) and sc.s["trap_up"][under] == 0


def test_risky_jump_failure_on_bridge_stays_loses_2_life_stun():
    sc, _, under = bridge_scenario()
    sc.put(0, under)
    sc.place_trap(under, C.TRAP_NAMES.index("Spiked Pit"), face_up=True)
    sc.place_item(4, under)
    sc.rolls(6, 12)
    evs = sc.step(K.A_RISKY_JUMP)
    assert ev(K.EV_JUMP, 0, 6, 0, 1) in evs and sc.pos(0) == under, "fell back where it stood"
    assert int(sc.s["life"][0]) == 2 and int(sc.s["stun"][0]) == 1 and not events_of(evs, K.EV_MOVE)
    assert trap_check(0, C.TRAP_NAMES.index("Spiked Pit"), 0, [12]) in evs, "explored again (l.206)"
    assert int(sc.s["item_node"][4]) == under and sc.decision == K.D_MAIN, "stunned: no pick-up"


def test_risky_jump_costs_one_action():
    sc, bridge, _ = bridge_scenario()
    sc.put(0, bridge)
    sc.rolls(10)
    sc.step(K.A_RISKY_JUMP)
    assert int(sc.s["actions_left"]) == 1 and int(sc.s["seat"]) == 0


def test_stat_risky_jump_success_rate():
    sc, bridge, _ = bridge_scenario()
    sc.put(0, bridge)
    env = raw_env(num_players=2)
    trial = sc.states.copy()
    n, wins = 12_000, 0
    totals = np.zeros(13)
    for i in range(n):
        trial[:] = sc.states
        trial[0]["rng"][0] = seed_state(np.uint64(1_000_003 + i))
        assert K.step(trial[0], K.A_RISKY_JUMP)
        (rec,) = [e for e in events_of(trial[0], K.EV_JUMP)]
        d = env.decode_event(np.array(rec))
        assert d["type"] == "jump_check" and d["success"] == (d["roll"] >= 8)
        wins += d["success"]
        totals[d["roll"]] += 1
    p = 15 / 36
    assert abs(wins / n - p) < 4.5 * np.sqrt(p * (1 - p) / n), wins / n
    assert abs(totals[7] / n - 6 / 36) < 0.02


# =====================================================================================
# Safe jump, stun and rest
# =====================================================================================
def test_safe_jump_costs_two_actions_and_explores():
    sc, bridge, under = bridge_scenario()
    sc.put(0, bridge)
    sc.place_trap(under, C.TRAP_NAMES.index("Tripwire"))
    sc.rolls(12)
    rng_before = int(sc.s["rng"][0])
    evs = sc.step(K.A_SAFE_JUMP)
    assert ev(K.EV_JUMP, 0, 0, 1, 0) in evs and sc.pos(0) == under
    assert events_of(evs, K.EV_TRAP_CHECK), "explored as if it had moved"
    assert int(sc.s["seat"]) == 1, "both actions spent: the turn is over"
    assert rolls_from(np.uint64(rng_before), 1) == [12], "no Jump Check: only the trap rolled"


def test_stunned_character_can_only_rest():
    sc = east_corridor()
    sc.put(0, N20)
    sc.set(0, stun=2, crystal=0)
    assert main_actions(sc) == {K.A_REST}
    sc.put(0, START0)
    assert main_actions(sc) == {K.A_REST}, "even on the starting space"


def test_stunned_character_cannot_pick_up():
    sc = east_corridor()
    sc.put(0, N20)
    sc.place_trap(N19, C.TRAP_NAMES.index("Net"))
    sc.place_item(4, N19)
    sc.rolls(2)
    evs = sc.move(3)
    assert ev(K.EV_STUN, 0, 1, 1) in evs
    assert sc.decision == K.D_MAIN and int(sc.s["item_node"][4]) == N19


def test_stunned_character_cannot_use_crystal_to_reroll():
    # "He cannot perform any other (not even free) activity except the Rest activity": the
    # Jump Check is rerollable (not stunned yet); the trap below, met while stunned, is not.
    sc, bridge, under = bridge_scenario()
    sc.put(0, bridge)
    sc.set(0, crystal=1)
    sc.place_trap(under, C.TRAP_NAMES.index("Spiked Pit"))
    sc.rolls(7, 2)
    sc.step(K.A_RISKY_JUMP)
    assert sc.decision == K.D_REROLL and sc.decider == 0, "the failed jump: the Crystal may reroll it"
    evs = sc.step(K.A_KEEP)
    assert int(sc.s["stun"][0]) == 1 and events_of(evs, K.EV_TRAP_CHECK)
    assert sc.decision == K.D_MAIN, "stunned: no reroll of the failed Trap Check"
    assert int(sc.s["crystal"][0]) == 1 and int(sc.s["life"][0]) == 1


def test_rest_discards_one_stun_token():
    sc = east_corridor()
    sc.put(0, N20)
    sc.set(0, stun=2)
    evs = sc.step(K.A_REST)
    assert ev(K.EV_REST, 0, 1) in evs and int(sc.s["stun"][0]) == 1 and int(sc.s["actions_left"]) == 1
    assert main_actions(sc) == {K.A_REST}
    sc.step(K.A_REST)
    assert int(sc.s["stun"][0]) == 0 and int(sc.s["seat"]) == 1


# =====================================================================================
# Set a trap and trap checks
# =====================================================================================
def test_set_trap_face_down_random_from_pool():
    sc = east_corridor()
    sc.put(0, N19)
    token = int(sc.s["trap_pool"][int(sc.s["trap_pool_len"]) - 1])
    evs = sc.step(K.A_SET_TRAP + N20)
    s = sc.s
    assert int(s["node_trap"][N20]) == token and s["trap_up"][N20] == 0
    assert int(s["trap_pool_len"]) == 59 and int(s["actions_left"]) == 1
    assert ev(K.EV_TRAP_PLACED, 0, N20) in evs
    for seat in (0, 1):
        obs = sc.observe(seat)
        base = N20 * K.NODE_FEATURES
        assert obs[base + K.F_TRAP_DOWN] == 1.0, "the setter does not see it either"
        assert obs[base + K.F_TRAP_TYPE : base + K.F_TRAP_TYPE + C.NUM_TRAP_TYPES].sum() == 0.0


def test_set_trap_not_on_corridor_occupied_by_others():
    sc = east_corridor()
    sc.put(0, N19)
    sc.put(1, N20)
    m = trap_mask(sc)
    assert not m[N20], "another character stands there"
    assert m[N19], "the setter's own corridor is allowed"
    sc.golem(N20)
    sc.put(1, START3)
    assert trap_mask(sc)[N20], "the Golem is not a character"


def test_set_trap_not_on_central_or_starting_spaces():
    sc = east_corridor()
    sc.put(0, N19)
    m = trap_mask(sc)
    assert not m[CENTRE]
    assert m[KEY0] and m[key_node_of(2)], "key spaces are ordinary corridors for traps"
    assert K.NUM_BOARD_NODES <= START0, "starting spaces lie outside the trap actions"
    assert not m[node(13)], "no corridor on an empty space"
    assert set(np.flatnonzero(m).tolist()) == {N19, N20, *(key_node_of(i) for i in range(6))}


def test_set_trap_one_per_corridor():
    sc = east_corridor()
    sc.clear_cell(19)
    a, b = sc.lay(19, "03", "12")
    sc.put(0, N20)
    sc.place_trap(a, C.TRAP_NAMES.index("Net"))
    m = trap_mask(sc)
    assert not m[a], "one trap per corridor"
    assert m[b], "another corridor of the same tile may hold its own trap"


def test_set_trap_affects_the_one_who_set_it():
    sc = east_corridor()
    sc.put(0, N20)
    sc.next_trap(C.TRAP_NAMES.index("Spiked Pit"))
    sc.step(K.A_SET_TRAP + N19)
    sc.rolls(3)
    evs = sc.move(3)
    assert events_of(evs, K.EV_TRAP_REVEALED) and int(sc.s["life"][0]) == 3


def test_trap_revealed_on_entry():
    sc = east_corridor()
    sc.put(0, N20)
    t = C.TRAP_NAMES.index("Net")
    token = sc.place_trap(N19, t)
    sc.rolls(12)
    evs = sc.move(3)
    assert ev(K.EV_TRAP_REVEALED, 0, N19, t) in evs and sc.s["trap_up"][N19] == 1
    assert int(sc.s["node_trap"][N19]) == token, "the token stays on its corridor"
    obs = sc.observe(1)
    base = N19 * K.NODE_FEATURES
    assert obs[base + K.F_TRAP_TYPE + t] == 1.0 and obs[base + K.F_TRAP_DOWN] == 0.0
    sc.end()
    sc.fresh_turn(0)
    sc.put(0, N20)
    sc.rolls(12)
    evs = sc.move(3)
    assert not events_of(evs, K.EV_TRAP_REVEALED) and events_of(evs, K.EV_TRAP_CHECK), "face up: checked again"


@pytest.mark.parametrize("trap", range(C.NUM_TRAP_TYPES), ids=list(C.TRAP_NAMES))
def test_trap_check_rolls_and_difficulty_from_token(trap):
    rolls, diff = int(C.TRAP_ROLLS[trap]), int(C.TRAP_DIFFICULTY[trap])
    for total, fails in ((diff, 0), (diff - 1, rolls)):
        sc = east_corridor()
        sc.put(0, N20)
        sc.place_trap(N19, trap)
        sc.rolls(*[total] * rolls)
        start = np.uint64(sc.s["rng"][0])
        evs = sc.move(3)
        assert trap_check(0, trap, fails, [total] * rolls) in evs
        if fails == 0:
            rng = np.array([start], dtype=np.uint64)
            for _ in range(rolls):
                roll_2d6(rng)
            assert np.uint64(sc.s["rng"][0]) == rng[0], "exactly the token's number of 2d6 rolls"
            assert int(sc.s["life"][0]) == 4 and int(sc.s["stun"][0]) == 0 and sc.pos(0) == N19


def test_trap_check_counts_each_failed_roll():
    sc = east_corridor()
    sc.put(0, N20)
    spears = C.TRAP_NAMES.index("Poisoned Spears")
    sc.place_trap(N19, spears)
    sc.rolls(8, 7, 12)
    evs = sc.move(3)
    assert trap_check(0, spears, 1, [8, 7, 12]) in evs
    assert sc.decision == K.D_LIFE_OR_STUN and sc.decider == 0
    sc.step(K.A_TAKE_STUN)
    assert int(sc.s["stun"][0]) == 1 and int(sc.s["life"][0]) == 4 and sc.decision == K.D_MAIN


EFFECTS = [
    # name, expected life, stun, back at start, crystal
    ("Spiked Pit", 3, 0, False, 1),
    ("Falling Rocks", 2, 0, False, 1),
    ("Dart Wall", 1, 0, False, 1),
    ("Swinging Blade", 2, 0, False, 1),
    ("Crushing Walls", 2, 0, False, 1),
    ("Tripwire", 4, 1, False, 1),
    ("Net", 4, 1, False, 1),
    ("Sleeping Gas", 4, 2, False, 1),
    ("Stone Hammer", 3, 1, False, 1),
    ("Portal Rune", 4, 0, True, 1),
    ("Cursed Glyph", 4, 0, False, 0),
]


@pytest.mark.parametrize(("name", "life", "stun", "home", "crystal"), EFFECTS, ids=[e[0] for e in EFFECTS])
def test_trap_effect_on_failed_check(name, life, stun, home, crystal):
    trap = C.TRAP_NAMES.index(name)
    sc = east_corridor()
    sc.put(0, N20)
    sc.set(0, crystal=1)
    sc.place_trap(N19, trap)
    sc.place_item(4, N19)
    sc.rolls(*[(2, int(C.TRAP_DIFFICULTY[trap]) - 1)] * int(C.TRAP_ROLLS[trap]))
    sc.move(3)
    assert sc.decision == K.D_REROLL and sc.decider == 0, "a failed check: the Crystal's owner may reroll"
    sc.step(K.A_KEEP)
    s = sc.s
    assert int(s["life"][0]) == life and int(s["stun"][0]) == stun and int(s["crystal"][0]) == crystal
    assert (sc.pos(0) == START0) == home
    if stun or home:
        assert sc.decision == K.D_MAIN and int(s["item_node"][4]) == N19, "no pick-up when stunned or sent home"
    else:
        assert sc.decision == K.D_PICKUP


def test_trap_effect_poisoned_spears_life_or_stun_per_failed_roll():
    sc = east_corridor()
    sc.put(0, N20)
    sc.place_trap(N19, C.TRAP_NAMES.index("Poisoned Spears"))
    sc.rolls(2, 3, 7)
    sc.move(3)
    for choice in (K.A_LOSE_LIFE, K.A_TAKE_STUN, K.A_LOSE_LIFE):
        assert sc.decision == K.D_LIFE_OR_STUN and sc.decider == 0
        assert set(sc.legal_actions()) == {K.A_LOSE_LIFE, K.A_TAKE_STUN}
        sc.step(choice)
    assert int(sc.s["life"][0]) == 2 and int(sc.s["stun"][0]) == 1 and sc.decision == K.D_MAIN


# =====================================================================================
# Move the Golem and the Golem Check
# =====================================================================================
def golem_scenario(**options) -> Scenario:
    """Straight corridors east (19, 20) and west (17, 16) of the centre, the Golem on the
    centre, the characters on their starting spaces (out of its way), turn 5."""
    sc = Scenario(**options)
    sc.lay_line(0)
    sc.lay_line(3)
    no_crystals(sc)
    sc.golem(CENTRE)
    sc.fresh_turn(0, turn=5)
    sc.put(0, KEY0)
    return sc


def test_move_golem_draws_card_and_discards():
    sc = golem_scenario()
    card = sc.next_golem_card(C.GOLEM_IDLE)
    evs = sc.step(K.A_MOVE_GOLEM)
    assert ev(K.EV_GOLEM_CARD, 0, C.GOLEM_IDLE, 0) in evs
    assert int(sc.s["golem_deck"][0]) == card and int(sc.s["golem_pos"]) == 1
    assert int(sc.s["actions_left"]) == 1
    obs = sc.observe(1)
    g = K.OBS_GLOBAL + K.NUM_DECISIONS + K.NUM_SEATS + 3 + C.NUM_TILES
    assert obs[g + 3] == pytest.approx(11 / 12), "the deck shows its size only"


def test_move_golem_direction_decision_each_step():
    sc = golem_scenario()
    sc.next_golem_card(C.GOLEM_MOVE, 2)
    sc.step(K.A_MOVE_GOLEM)
    assert sc.decision == K.D_GOLEM_DIR and sc.decider == 0
    assert {a - K.A_GOLEM_DIR for a in sc.legal_actions()} == {0, 3}
    evs = sc.golem_dir(3)
    assert ev(K.EV_GOLEM_MOVE, -1, CENTRE, node(17)) in evs
    # from 17 the only way on is further west (not straight back): taken without asking
    assert int(sc.s["golem_node"]) == node(16) and sc.decision == K.D_MAIN
    assert int(sc.s["golem_steps"]) == 0


def test_move_golem_must_use_every_step():
    sc = golem_scenario()
    sc.next_golem_card(C.GOLEM_MOVE, 3)
    sc.step(K.A_MOVE_GOLEM)
    sc.golem_dir(0)
    assert int(sc.s["golem_node"]) == KEY0 and sc.decision == K.D_MAIN, "three spaces: 19, 20, key space 0"


def test_golem_single_option_step_is_automatic():
    sc = golem_scenario()
    sc.clear_cell(17)
    sc.clear_cell(16)
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    evs = sc.step(K.A_MOVE_GOLEM)
    assert ev(K.EV_GOLEM_MOVE, -1, CENTRE, N19) in evs and sc.decision == K.D_MAIN


def test_golem_idle_card_does_not_move():
    sc = golem_scenario()
    sc.next_golem_card(C.GOLEM_IDLE)
    evs = sc.step(K.A_MOVE_GOLEM)
    assert int(sc.s["golem_node"]) == CENTRE and not events_of(evs, K.EV_GOLEM_MOVE)


def test_golem_center_card_returns_to_centre():
    sc = golem_scenario()
    sc.golem(node(16))
    sc.put(1, CENTRE)
    sc.next_golem_card(C.GOLEM_CENTER)
    sc.rolls(3)
    evs = sc.step(K.A_MOVE_GOLEM)
    assert ev(K.EV_GOLEM_MOVE, -1, node(16), CENTRE) in evs and int(sc.s["golem_node"]) == CENTRE
    assert ev(K.EV_GOLEM_CHECK, 1, 3, 0) in evs and sc.pos(1) == START3


def test_golem_never_back_into_corridor_it_left_previous_turn():
    sc = golem_scenario()
    sc.golem(N19, came_from=CENTRE, from_turn=4)  # moved there during the previous player's turn
    assert K.golem_options(sc.s) == 1 << 0, "not back to the centre"
    sc.golem(N19, came_from=CENTRE, from_turn=3)  # two turns ago: free again
    assert K.golem_options(sc.s) == (1 << 0) | (1 << 3)


def test_golem_never_back_within_its_own_move():
    sc = golem_scenario()
    sc.next_golem_card(C.GOLEM_MOVE, 2)
    sc.step(K.A_MOVE_GOLEM)
    evs = sc.golem_dir(0)
    assert [(e[2], e[3]) for e in events_of(evs, K.EV_GOLEM_MOVE)] == [(CENTRE, N19), (N19, N20)]
    assert sc.decision == K.D_MAIN, "the second step went on by itself: back to the centre is closed"


def test_golem_bounces_off_dead_end():
    sc = golem_scenario()
    sc.clear_cell(17)
    sc.clear_cell(16)
    sc.clear_cell(19)
    sc.clear_cell(20)
    sc.lay(19, "3")  # a dead end open only towards the centre
    sc.next_golem_card(C.GOLEM_MOVE, 2)
    evs = sc.step(K.A_MOVE_GOLEM)
    moves = [(e[2], e[3]) for e in events_of(evs, K.EV_GOLEM_MOVE)]
    assert moves == [(CENTRE, N19), (N19, CENTRE)], "into the dead end and back out"
    # the dead end also overrides the previous-turn rule
    sc.fresh_turn(0, turn=7)
    sc.golem(N19, came_from=CENTRE, from_turn=6)
    assert K.golem_options(sc.s) == 1 << 3


def test_golem_ignores_tokens():
    sc = golem_scenario()
    sc.clear_cell(17)
    sc.clear_cell(16)
    sc.place_trap(N19, C.TRAP_NAMES.index("Spiked Pit"))
    sc.place_item(4, N19)
    sc.place_key(2, N19, dropped_by=1)
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    evs = sc.step(K.A_MOVE_GOLEM)
    assert int(sc.s["golem_node"]) == N19
    assert sc.s["trap_up"][N19] == 0 and not events_of(evs, K.EV_TRAP_CHECK)
    assert int(sc.s["item_node"][4]) == N19 and int(sc.s["key_node"][2]) == N19


def test_golem_ignores_bridges():
    sc = Scenario()
    no_crystals(sc)
    sc.put(0, KEY0)
    bridge, under = sc.lay(19, ("03", C.BRIDGE), ("14", C.UNDER))
    sc.lay(13, "14")  # 13's edge 4 meets the under corridor's edge 1
    sc.golem(under)
    assert K.golem_options(sc.s) == 1 << 1, "along its corridor only, never up onto the bridge"
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    sc.step(K.A_MOVE_GOLEM)
    assert int(sc.s["golem_node"]) == node(13)
    sc.golem(bridge)
    assert K.golem_options(sc.s) == 1 << 3, "from the bridge: over it, towards the centre"


def test_golem_may_enter_starting_spaces():
    # l.177 bars "players' characters"; l.491: rules about characters do not affect the Golem
    sc = golem_scenario()
    sc.put(0, N19)
    sc.lay(14, "25")  # a second way off key space 0
    sc.golem(KEY0)
    assert K.golem_options(sc.s) == (1 << 0) | (1 << 2) | (1 << 3), "direction 0: into the starting space"
    sc.golem(node(K.START_CELL + 1))  # an unused starting space: its one way out
    assert K.golem_options(sc.s) == 1 << 4


def test_golem_check_for_every_character_on_its_corridor():
    sc = golem_scenario(num_players=3)
    sc.clear_cell(17)
    sc.clear_cell(16)
    sc.clear_cell(19)
    east, side = sc.lay(19, "03", "12")
    sc.put(0, east)
    sc.put(1, east)
    sc.put(2, side)
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    sc.rolls(12, 11)
    evs = sc.step(K.A_MOVE_GOLEM)
    assert [(e[1], e[2], e[3]) for e in events_of(evs, K.EV_GOLEM_CHECK)] == [(0, 12, 1), (1, 11, 0)]
    assert sc.pos(0) == east, "12: passed, stays"
    assert sc.pos(1) == K.start_node(sc.s, 1), "failed: back to its starting space"
    assert sc.pos(2) == side, "another corridor of the same tile: no check"


def test_golem_check_when_passing_through():
    sc = golem_scenario()
    sc.clear_cell(17)
    sc.clear_cell(16)
    sc.put(1, N19)
    sc.next_golem_card(C.GOLEM_MOVE, 2)
    sc.rolls(5)
    evs = sc.step(K.A_MOVE_GOLEM)
    assert ev(K.EV_GOLEM_CHECK, 1, 5, 0) in evs and sc.pos(1) == START3
    assert int(sc.s["golem_node"]) == N20


def test_golem_check_needs_12():
    for roll, ok in ((11, False), (12, True)):
        sc = golem_scenario()
        sc.golem(N19)
        sc.put(0, N20)
        sc.rolls(roll)
        evs = sc.move(3)
        assert ev(K.EV_GOLEM_CHECK, 0, roll, int(ok)) in evs
        assert (sc.pos(0) == N19) == ok


def test_golem_deck_reshuffles_when_empty():
    sc = golem_scenario()
    sc.s["golem_pos"] = K.NUM_GOLEM_CARDS
    before = sc.s["golem_deck"].tolist()
    sc.rolls(None)
    sc.step(K.A_MOVE_GOLEM)
    assert int(sc.s["golem_pos"]) == 1
    assert sorted(sc.s["golem_deck"].tolist()) == list(range(12)) and sc.s["golem_deck"].tolist() != before


def test_move_golem_once_per_turn():
    sc = golem_scenario()
    sc.next_golem_card(C.GOLEM_IDLE)
    sc.step(K.A_MOVE_GOLEM)
    assert not sc.legal(K.A_MOVE_GOLEM) and int(sc.s["golem_used"]) == 1
    sc.fresh_turn(1, turn=6)
    sc.put(1, N20)
    assert sc.legal(K.A_MOVE_GOLEM), "once per turn, again next turn"


def test_stat_golem_check_success_rate():
    sc = golem_scenario()
    sc.clear_cell(17)
    sc.clear_cell(16)
    sc.put(0, N19)
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    trial = sc.states.copy()
    n, wins = 20_000, 0
    for i in range(n):
        trial[:] = sc.states
        trial[0]["rng"][0] = seed_state(np.uint64(7_000_001 + i))
        assert K.step(trial[0], K.A_MOVE_GOLEM)
        (check,) = events_of(trial[0], K.EV_GOLEM_CHECK)
        assert check[3] == int(check[2] >= 12)
        wins += check[3]
    p = 1 / 36
    assert abs(wins / n - p) < 4.5 * np.sqrt(p * (1 - p) / n), wins / n


# =====================================================================================
# Trigger an event: once per turn, none after Annihilation
# =====================================================================================
def test_trigger_event_once_per_turn():
    sc = east_corridor()
    sc.put(0, N20)
    sc.next_event(C.EVENT_NAMES.index("Blood Moon"))
    evs = sc.step(K.A_EVENT)
    assert ev(K.EV_EVENT, 0, C.EVENT_NAMES.index("Blood Moon")) in evs
    assert not sc.legal(K.A_EVENT) and int(sc.s["actions_left"]) == 1
    sc.end()
    sc.put(1, N19)
    assert sc.legal(K.A_EVENT), "the next player may trigger one"


def test_no_events_after_annihilation():
    sc = east_corridor()
    sc.put(0, N20)
    sc.s["event_pos"] = K.NUM_EVENTS - 1
    evs = sc.step(K.A_EVENT)
    assert ev(K.EV_EVENT, 0, C.ANNIHILATION) in evs and int(sc.s["current_event"]) == C.ANNIHILATION
    sc.end()
    sc.put(1, N19)
    assert not sc.legal(K.A_EVENT), "Annihilation stays to the end; no more events"


# =====================================================================================
# The goal: a key and alone on the central space during your own turn
# =====================================================================================
def test_win_with_key_alone_on_central_space_during_own_turn():
    sc = east_corridor()
    sc.put(0, N19)
    sc.give_key(0, 3)
    evs = sc.move(3)
    assert ev(K.EV_WIN, 0) in evs
    assert int(sc.s["outcome"]) == K.WON and int(sc.s["winner"]) == 0 and sc.to_act() == -1
    assert sc.returns()[:2].tolist() == [1.0, -1.0]
    assert not sc.mask().any()


def test_win_returns_zero_sum_for_more_players():
    sc = east_corridor(num_players=4)
    sc.put(0, N19)
    sc.give_key(0, 1)
    sc.move(3)
    assert sc.returns()[:4].tolist() == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])


def test_no_win_without_key():
    sc = east_corridor()
    sc.put(0, N19)
    sc.move(3)
    assert int(sc.s["outcome"]) == K.RUNNING and sc.pos(0) == CENTRE


def test_no_win_when_not_alone_on_central_space():
    sc = east_corridor()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.give_key(0, 3)
    sc.move(3)
    assert sc.decision == K.D_FREE_ATTACK
    sc.step(K.A_DECLINE)
    sc.step(K.A_DECLINE)
    assert int(sc.s["outcome"]) == K.RUNNING


def test_no_win_during_another_players_turn():
    sc = east_corridor()
    sc.put(0, N20)
    sc.put(1, CENTRE)
    sc.give_key(1, 0)
    sc.move(3)
    assert int(sc.s["outcome"]) == K.RUNNING and int(sc.s["seat"]) == 0, "seat 1 waits for its own turn"
    evs = sc.end()
    assert ev(K.EV_WIN, 1) in evs and int(sc.s["winner"]) == 1, "alone with a key as its turn begins"


# =====================================================================================
# Truncation (max_turns)
# =====================================================================================
def test_max_turns_truncates():
    sc = Scenario(max_turns=3)
    for _ in range(2):
        sc.end()
        assert int(sc.s["outcome"]) == K.RUNNING
    evs = sc.end()
    assert ev(K.EV_TRUNCATED, -1) in evs and int(sc.s["outcome"]) == K.TRUNCATED
    assert sc.to_act() == -1 and (sc.returns() == 0).all()


def test_max_turns_truncation_in_env():
    e = raw_env(num_players=2, max_turns=4)
    e.reset(seed=1)
    for _ in range(4):
        e.step(K.A_END_TURN)
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert {k: v for k, v in e.game_log[-1].items() if k != "text"} == {"type": "truncated"}


def test_rng_helper_gives_the_asked_rolls():
    value = rng_for_rolls(8, (2, 7), None, 12)
    got = rolls_from(value, 4)
    assert got[0] == 8 and got[1] <= 7 and got[3] == 12
