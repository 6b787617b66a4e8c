"""Scenario tests for the Team Edition rulebook, one (or a few) per rule, in rulebook order.

Each test builds a position on a "blank" board (every loose tile face down, so only the
corridors a test lays out connect anything) and checks concrete cells, masks, events
and boards. ``docs/rules/team_edition.md`` maps every rule to these tests.

Board reference (cell = row * 7 + col): the printed spaces sit on even rows and
columns. Those used below: 0 yellow home (open E, S), 2 Skull and 4 Lantern (open E,
S, W), 6 red home (open S, W), 46 Shell (open N, E, W), 48 green home (open N, W),
42 blue home (open N, E). Mushroom and Elephant are on loose corner tiles 12 and 13.
"""

from __future__ import annotations

import itertools

import numpy as np
from team_helpers import Scenario, cell, events_of, new_game, rotation_for

from labyrinth_env import get_spec
from labyrinth_env.core.grid import mask_from_directions
from labyrinth_env.rulesets.team_edition import components as C
from labyrinth_env.rulesets.team_edition import kernel as K

B = get_spec("team_edition_v2").loops  # the ruleset's batched loops and single-game entry points

MUSHROOM, ELEPHANT, SKULL, LANTERN, SHELL = 0, 1, 12, 13, 23
MUSHROOM_TILE, ELEPHANT_TILE = int(C.TREASURE_TILE[MUSHROOM]), int(C.TREASURE_TILE[ELEPHANT])
SKULL_CELL, LANTERN_CELL = cell(0, 2), cell(0, 4)
YELLOW_HOME, RED_HOME, GREEN_HOME, BLUE_HOME = (int(h) for h in C.HOME_CELLS)
FAR_ENDS = [int(c) for c in C.ARROW_LINE[:, -1]]
# Arrows used below: 0 = top col 1 (line 1, 8, ..., 43), 8 = bottom col 1 (its reverse),
# 11 = left row 1 (line 7..13), 4 = right row 3 (line 27..21).
TOP_COL_1, BOTTOM_COL_1, LEFT_ROW_1, RIGHT_ROW_3 = 0, 8, 11, 4
# The whole top row walked from the yellow home to the red home.
TOP_ROW = {0, 1, 2, 3, 4, 5, 6}
# Face-down tiles below the top row's open south edges (0, 2, 4 and 6 open south).
BELOW_TOP_ROW = {7, 9, 11, 13}
HARMLESS_PAGE = (C.PAGE_TELEPORT, 2, 3, 0)  # names only pieces out of play in 2-player games


def top_corridor(down: tuple[int, ...] = (), **options) -> Scenario:
    """Yellow home -> Skull -> Lantern -> red home along row 0; ``down`` cells face down."""
    sc = Scenario(**options)
    for c in (1, 3, 5):
        sc.lay(c, "EW", down=c in down)
    return sc


def open_far_ends(sc: Scenario) -> None:
    """Face-up tiles at the far end of every arrow, so that every push is allowed."""
    for i, c in enumerate(FAR_ENDS):
        sc.lay(c, "NS" if i < 6 else "NE")


def reach_cells(sc: Scenario, label: int | None = None) -> set[int]:
    return {c for c, v in sc.reach().items() if label is None or v == label}


def mask_slice(sc: Scenario, start: int, stop: int) -> np.ndarray:
    return sc.mask()[start:stop]


def push_mask(sc: Scenario) -> np.ndarray:
    return mask_slice(sc, K.A_PUSH, K.A_MOVE)


def move_mask(sc: Scenario) -> np.ndarray:
    return mask_slice(sc, K.A_MOVE, K.A_ROTATE)


def rotate_mask(sc: Scenario) -> np.ndarray:
    return mask_slice(sc, K.A_ROTATE, K.A_SWITCH)


def switch_mask(sc: Scenario) -> np.ndarray:
    return mask_slice(sc, K.A_SWITCH, K.A_ORIENT)


def ev(kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> tuple[int, ...]:
    return (kind, seat, a, b, c, d)


# =====================================================================================
# Preparation
# =====================================================================================
def test_setup_board_filled_at_random_face_up_with_spare_beside():
    # A Book of teleport pages only, so the first page read leaves the tiles alone.
    deck = {"push": 0, "flip": 0, "teleport": 1}
    _, s = new_game(seed=3, daedalus_deck=deck)
    assert list(s["cell_tile"][C.FIXED_CELLS]) == list(range(C.NUM_LOOSE, C.NUM_TILES))
    loose = sorted([*s["cell_tile"][C.LOOSE_CELLS].tolist(), int(s["spare"])])
    assert loose == list(range(C.NUM_LOOSE)), "33 loose tiles in the maze plus the spare"
    assert not s["tile_down"].any(), "the maze and the spare start face up"
    _, other = new_game(seed=4, daedalus_deck=deck)
    assert not np.array_equal(s["cell_tile"], other["cell_tile"]), "the mix is random"
    assert not np.array_equal(s["tile_rot"][: C.NUM_LOOSE], other["tile_rot"][: C.NUM_LOOSE])


def test_setup_treasure_deck_shuffled_and_two_cards_each():
    _, s = new_game(seed=5, num_players=3)
    deck = s["treasure_deck"].tolist()
    assert sorted(deck) == list(range(C.NUM_TREASURES))
    assert [s["slots"][p].tolist() for p in range(4)] == [deck[0:2], deck[2:4], deck[4:6], [-1, -1]]
    assert int(s["treasure_pos"]) == 6
    _, other = new_game(seed=6, num_players=3)
    assert other["treasure_deck"].tolist() != deck


def test_setup_daedalus_deck_shuffled_and_first_page_read():
    _, s = new_game(seed=7)
    assert int(s["num_pages"]) == 24
    pages = s["pages"][:24]
    assert [int((pages[:, 0] == k).sum()) for k in range(3)] == [12, 6, 6]
    by_kind = {k: sorted(tuple(p) for p in pages.tolist() if p[0] == k) for k in range(3)}
    assert by_kind[C.PAGE_PUSH] == sorted(C.PUSH_POOL), "every arrow once"
    flips = by_kind[C.PAGE_FLIP]
    assert len(set(flips)) == 6 and set(flips) <= set(C.FLIP_POOL), "6 distinct Flip cards"
    assert by_kind[C.PAGE_TELEPORT] == sorted(C.TELEPORT_POOLS[2] * 3)
    assert int(s["page_pos"]) == 1, "the start player turned the first page"
    _, other = new_game(seed=8)
    assert not np.array_equal(pages, other["pages"][:24])


def test_setup_pieces_on_home_corners():
    # Flip pages only: Daedalus never moves a piece standing on a home corner.
    deck = {"push": 0, "flip": 3, "teleport": 0}
    _, s = new_game(seed=9, num_players=4, daedalus_deck=deck)
    assert s["piece"].tolist() == C.HOME_CELLS.tolist()
    _, s2 = new_game(seed=9, num_players=2, daedalus_deck=deck)
    assert s2["piece"].tolist() == [YELLOW_HOME, RED_HOME, -1, -1]


def test_setup_introductory_gives_push_and_rotate():
    deck = {"push": 0, "flip": 0, "teleport": 1}
    _, s = new_game(seed=10, num_players=4, daedalus_deck=deck)
    assert s["spell"].tolist() == [C.SPELL_ROTATE] * 4
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    K.legal_mask(s, mask)
    assert mask[K.A_PUSH : K.A_MOVE].all(), "a Push spell: every arrow, every orientation"
    assert mask[K.A_ROTATE : K.A_SWITCH].any()
    assert not mask[K.A_SWITCH : K.A_ORIENT].any(), "no Standard spells in the Introductory game"


def test_setup_start_player_is_seat_0_and_reads_first_page():
    _, s = new_game(seed=11, num_players=3)
    assert int(s["seat"]) == 0 and K.to_act(s) == 0 and int(s["turn"]) == 0
    assert events_of(s, K.EV_START_TURN) == [ev(K.EV_START_TURN, 0, 0, 23)]
    first = s["pages"][0].tolist()
    assert events_of(s, K.EV_PAGE) == [ev(K.EV_PAGE, 0, *first)]


def test_daedalus_pages_name_tiles_and_pieces_that_vary_and_matter():
    """Issue 19, item 4 (reconstruction, docs/rules): each game's Book is dealt from the
    card pools, so the tiles its Flip pages name vary from game to game, every Flip page
    hides a treasure, all 12 treasures on loose tiles can be hidden, and every Teleport
    page names pieces in play (both of them when two or more play) and a corner of
    neither."""
    loose_treasure_tiles = {int(C.TREASURE_TILE[t]) for t in range(12)}
    for n in (1, 2, 3, 4):
        named: list[frozenset[int]] = []
        for seed in range(30):
            _, s = new_game(seed=seed, num_players=n)
            pages = s["pages"][: int(s["num_pages"])].tolist()
            flips = [p for p in pages if p[0] == C.PAGE_FLIP]
            assert len(flips) == 6
            for _, a, b, _ in flips:
                assert (a in loose_treasure_tiles) != (b in loose_treasure_tiles), "a treasure and a plain tile"
            named.append(frozenset(x for p in flips for x in p[1:3]))
            for _, a, b, corner in (p for p in pages if p[0] == C.PAGE_TELEPORT):
                assert a < n and (b < n or n == 1) and corner not in (a, b)
        assert len(set(named)) > 20, "which tiles Daedalus flips varies from game to game"
        assert loose_treasure_tiles <= set().union(*named), "every loose treasure can be hidden"


# =====================================================================================
# How to play: turns go clockwise; each starts by reading the next page
# =====================================================================================
def test_end_of_turn_passes_book_clockwise():
    _, s = new_game(seed=12, num_players=4)
    seats = [int(s["seat"])]
    for _ in range(5):
        assert K.step(s, K.A_END)
        seats.append(int(s["seat"]))
    assert seats == [0, 1, 2, 3, 0, 1]


def test_each_turn_starts_by_reading_next_page():
    _, s = new_game(seed=13, num_players=2)
    for turn in range(1, 6):
        pos = int(s["page_pos"])
        page = s["pages"][pos].tolist()
        assert K.step(s, K.A_END)
        seat = turn % 2
        assert int(s["page_pos"]) == pos + 1
        starts = events_of(s, K.EV_START_TURN)
        assert starts == [ev(K.EV_START_TURN, seat, turn, 24 - pos - 1)]
        assert events_of(s, K.EV_PAGE) == [ev(K.EV_PAGE, seat, *page)]


# =====================================================================================
# 1. Read the Book of Daedalus
# =====================================================================================
def test_daedalus_push_inserts_spare_face_down():
    sc = Scenario()
    s = sc.s
    sc.lay(43, "NS")
    line = C.ARROW_LINE[TOP_COL_1]
    spare = int(s["spare"])
    before = s["cell_tile"][line].tolist()
    sc.next_page(C.PAGE_PUSH, TOP_COL_1)
    events = sc.ready().end()
    assert int(s["cell_tile"][1]) == spare and s["tile_down"][spare] == 1
    assert s["open"][1] == 0, "the face-down tile blocks"
    assert s["cell_tile"][line].tolist() == [spare, *before[:-1]]
    assert int(s["spare"]) == before[-1], "the tile pushed out is the new spare"
    assert s["tile_down"][before[-1]] == 0
    assert ev(K.EV_DAEDALUS_PUSH, -1, TOP_COL_1, before[-1], 0) in events


def test_daedalus_push_flips_face_down_spare_face_up():
    sc = Scenario()
    s = sc.s
    out = sc.lay(43, "NS", down=True)
    sc.next_page(C.PAGE_PUSH, TOP_COL_1)
    events = sc.ready().end()
    assert int(s["spare"]) == out
    assert s["tile_down"][out] == 0, "a face-down tile pushed out is turned face up"
    assert ev(K.EV_DAEDALUS_PUSH, -1, TOP_COL_1, out, 1) in events


def test_daedalus_push_teleports_piece_pushed_out_home():
    sc = Scenario()
    s = sc.s
    sc.lay(43, "NS")
    rider = sc.lay(15, "NS")
    sc.put(0, 43)
    sc.put(1, 15)
    sc.next_page(C.PAGE_PUSH, TOP_COL_1)
    events = sc.ready().end()
    assert int(s["piece"][0]) == YELLOW_HOME, "pushed out by Daedalus: back to its home corner"
    assert ev(K.EV_SENT_HOME, 0, 43, YELLOW_HOME, 0) in events
    assert int(s["piece"][1]) == 22 and int(s["cell_tile"][22]) == rider, "other pieces ride their tiles"
    assert not events_of(s, K.EV_PIECE_WRAPS)


def test_daedalus_always_pushes_even_a_face_down_tile_out():
    sc = Scenario()
    s = sc.s
    out = sc.lay(45, "NS", down=True)  # far end of top col 3: the Push spell could not
    sc.lay(3, "NS")
    sc.put(0, 3)
    spare = int(s["spare"])
    sc.next_page(C.PAGE_PUSH, 1)
    sc.ready()
    assert not push_mask(sc).reshape(12, 4)[1].any()
    sc.end()
    assert int(s["cell_tile"][3]) == spare and s["tile_down"][spare] == 1
    assert int(s["spare"]) == out
    assert int(s["piece"][0]) == 10, "the piece rode its tile one cell down"


def test_daedalus_flip_turns_named_tiles_face_down():
    sc = Scenario()
    s = sc.s
    sc.lay(3, "ES", tile=MUSHROOM_TILE)
    mark = int(C.MARK_TILE[0])
    sc.lay(9, "EW", tile=mark)
    sc.next_page(C.PAGE_FLIP, MUSHROOM_TILE, mark)
    events = sc.ready().end()
    assert s["tile_down"][MUSHROOM_TILE] == 1 and s["tile_down"][mark] == 1
    assert s["open"][3] == 0 and s["open"][9] == 0
    assert ev(K.EV_DAEDALUS_FLIP, -1, MUSHROOM_TILE, 3) in events
    assert ev(K.EV_DAEDALUS_FLIP, -1, mark, 9) in events


def test_daedalus_flip_ignores_spare_and_face_down_tiles():
    sc = Scenario()
    s = sc.s
    sc.set_spare(MUSHROOM_TILE)
    sc.lay(9, "ES", tile=ELEPHANT_TILE, down=True)
    sc.next_page(C.PAGE_FLIP, MUSHROOM_TILE, ELEPHANT_TILE)
    sc.ready().end()
    assert int(s["spare"]) == MUSHROOM_TILE and s["tile_down"][MUSHROOM_TILE] == 0
    assert s["tile_down"][ELEPHANT_TILE] == 1
    assert not events_of(s, K.EV_DAEDALUS_FLIP)


def test_daedalus_flip_teleports_piece_on_flipped_tile():
    sc = Scenario()
    s = sc.s
    sc.lay(3, "ES", tile=MUSHROOM_TILE)
    sc.lay(9, "ES", tile=ELEPHANT_TILE)
    sc.put(0, 3)
    sc.put(1, 9)
    sc.next_page(C.PAGE_FLIP, MUSHROOM_TILE, ELEPHANT_TILE)
    events = sc.ready().end()
    assert s["piece"][:2].tolist() == [YELLOW_HOME, RED_HOME]
    assert ev(K.EV_SENT_HOME, 0, 3, YELLOW_HOME, 1) in events
    assert ev(K.EV_SENT_HOME, 1, 9, RED_HOME, 1) in events


def test_daedalus_teleport_sends_two_pieces_to_named_corner():
    sc = Scenario()
    s = sc.s
    sc.lay(3, "EW")
    sc.lay(9, "EW")
    sc.put(0, 3)
    sc.put(1, 9)
    sc.next_page(C.PAGE_TELEPORT, 0, 1, 2)
    events = sc.ready().end()
    assert s["piece"][:2].tolist() == [GREEN_HOME, GREEN_HOME]
    assert ev(K.EV_SENT_HOME, 0, 3, GREEN_HOME, 2) in events
    assert ev(K.EV_SENT_HOME, 1, 9, GREEN_HOME, 2) in events


def test_daedalus_teleport_ignores_pieces_not_in_play():
    sc = Scenario(num_players=2)
    s = sc.s
    sc.lay(9, "EW")
    sc.put(1, 9)
    sc.next_page(C.PAGE_TELEPORT, 1, 3, 0)
    sc.ready().end()
    assert s["piece"].tolist() == [YELLOW_HOME, YELLOW_HOME, -1, -1]
    assert [e[1] for e in events_of(s, K.EV_SENT_HOME)] == [1], "blue is not in play"


# =====================================================================================
# 2. Use your spells and move: once each, any order
# =====================================================================================
def test_spells_once_each_any_order():
    for order in itertools.permutations(("push", "rotate", "move")):
        sc = Scenario()
        s = sc.s
        sc.lay(21, "NS")  # far end of right row 3
        sc.lay(38, "NS")  # a tile off that row to rotate
        sc.lay(1, "EW")  # a tile to move to
        sc.ready()
        actions = {
            "push": K.A_PUSH + 4 * RIGHT_ROW_3,
            "rotate": K.A_ROTATE + 3 * 38,
            "move": K.A_MOVE + 1,
        }
        kinds = {"push": push_mask, "rotate": rotate_mask, "move": move_mask}
        for i, what in enumerate(order):
            assert int(s["seat"]) == 0
            sc.step(actions[what])
            if i < 2:
                assert not kinds[what](sc).any(), f"{what} can be used once only ({order})"
                for other in order[i + 1 :]:
                    assert sc.legal(actions[other]), f"{other} still open after {order[: i + 1]}"
        assert int(s["seat"]) == 1, f"all three used in order {order}: the turn is over"


# --- Using your Push spell ----------------------------------------------------------
def test_push_arrows_mark_the_12_pushable_rows():
    assert C.ARROW_LINE.shape == (12, 7)
    for a in range(12):
        line = C.ARROW_LINE[a]
        assert not C.IS_FIXED_CELL[line].any(), "arrows mark the rows of loose tiles"
        rows, cols = line // 7, line % 7
        assert len(set(rows.tolist())) == 1 or len(set(cols.tolist())) == 1
        assert int(C.ARROW_LINE[C.ARROW_OPPOSITE[a], 0]) == int(line[-1])
    # The rulebook's example arrow "between the yellow and the red starting position":
    # arrows 0-2 enter on the top edge, between the yellow and red home corners.
    assert all(YELLOW_HOME < int(C.ARROW_LINE[a, 0]) < RED_HOME for a in range(3))
    sc = Scenario()
    open_far_ends(sc)
    assert push_mask(sc.ready()).sum() == 48, "12 arrows x 4 orientations of the spare"


def test_push_spell_pushes_spare_in_face_up_in_chosen_orientation():
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    straight = int(C.MARK_TILE[11])  # a plain straight
    sc.set_spare(straight)
    line = C.ARROW_LINE[LEFT_ROW_1]
    before = s["cell_tile"][line].tolist()
    sc.ready()
    assert push_mask(sc)[4 * LEFT_ROW_1 : 4 * LEFT_ROW_1 + 4].all(), "the pusher picks the orientation"
    events = sc.push(LEFT_ROW_1, 1)
    assert s["cell_tile"][line].tolist() == [straight, *before[:-1]]
    assert s["tile_down"][straight] == 0 and int(s["tile_rot"][straight]) == 1
    assert int(s["open"][7]) == mask_from_directions("EW")
    assert int(s["spare"]) == before[-1]
    assert ev(K.EV_PUSH, 0, LEFT_ROW_1, 1, before[-1]) in events
    assert int(s["push_used"]) == 1 and not push_mask(sc).any()


def test_push_spell_cannot_push_face_down_tile_out():
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    sc.lay(45, tile=int(s["cell_tile"][45]), down=True)  # far end of top col 3 (arrow 1)
    pushes = push_mask(sc.ready()).reshape(12, 4)
    assert not pushes[1].any()
    assert pushes[[a for a in range(12) if a != 1]].all()
    before = sc.states.tobytes()
    assert not K.step(s, K.A_PUSH + 4 * 1), "rejected"
    assert sc.states.tobytes() == before, "and nothing changed"


def test_piece_pushed_out_by_push_spell_comes_in_on_new_tile():
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    spare = int(s["spare"])
    sc.lay(15, "NS")
    sc.put(1, 43)
    sc.put(0, 15)
    events = sc.ready().push(TOP_COL_1)
    assert int(s["piece"][1]) == 1 and int(s["cell_tile"][1]) == spare, "on the tile just placed"
    assert ev(K.EV_PIECE_WRAPS, 1, 43, 1) in events
    assert int(s["piece"][0]) == 22, "a piece further up the row rides its tile"
    assert not events_of(s, K.EV_SENT_HOME)


def test_piece_pushed_by_push_spell_does_not_use_its_move():
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    sc.put(0, 43)
    sc.ready().push(TOP_COL_1)
    assert int(s["piece"][0]) == 1
    assert int(s["moves_left"]) == 1 and int(s["reach"][1]) == 1, "the move is still to come"


def test_push_may_reverse_previous_push():
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    line = C.ARROW_LINE[TOP_COL_1]
    original = s["cell_tile"][line].tolist()
    spare = int(s["spare"])
    sc.ready().push(TOP_COL_1)
    sc.end()
    assert int(s["seat"]) == 1
    assert push_mask(sc).reshape(12, 4)[BOTTOM_COL_1].all(), "no ban on undoing the last push"
    sc.push(BOTTOM_COL_1)
    assert s["cell_tile"][line].tolist() == original and int(s["spare"]) == spare


# --- Using your Rotate spell ----------------------------------------------------------
def test_rotate_spell_turns_one_tile_to_any_other_orientation():
    sc = Scenario()
    s = sc.s
    t = sc.lay(24, "ESW")
    sc.ready()
    assert rotate_mask(sc)[3 * 24 : 3 * 24 + 3].all()
    opens = {int(s["open"][24])}
    for steps in (1, 2, 3):
        trial = Scenario()
        trial.lay(24, "ESW", tile=t)
        trial.ready().rotate(24, steps)
        opens.add(int(trial.s["open"][24]))
    assert len(opens) == 4, "three other orientations"
    events = sc.rotate(24, 1)
    assert int(s["open"][24]) == mask_from_directions("NSW")
    assert ev(K.EV_ROTATE, 0, 24, 1) in events
    assert int(s["spell_used"]) == 1 and not rotate_mask(sc).any(), "once per turn"


def test_rotate_spell_cannot_turn_printed_spaces_or_face_down_tiles():
    sc = Scenario()
    sc.lay(24, "NS")
    rot = rotate_mask(sc.ready()).reshape(49, 3)
    assert {c for c in range(49) if rot[c].any()} == {24}, "the rest is printed or face down"


def test_rotate_spell_keeps_piece_on_tile():
    sc = Scenario()
    s = sc.s
    t = sc.lay(24, "NS")
    sc.put(1, 24)
    sc.ready().rotate(24, 1)
    assert int(s["piece"][1]) == 24 and int(s["cell_tile"][24]) == t
    assert int(s["open"][24]) == mask_from_directions("EW")


# --- Moving your playing piece --------------------------------------------------------
def test_move_as_far_as_open_paths_allow():
    sc = top_corridor()
    s = sc.s
    sc.lay(8, "NS")  # open towards 1, but 1 is closed towards it: no path
    sc.ready()
    assert reach_cells(sc) == TOP_ROW | BELOW_TOP_ROW
    assert set(sc.reach().values()) == {1}
    assert sc.move_targets() == (TOP_ROW | BELOW_TOP_ROW) - {YELLOW_HOME}, "not its own cell"
    events = sc.move(RED_HOME)
    assert int(s["piece"][0]) == RED_HOME
    assert ev(K.EV_MOVE, 0, YELLOW_HOME, RED_HOME, 0) in events


def test_move_past_and_share_tile_with_other_pieces():
    sc = top_corridor()
    s = sc.s
    sc.put(1, 3)
    sc.ready()
    assert {3, 4, 5, 6} <= sc.move_targets(), "other pieces do not block"
    sc.move(3)
    assert int(s["piece"][0]) == int(s["piece"][1]) == 3


def test_may_choose_not_to_move():
    sc = top_corridor().ready()
    s = sc.s
    assert sc.legal(K.A_END), "not moving is ending the turn (or casting spells) without a move"
    sc.end()
    assert int(s["piece"][0]) == YELLOW_HOME and int(s["seat"]) == 1


def test_move_only_once_per_turn():
    sc = top_corridor().ready()
    s = sc.s
    sc.move(5)
    assert int(s["moves_left"]) == 0 and not move_mask(sc).any()
    assert int(s["seat"]) == 0, "push and rotate are still to use"


def test_face_down_tiles_block_paths():
    sc = top_corridor(down=(3,)).ready()
    assert reach_cells(sc) == {0, 1, 2, 3, 7, 9}, "onto the face-down tile, not through it"
    assert not {4, 5, 6} & sc.move_targets()


# --- Collecting a treasure ------------------------------------------------------------
def test_collect_only_by_stopping_on_tile():
    sc = top_corridor().ready()
    s = sc.s
    sc.give(0, LANTERN, MUSHROOM)
    sc.move(RED_HOME)  # over the Lantern without stopping
    assert not events_of(s, K.EV_COLLECT)
    assert s["slots"][0].tolist() == [LANTERN, MUSHROOM] and s["collected"][LANTERN] == 0
    assert int(s["moves_left"]) == 0

    sc = top_corridor()
    s = sc.s
    sc.give(0, LANTERN, MUSHROOM)
    sc.ready().move(LANTERN_CELL)
    assert s["collected"][LANTERN] == 1


def test_collect_treasure_gives_one_bonus_move():
    sc = top_corridor()
    s = sc.s
    sc.give(0, LANTERN, MUSHROOM)
    before = int(s["num_collected"])
    events = sc.ready().move(LANTERN_CELL)
    assert ev(K.EV_COLLECT, 0, LANTERN, 0, 1) in events
    assert s["slots"][0].tolist() == [MUSHROOM, -1]
    assert s["collected"][LANTERN] == 1 and int(s["num_collected"]) == before + 1
    assert int(s["moves_left"]) == 1
    assert sc.move_targets() == (TOP_ROW | BELOW_TOP_ROW) - {LANTERN_CELL}, "a second move, same rules"


def test_introductory_treasures_in_any_order():
    sc = top_corridor()
    s = sc.s
    sc.give(0, LANTERN, SKULL)
    sc.ready().move(SKULL_CELL)  # the right-hand card first
    assert s["collected"][SKULL] == 1 and s["slots"][0].tolist() == [LANTERN, -1]


def test_move_of_length_zero_is_not_a_move_to_a_treasure():
    """l.136 "you must move along an open path to the tile showing the treasure"; l.130
    "You can also choose not to move". Standing on a wanted treasure (here after a new
    card named it) collects nothing and earns no bonus move: the own cell is no move."""
    sc = top_corridor()
    s = sc.s
    sc.put(0, LANTERN_CELL)
    sc.give(0, LANTERN)
    sc.ready()
    assert LANTERN_CELL not in sc.move_targets() and not K.is_legal(s, K.A_MOVE + LANTERN_CELL)
    before = sc.states.tobytes()
    assert not K.step(s, K.A_MOVE + LANTERN_CELL) and sc.states.tobytes() == before
    sc.move(RED_HOME)  # moving off it is a move, and collects nothing either
    assert not events_of(s, K.EV_COLLECT) and s["collected"][LANTERN] == 0 and int(s["moves_left"]) == 0


def test_unused_spells_before_or_after_bonus_move():
    sc = top_corridor()
    s = sc.s
    sc.lay(21, "NS")
    sc.give(0, LANTERN)
    sc.ready().move(LANTERN_CELL)
    assert push_mask(sc).any() and rotate_mask(sc).any() and move_mask(sc).any()
    sc.rotate(21, 1)  # a spell before the bonus move
    sc.move(RED_HOME)  # the bonus move
    assert int(s["seat"]) == 0 and push_mask(sc).any(), "and a spell after it"
    sc.push(RIGHT_ROW_3)
    assert int(s["seat"]) == 1


def test_treasure_on_another_board_not_collected_while_own_board_has_cards():
    sc = top_corridor()
    s = sc.s
    sc.give(0, MUSHROOM)
    sc.give(1, LANTERN)
    sc.s["treasure_pos"] = C.NUM_TREASURES  # even with the treasure deck empty
    sc.ready().move(LANTERN_CELL)
    assert not events_of(s, K.EV_COLLECT) and s["slots"][1].tolist() == [LANTERN, -1]


# --- No treasures to collect? ---------------------------------------------------------
def test_no_treasures_to_collect_rule():
    sc = top_corridor()
    s = sc.s
    s["treasure_pos"] = C.NUM_TREASURES
    sc.give(1, LANTERN, SKULL)
    events = sc.ready().move(LANTERN_CELL)
    assert ev(K.EV_COLLECT, 0, LANTERN, 1, 1) in events, "taken from player 1's board"
    assert s["slots"][1].tolist() == [SKULL, -1] and s["collected"][LANTERN] == 1
    assert int(s["moves_left"]) == 1


def test_no_treasures_rule_needs_empty_treasure_deck():
    sc = top_corridor()
    s = sc.s
    assert int(s["treasure_pos"]) < C.NUM_TREASURES
    sc.give(1, LANTERN, SKULL)
    sc.ready().move(LANTERN_CELL)
    assert not events_of(s, K.EV_COLLECT) and s["collected"][LANTERN] == 0


def test_no_treasures_rule_board_emptied_earlier_in_the_same_turn_counts():
    """Silent choice 16: "No treasures to collect" (l.150) is judged when the piece stops.
    Yellow's last card is found with the move; with the deck run out, the bonus move may
    take a treasure from red's board."""
    sc = top_corridor()
    s = sc.s
    s["treasure_pos"] = C.NUM_TREASURES
    sc.give(0, SKULL)
    sc.give(1, LANTERN)
    sc.ready().move(SKULL_CELL)
    assert s["slots"][0].tolist() == [-1, -1] and int(s["moves_left"]) == 1, "board emptied, bonus move"
    events = sc.move(LANTERN_CELL)
    assert ev(K.EV_COLLECT, 0, LANTERN, 1, 0) in events, "from red's board, no second bonus"
    assert s["slots"][1].tolist() == [-1, -1] and not events_of(s, K.EV_DRAW)


# --- Collecting a second treasure -----------------------------------------------------
def test_second_treasure_gives_no_bonus_move():
    sc = top_corridor()
    s = sc.s
    sc.give(0, LANTERN, SKULL)
    sc.ready().move(LANTERN_CELL)
    events = sc.move(SKULL_CELL)
    assert ev(K.EV_COLLECT, 0, SKULL, 0, 0) in events, "no bonus move for the second"
    assert int(s["moves_left"]) == 0 and not move_mask(sc).any(), "so at most two per turn"
    assert s["slots"][0].tolist() == [-1, -1]


def test_no_bonus_after_a_second_treasure_on_a_face_down_tile():
    """l.170 "You earn a bonus move the first time you collect a treasure each turn, but
    not if you collect a second treasure", also when the second lies on a face-down tile."""
    sc = top_corridor(down=(5,))
    s = sc.s
    sc.lay(5, tile=MUSHROOM_TILE, down=True)
    sc.give(0, LANTERN, MUSHROOM)
    sc.ready().move(LANTERN_CELL)
    assert int(s["moves_left"]) == 1
    sc.move(5)
    sc.step(K.A_FLIP)
    events = sc.orient(rotation_for(MUSHROOM_TILE, "NE"))
    assert ev(K.EV_COLLECT, 0, MUSHROOM, 0, 0) in events, "collected, no bonus"
    assert int(s["moves_left"]) == 0 and not move_mask(sc).any()


def test_example_collecting_second_treasure():
    """The rulebook's example: Rotate opens a path to the Mushroom, the move collects it,
    Push brings the Elephant in, the bonus move collects it, and the turn is over."""
    sc = Scenario()
    s = sc.s
    sc.lay(1, "NE", tile=MUSHROOM_TILE)  # closed towards the yellow home
    sc.lay(13, "NS")  # far end of left row 1
    sc.set_spare(ELEPHANT_TILE)
    sc.give(0, MUSHROOM, ELEPHANT)
    sc.ready()
    assert 1 not in sc.move_targets()
    sc.rotate(1, 2)  # (1) now open S and W
    assert 1 in sc.move_targets()
    assert ev(K.EV_COLLECT, 0, MUSHROOM, 0, 1) in sc.move(1)  # (2)
    sc.push(LEFT_ROW_1, rotation_for(ELEPHANT_TILE, "NE"))  # (3) Elephant at cell 7, open N
    assert 7 in sc.move_targets()
    events = sc.move(7)  # (4) 1 -> 0 -> 7
    assert ev(K.EV_COLLECT, 0, ELEPHANT, 0, 0) in events
    assert ev(K.EV_END_TURN, 0, 0) in events, "both spells and both moves used: turn over"
    assert int(s["seat"]) == 1
    assert len([e for e in events if e[0] == K.EV_DRAW and e[1] == 0]) == 2


# --- Flipping face-down tiles face up again ---------------------------------------------
def test_move_onto_face_down_tile_then_flip_any_orientation():
    sc = top_corridor(down=(3,))
    s = sc.s
    tile = int(s["cell_tile"][3])
    sc.ready().move(3)
    assert int(s["piece"][0]) == 3 and int(s["decision"]) == K.DECISION_FLIP
    sc.step(K.A_FLIP)
    assert int(s["decision"]) == K.DECISION_ORIENT
    mask = sc.mask()
    assert mask[K.A_ORIENT : K.A_ORIENT + 4].all() and mask.sum() == 4, "any orientation, nothing else"
    assert int(s["moves_left"]) == 0, "the move stops on the face-down tile"
    events = sc.orient(0)  # N-S: need not connect to the path the piece came along
    assert s["tile_down"][tile] == 0 and int(s["tile_rot"][tile]) == 0
    assert int(s["open"][3]) == mask_from_directions("NS")
    assert int(s["piece"][0]) == 3 and int(s["decision"]) == K.DECISION_MAIN
    assert ev(K.EV_FLIP_UP, 0, 3, tile, 0) in events


def test_flipped_tile_seen_before_choosing_orientation():
    """Rulebook: "Flip it face up, and put it in any orientation you choose". The seat sees
    the tile (its paths and treasure) while it chooses, and so does a determinized copy."""
    sc = Scenario()
    s = sc.s
    sc.lay(1, "EW")
    sc.lay(3, "ES", tile=MUSHROOM_TILE, down=True)
    sc.give(0, MUSHROOM)
    sc.ready().move(3)
    sc.step(K.A_FLIP)
    assert int(s["decision"]) == K.DECISION_ORIENT
    obs = sc.observe(0)
    assert obs[(K.P_TREASURE + MUSHROOM) * C.NUM_CELLS + 3] == 1, "the treasure is seen"
    assert obs[K.P_DOWN * C.NUM_CELLS + 3] == 0 and obs[K.P_LOOSE_UP * C.NUM_CELLS + 3] == 1
    assert sum(obs[(K.P_OPEN + d) * C.NUM_CELLS + 3] for d in range(4)) == 2, "a corner's two paths"
    copy = sc.states.copy()
    K.determinize(copy[0], 0, np.uint64(5))
    assert int(copy[0]["cell_tile"][3]) == MUSHROOM_TILE, "a known tile is not resampled"


def test_treasure_on_face_down_tile_collected_and_move_off_next_time():
    sc = Scenario()
    s = sc.s
    sc.lay(1, "EW")
    sc.lay(3, "ES", tile=MUSHROOM_TILE, down=True)
    sc.give(0, MUSHROOM, ELEPHANT)
    sc.ready().move(3)
    sc.step(K.A_FLIP)
    events = sc.orient(rotation_for(MUSHROOM_TILE, "SW"))
    assert ev(K.EV_COLLECT, 0, MUSHROOM, 0, 1) in events
    assert sc.move_targets() == {2, 1, 0, 7, 9, 10}, "off the flipped tile along its paths"
    sc.move(YELLOW_HOME)
    assert int(s["piece"][0]) == YELLOW_HOME


def test_flipping_a_face_down_tile_you_stop_on_is_optional():
    """l.162-164: "you can move onto a flipped tile ... and then stop. If you do this, you
    can flip the tile face up again". Stopping asks first: flip it, or leave it face down."""
    sc = Scenario()
    s = sc.s
    sc.lay(1, "EW")
    sc.lay(3, "ES", tile=MUSHROOM_TILE, down=True)
    sc.give(0, MUSHROOM)
    sc.ready().move(3)
    assert int(s["decision"]) == K.DECISION_FLIP and s["tile_down"][MUSHROOM_TILE] == 1
    assert np.flatnonzero(sc.mask()).tolist() == [K.A_FLIP, K.A_LEAVE]
    events = sc.step(K.A_LEAVE)
    assert ev(K.EV_LEAVE_DOWN, 0, 3, MUSHROOM_TILE) in events
    assert s["tile_down"][MUSHROOM_TILE] == 1 and int(s["piece"][0]) == 3, "left face down, the piece on it"
    assert int(s["decision"]) == K.DECISION_MAIN and int(s["seat"]) == 0
    assert not events_of(s, K.EV_COLLECT) and s["collected"][MUSHROOM] == 0, "an unflipped tile shows nothing"
    assert push_mask(sc).any() or rotate_mask(sc).any(), "the spells are still there"


def test_piece_left_on_face_down_tile_may_flip_it_before_its_next_move_l164_l166():
    """l.164 "you can flip the tile face up again!", l.166 "You will be able to move off
    the tile as normal the next time you move": the flip stays the piece's choice while it
    stands there. Until it flips, the tile blocks every path (l.132), its own piece's too;
    the next turn it may flip it (its orientation chosen, a wanted treasure collected as
    normal, l.168), then move off as normal."""
    sc = Scenario(num_players=1)
    s = sc.s
    sc.lay(1, "EW")
    sc.lay(3, "ES", tile=MUSHROOM_TILE, down=True)
    sc.ready().move(3)
    sc.step(K.A_LEAVE)
    assert not sc.legal(K.A_FLIP), "the move is used: the flip waits for the next one"
    sc.end()
    assert int(s["seat"]) == 0 and int(s["piece"][0]) == 3 and s["tile_down"][MUSHROOM_TILE] == 1
    sc.give(0, MUSHROOM, ELEPHANT)
    assert sc.move_targets() == set(), "face down, it blocks its own piece's paths"
    assert sc.legal(K.A_FLIP) and not sc.legal(K.A_LEAVE)
    sc.step(K.A_FLIP)
    assert int(s["decision"]) == K.DECISION_ORIENT and s["tile_down"][MUSHROOM_TILE] == 0
    events = sc.orient(rotation_for(MUSHROOM_TILE, "SW"))
    assert ev(K.EV_FLIP_UP, 0, 3, MUSHROOM_TILE, rotation_for(MUSHROOM_TILE, "SW")) in events
    assert ev(K.EV_COLLECT, 0, MUSHROOM, 0, 1) in events, "found on the face-down tile: collected as normal"
    assert sc.move_targets() == {2, 1, 0, 7, 9, 10}, "then off the tile as normal"
    assert not sc.legal(K.A_FLIP)


def test_piece_left_on_face_down_tile_moves_off_only_by_flipping_or_traverse():
    """Face down, the tile blocks every path (l.132), the piece's own too; Traverse moves
    "on and off of" a flipped tile (l.213) without flipping it."""
    sc = Scenario()
    sc.lay(1, "EW")
    sc.lay(3, tile=MUSHROOM_TILE, down=True)
    sc.put(0, 3)
    assert sc.ready().move_targets() == set() and sc.legal(K.A_FLIP)

    sc = Scenario(variant="standard", spells=("traverse", "rotate"))
    sc.lay(1, "EW")  # beside the Skull
    sc.lay(3, tile=MUSHROOM_TILE, down=True)
    sc.put(0, 3)
    targets = sc.ready().move_targets()
    assert {SKULL_CELL, LANTERN_CELL} <= targets and set(sc.reach().values()) == {1, 2}
    assert sc.reach()[SKULL_CELL] == 2, "off the face-down tile only with the spell"


def test_only_a_move_or_a_flip_after_a_move_collects():
    """Silent choice 3: a piece carried onto a wanted treasure without moving (here pushed
    off the far end by the Push spell, onto the spare just pushed in) collects nothing,
    and standing on it later is no move to it (item 2)."""
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    sc.set_spare(MUSHROOM_TILE, rotation_for(MUSHROOM_TILE, "NE"))
    sc.give(0, MUSHROOM)
    sc.put(0, 43)
    events = sc.ready().push(TOP_COL_1)
    assert ev(K.EV_PIECE_WRAPS, 0, 43, 1) in events and int(s["cell_tile"][1]) == MUSHROOM_TILE
    assert not events_of(s, K.EV_COLLECT) and s["slots"][0].tolist() == [MUSHROOM, -1]
    assert 1 not in sc.move_targets()


def test_treasure_on_the_spare_cannot_be_collected():
    """Silent choice 20: the spare lies beside the maze; no action collects its treasure
    until it is pushed in (every legal action of the position is tried)."""
    sc = top_corridor()
    open_far_ends(sc)
    sc.set_spare(MUSHROOM_TILE)
    sc.give(0, MUSHROOM)
    sc.ready()
    obs = sc.observe(0)
    assert obs[K.OBS_SPARE + 4 + MUSHROOM] == 1 and obs[K.OBS_SPARE + 4 + C.NUM_TREASURES] == 1
    tried = 0
    for a in np.flatnonzero(sc.mask()):
        copy = sc.states.copy()
        assert K.step(copy[0], int(a))
        if int(copy[0]["spare"]) == MUSHROOM_TILE:
            assert copy[0]["collected"][MUSHROOM] == 0, f"action {a}"
            tried += 1
    assert tried > 20


# --- No peeking! ------------------------------------------------------------------------
def test_no_peeking_face_down_treasure_hidden_from_observation():
    plane = (K.P_TREASURE + MUSHROOM) * C.NUM_CELLS + 3
    wanted = K.P_WANTED * C.NUM_CELLS + 3
    sc = Scenario(public_memory=False)
    sc.lay(3, "ES", tile=MUSHROOM_TILE, down=True)
    sc.give(0, MUSHROOM)
    obs = sc.ready().observe(0)
    assert obs[plane] == 0 and obs[wanted] == 0
    assert obs[K.P_DOWN * C.NUM_CELLS + 3] == 1
    assert all(obs[(K.P_OPEN + d) * C.NUM_CELLS + 3] == 0 for d in range(4))
    sc.s["tile_down"][MUSHROOM_TILE] = 0
    obs = sc.ready().observe(0)
    assert obs[plane] == 1 and obs[wanted] == 1


def test_players_remember_what_the_table_saw():
    """l.174 "so you will need to try to remember where treasures are hidden": every
    change to a face-down tile is public, so by default every seat's observation recalls
    the treasure under each face-down tile (``public_memory=False`` turns recall off)."""
    plane = (K.P_TREASURE + MUSHROOM) * C.NUM_CELLS + 3
    remembered = Scenario()
    remembered.lay(3, "ES", tile=MUSHROOM_TILE, down=True)
    remembered.give(1, MUSHROOM)
    for seat in (0, 1):
        obs = remembered.ready().observe(seat)
        assert obs[plane] == 1, "the default: everyone remembers"
        assert obs[K.P_DOWN * C.NUM_CELLS + 3] == 1 and obs[(K.P_OPEN + 0) * C.NUM_CELLS + 3] == 0
    assert remembered.observe(0)[(K.P_WANTED + 1) * C.NUM_CELLS + 3] == 1


# =====================================================================================
# 3. End of turn
# =====================================================================================
def test_end_of_turn_draws_new_treasures():
    sc = top_corridor()
    s = sc.s
    sc.give(0, LANTERN, MUSHROOM)
    pos = int(s["treasure_pos"])
    nxt = int(s["treasure_deck"][pos])
    sc.ready().move(LANTERN_CELL)
    events = sc.end()
    assert s["slots"][0].tolist() == [MUSHROOM, nxt]
    assert ev(K.EV_DRAW, 0, nxt) in events and int(s["treasure_pos"]) == pos + 1


def test_end_of_turn_skips_draw_when_deck_empty():
    sc = top_corridor()
    s = sc.s
    s["treasure_pos"] = C.NUM_TREASURES
    sc.give(0, LANTERN, MUSHROOM)
    sc.ready().move(LANTERN_CELL)
    sc.end()
    assert s["slots"][0].tolist() == [MUSHROOM, -1] and not events_of(s, K.EV_DRAW)
    assert int(s["outcome"]) == K.RUNNING and int(s["seat"]) == 1, "play goes on"


def test_end_of_turn_spells_face_up_again():
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    s["pages"][int(s["page_pos"]) + 1] = HARMLESS_PAGE  # seat 0's next turn too
    sc.ready().push(TOP_COL_1)
    sc.rotate(1, 1)
    sc.end()
    sc.end()
    assert int(s["seat"]) == 0
    assert int(s["push_used"]) == 0 and int(s["spell_used"]) == 0 and int(s["moves_left"]) == 1
    assert push_mask(sc).any() and rotate_mask(sc).any()


def test_turn_ends_by_itself_when_nothing_left():
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    sc.ready().push(TOP_COL_1)
    sc.rotate(1, 1)
    assert int(s["seat"]) == 0
    events = sc.move(7)
    assert ev(K.EV_END_TURN, 0, 0) in events and ev(K.EV_START_TURN, 1, 1, 22) in events
    assert int(s["seat"]) == 1


def test_turn_ends_by_itself_after_orienting_flipped_tile():
    sc = Scenario()
    s = sc.s
    sc.lay(13, "NS")  # far end of left row 1
    sc.lay(1, "NS")
    sc.lay(3, "EW", down=True)
    sc.ready().push(LEFT_ROW_1)
    sc.rotate(1, 1)  # now east-west: yellow home -> 1 -> Skull -> face-down 3
    sc.move(3)
    sc.step(K.A_FLIP)
    assert int(s["seat"]) == 0 and int(s["decision"]) == K.DECISION_ORIENT, "the orientation is still to choose"
    events = sc.orient(1)
    assert ev(K.EV_END_TURN, 0, 0) in events and int(s["seat"]) == 1


def test_turn_does_not_end_while_a_spell_is_left():
    sc = Scenario()
    s = sc.s
    open_far_ends(sc)
    sc.ready().push(TOP_COL_1)
    sc.move(7)
    assert int(s["seat"]) == 0 and rotate_mask(sc).any() and sc.legal(K.A_END)


def test_turn_ends_by_itself_with_movement_spell_unused():
    # Traverse can only be used while moving: with the push and the move used, nothing is left.
    sc = Scenario(variant="standard", spells=("traverse", "rotate"))
    s = sc.s
    open_far_ends(sc)
    sc.ready().push(TOP_COL_1)
    events = sc.move(7)
    assert ev(K.EV_END_TURN, 0, 0) in events and int(s["seat"]) == 1


def test_every_arrow_blocked_ends_with_end():
    """Silent choice 10: with every arrow's far end face down the Push spell cannot be used
    (l.118), so the turn does not end by itself; the player ends it with "end turn"."""
    sc = Scenario()  # every loose tile face down: every far end too
    s = sc.s
    sc.lay(17, "NS")
    sc.lay(24, "NS")
    sc.lay(38, "NS")
    sc.put(0, 17)
    sc.ready()
    assert not push_mask(sc).any()
    sc.rotate(38, 1)
    sc.move(24)
    assert int(s["seat"]) == 0, "the unusable push does not end the turn"
    assert np.flatnonzero(sc.mask()).tolist() == [K.A_END]
    events = sc.end()
    assert ev(K.EV_END_TURN, 0, 0) in events and int(s["seat"]) == 1


# =====================================================================================
# Things to remember
# =====================================================================================
def test_spells_cannot_be_used_on_another_players_turn():
    sc = Scenario(variant="standard", spells=("switch", "rotate"))
    s = sc.s
    sc.lay(24, "NS")
    sc.ready()
    assert K.to_act(s) == 0 and switch_mask(sc).any() and not rotate_mask(sc).any()
    sc.end()
    assert K.to_act(s) == 1 and rotate_mask(sc).any() and not switch_mask(sc).any()


# =====================================================================================
# End of the game
# =====================================================================================
def test_team_wins_when_all_24_collected():
    sc = top_corridor()
    s = sc.s
    sc.collect_all_but(LANTERN)
    sc.give(1, LANTERN)  # the last one is on the other board; the deck is empty
    events = sc.ready().move(LANTERN_CELL)
    assert int(s["outcome"]) == K.WON and int(s["num_collected"]) == 24
    assert ev(K.EV_GAME_END, -1, K.WON, 24) in events
    assert not events_of(s, K.EV_END_TURN), "immediately, mid-turn, pieces anywhere"
    assert K.to_act(s) == -1 and not sc.mask().any()
    assert sc.returns().tolist() == [1.0, 1.0, 0.0, 0.0]


def test_team_loses_when_book_runs_out():
    sc = top_corridor()
    s = sc.s
    s["page_pos"] = s["num_pages"]  # this turn read the last page
    sc.ready()
    assert move_mask(sc).any(), "the final turn is played"
    events = sc.end()
    assert int(s["outcome"]) == K.LOST and ev(K.EV_GAME_END, -1, K.LOST, int(s["num_collected"])) in events
    assert K.to_act(s) == -1 and not sc.mask().any()
    assert sc.returns().tolist() == [-1.0, -1.0, 0.0, 0.0]


def test_team_wins_on_final_turn():
    sc = top_corridor()
    s = sc.s
    s["page_pos"] = s["num_pages"]
    sc.collect_all_but(LANTERN)
    sc.give(0, LANTERN)
    sc.ready().move(LANTERN_CELL)
    assert int(s["outcome"]) == K.WON


def test_book_with_a_page_left_goes_on():
    sc = Scenario()
    s = sc.s
    s["page_pos"] = s["num_pages"] - 1
    sc.next_page(*HARMLESS_PAGE)
    sc.ready().end()
    assert int(s["outcome"]) == K.RUNNING and int(s["page_pos"]) == int(s["num_pages"])


def test_max_turns_truncates():
    _, s = new_game(seed=14, max_turns=3)
    for turn in range(3):
        assert int(s["outcome"]) == K.RUNNING and int(s["turn"]) == turn
        assert K.step(s, K.A_END)
    assert int(s["outcome"]) == K.TRUNCATED and K.to_act(s) == -1
    out = np.ones(4)
    K.returns(s, out)
    assert out.tolist() == [0.0] * 4


# =====================================================================================
# Standard game
# =====================================================================================
def test_standard_deals_push_and_one_of_five_spells():
    seen: set[int] = set()
    for seed in range(20):
        _, s = new_game(seed=seed, num_players=4, variant="standard")
        spells = s["spell"].tolist()
        assert len(set(spells)) == 4 and all(0 <= x < 5 for x in spells), "one tile each, no repeats"
        seen |= set(spells)
    assert seen == set(range(5)), "Rotate and the four Standard spells are all dealt"
    _, s = new_game(num_players=3, variant="standard", spells=("escape", "switch", "rotate"))
    assert s["spell"].tolist() == [C.SPELL_ESCAPE, C.SPELL_SWITCH, C.SPELL_ROTATE, -1]


def test_switch_swaps_adjacent_tiles_pieces_move_with_tiles():
    sc = Scenario(variant="standard", spells=("switch", "rotate"))
    s = sc.s
    a = sc.lay(8, "NS")
    b = sc.lay(9, "EW")
    rot_a, rot_b = int(s["tile_rot"][a]), int(s["tile_rot"][b])
    sc.put(1, 8)
    events = sc.ready().switch(8, south=False)
    assert int(s["cell_tile"][8]) == b and int(s["cell_tile"][9]) == a
    assert (int(s["tile_rot"][a]), int(s["tile_rot"][b])) == (rot_a, rot_b), "not rotated"
    assert int(s["open"][8]) == mask_from_directions("EW")
    assert int(s["piece"][1]) == 9, "the piece moves with its tile"
    assert ev(K.EV_SWITCH, 0, 8, 9) in events
    assert int(s["spell_used"]) == 1 and not switch_mask(sc).any()


def test_switch_includes_face_down_tiles_without_flipping():
    sc = Scenario(variant="standard", spells=("switch", "rotate"))
    s = sc.s
    down = int(s["cell_tile"][8])
    up = sc.lay(15, "NS")
    sc.put(0, 15)
    sc.ready().switch(8, south=True)
    assert int(s["cell_tile"][15]) == down and s["tile_down"][down] == 1, "still face down"
    assert int(s["cell_tile"][8]) == up and int(s["piece"][0]) == 8


def test_switch_only_adjacent_path_tiles():
    sc = Scenario(variant="standard", spells=("switch", "rotate")).ready()
    sw = switch_mask(sc).reshape(49, 2)
    assert sw.sum() == 36, "every pair of orthogonally adjacent loose cells once"
    assert not sw[1, 0] and sw[1, 1], "cell 1's east neighbour is the printed Skull space"
    assert not sw[C.FIXED_CELLS].any()


def traverse_corridor(down: tuple[int, ...]) -> Scenario:
    return top_corridor(down=down, variant="standard", spells=("traverse", "rotate"))


def test_traverse_through_one_face_down_tile_left_face_down():
    sc = traverse_corridor(down=(3,))
    s = sc.s
    tile = int(s["cell_tile"][3])
    sc.ready()
    # Through 3 along the top row, or through 7 (below the home) to the printed space 14.
    past_seven = {14: 2, 15: 2, 21: 2}
    assert sc.reach() == {0: 1, 1: 1, 2: 1, 3: 1, 7: 1, 9: 1, 4: 2, 5: 2, 6: 2, 11: 2, 13: 2, **past_seven}
    events = sc.move(5)
    assert ev(K.EV_MOVE, 0, YELLOW_HOME, 5, 1) in events and int(s["spell_used"]) == 1
    assert s["tile_down"][tile] == 1 and int(s["piece"][0]) == 5


def test_traverse_only_one_face_down_tile():
    sc = traverse_corridor(down=(3, 5)).ready()
    past_seven = {14: 2, 15: 2, 21: 2}
    assert sc.reach() == {0: 1, 1: 1, 2: 1, 3: 1, 7: 1, 9: 1, 4: 2, 5: 2, 11: 2, **past_seven}
    assert RED_HOME not in sc.move_targets()


def test_movement_spell_spent_only_when_needed():
    sc = traverse_corridor(down=(3,))
    s = sc.s
    events = sc.ready().move(SKULL_CELL)
    assert ev(K.EV_MOVE, 0, YELLOW_HOME, SKULL_CELL, 0) in events and int(s["spell_used"]) == 0


def test_movement_spell_once_per_turn():
    sc = traverse_corridor(down=(3,))
    s = sc.s
    sc.give(0, LANTERN, SHELL)
    sc.ready().move(LANTERN_CELL)  # through the face-down tile, collecting: bonus move
    assert int(s["moves_left"]) == 1 and int(s["spell_used"]) == 1
    assert set(sc.reach().values()) == {1} and SKULL_CELL not in sc.move_targets()


def test_teleport_from_home_corner_to_another_and_continue():
    sc = Scenario(variant="standard", spells=("teleport", "rotate"))
    s = sc.s
    sc.lay(47, "EW")  # green home -> 47 -> Shell
    sc.ready()
    assert reach_cells(sc, 1) == {0, 1, 7}
    assert reach_cells(sc, 2) == {6, 5, 13, 42, 35, 43, 48, 41, 47, 46, 39, 45}
    events = sc.move(46)
    assert ev(K.EV_MOVE, 0, YELLOW_HOME, 46, 1) in events and int(s["spell_used"]) == 1


def test_teleport_from_any_home_corner_reached_while_moving():
    sc = Scenario(variant="standard", spells=("teleport", "rotate"))
    sc.lay(24, "NS")
    sc.put(0, 24)
    assert set(sc.ready().reach().values()) == {1}, "no home corner reached: no teleport"

    sc = Scenario(variant="standard", spells=("teleport", "rotate"))
    sc.lay(1, "EW")
    sc.lay(5, "EW")
    sc.put(0, 5)  # 5 -> red home (someone else's corner) -> any other corner
    sc.ready()
    assert sc.reach()[RED_HOME] == 1 and sc.reach()[GREEN_HOME] == 2 and sc.reach()[YELLOW_HOME] == 2
    assert sc.reach()[1] == 2, "and on from the corner"


def escape_scenario(exit_dirs: str) -> Scenario:
    sc = Scenario(variant="standard", spells=("escape", "rotate"))
    sc.lay(1, exit_dirs)
    sc.lay(47, "SW")  # opens off the bottom edge, and west to the Shell
    sc.lay(43, "NE")  # on the edge, but its paths do not lead off it
    return sc.ready()


def test_escape_leave_and_reenter_via_edge():
    sc = escape_scenario("NW")  # from the yellow home, off the top edge
    s = sc.s
    assert reach_cells(sc, 1) == {0, 1, 7}
    face_down_edge = {3, 5, 13, 21, 27, 35, 41, 45}
    assert reach_cells(sc, 2) == face_down_edge | {47, 46, 39}
    assert 43 not in sc.reach() and 44 not in sc.reach()
    events = sc.move(46)  # back in at 47, then on to the Shell
    assert ev(K.EV_MOVE, 0, YELLOW_HOME, 46, 1) in events and int(s["spell_used"]) == 1


def test_escape_reenter_onto_face_down_edge_tile_must_stop_and_flip():
    sc = escape_scenario("NW")
    s = sc.s
    sc.move(45)
    assert int(s["decision"]) == K.DECISION_ORIENT and int(s["piece"][0]) == 45
    assert int(s["spell_used"]) == 1 and int(s["moves_left"]) == 0
    sc.orient(0)
    assert s["tile_down"][s["cell_tile"][45]] == 0


def test_escape_needs_open_passage_off_edge():
    sc = escape_scenario("SW")
    assert set(sc.reach().values()) == {1}


# =====================================================================================
# Expert game
# =====================================================================================
def expert_corridor() -> Scenario:
    return top_corridor(variant="expert", spells=("rotate", "switch"))


def test_expert_treasures_in_order():
    sc = expert_corridor()
    s = sc.s
    sc.give(0, LANTERN, SKULL)
    sc.ready().move(SKULL_CELL)  # the right-hand card is not yet to be found
    assert not events_of(s, K.EV_COLLECT) and s["collected"][SKULL] == 0

    sc = expert_corridor()
    s = sc.s
    sc.give(0, LANTERN, SKULL)
    sc.ready().move(LANTERN_CELL)
    assert s["slots"][0].tolist() == [SKULL, -1], "the second card slides left"
    events = sc.move(SKULL_CELL)
    assert ev(K.EV_COLLECT, 0, SKULL, 0, 0) in events


def test_expert_draw_fills_left_to_right():
    sc = expert_corridor()
    s = sc.s
    sc.give(0, LANTERN, SKULL)
    pos = int(s["treasure_pos"])
    deck = s["treasure_deck"].tolist()
    sc.ready().move(LANTERN_CELL)
    sc.move(SKULL_CELL)
    events = sc.end()
    assert s["slots"][0].tolist() == [deck[pos], deck[pos + 1]]
    draws = [e for e in events if e[0] == K.EV_DRAW]
    assert draws == [ev(K.EV_DRAW, 0, deck[pos]), ev(K.EV_DRAW, 0, deck[pos + 1])], "one by one"


def test_expert_only_leftmost_on_other_boards():
    sc = expert_corridor()
    s = sc.s
    s["treasure_pos"] = C.NUM_TREASURES
    sc.give(1, LANTERN, SKULL)
    sc.ready().move(SKULL_CELL)
    assert not events_of(s, K.EV_COLLECT)

    sc = expert_corridor()
    s = sc.s
    s["treasure_pos"] = C.NUM_TREASURES
    sc.give(1, LANTERN, SKULL)
    events = sc.ready().move(LANTERN_CELL)
    assert ev(K.EV_COLLECT, 0, LANTERN, 1, 1) in events
