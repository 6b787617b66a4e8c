"""Set-up helpers for the Team Edition scenario tests.

A ``Scenario`` starts a real game with ``B.init_one`` (the ruleset's batch module) and then edits the state record
directly to build a position. ``blank()`` turns every loose tile in the maze face down,
so that nothing connects except what a test lays out with ``lay()``: the reach of a
piece is then exactly the corridor the test built plus the face-down tiles at its open
ends, and a test can assert concrete cell sets.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labyrinth_env import get_spec
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.grid import ROTATE_SQUARE, mask_from_directions
from labyrinth_env.rulesets.team_edition import components as C
from labyrinth_env.rulesets.team_edition import kernel as K
from labyrinth_env.rulesets.team_edition.env import raw_env

B = get_spec("team_edition_v2").loops  # the ruleset's entry points and batched loops

Event = tuple[int, ...]


def cell(row: int, col: int) -> int:
    return row * C.SIZE + col


def options_vector(**options: Any) -> np.ndarray:
    """The kernel options vector for env options (validated by the env, as ``make`` does)."""
    return raw_env(**options).options_vector()


def new_game(seed: int = 1, **options: Any) -> tuple[np.ndarray, np.void]:
    states = new_states(K, 1)
    B.init_one(states, np.uint64(seed), options_vector(**options))
    return states, states[0]


def rotation_for(tile: int, dirs: str) -> int:
    """The rotation that gives ``tile`` exactly the open edges ``dirs`` (e.g. "EW")."""
    want = mask_from_directions(dirs)
    for r in range(4):
        if ROTATE_SQUARE[C.TILE_SHAPE[tile], r] == want:
            return r
    raise ValueError(f"tile {tile} ({C.tile_name(tile)}) cannot be turned to open {dirs!r}")


def events(s: np.void) -> list[Event]:
    n = int(s["num_events"])
    return [tuple(int(x) for x in row) for row in s["events"][:n]]


def events_of(s: np.void, kind: int) -> list[Event]:
    return [e for e in events(s) if e[0] == kind]


class Scenario:
    """One game state to edit into a position, then play actions on."""

    def __init__(self, seed: int = 1, blank: bool = True, **options: Any) -> None:
        options.setdefault("num_players", 2)
        self.states, self.s = new_game(seed, **options)
        self.laid: set[int] = set()
        if blank:
            self.blank()

    # --- building the position -------------------------------------------------------------
    def blank(self) -> None:
        """Every loose tile in the maze face down, the spare face up, pieces home, boards
        empty (tests give treasures explicitly), a fresh turn for seat 0."""
        s = self.s
        for c in C.LOOSE_CELLS:
            s["tile_down"][s["cell_tile"][c]] = 1
        s["tile_down"][s["spare"]] = 0
        n = int(s["num_players"])
        for p in range(C.NUM_SEATS):
            s["piece"][p] = C.HOME_CELLS[p] if p < n else -1
        s["slots"][:, :] = -1
        s["seat"] = 0
        s["push_used"] = 0
        s["spell_used"] = 0
        s["moves_left"] = 1
        s["collected_this_turn"] = 0
        s["decision"] = K.DECISION_MAIN
        s["flip_cell"] = -1
        self.laid.clear()
        # A harmless next page (it names two pieces that are not in play in a 1- or
        # 2-player game), so that ending a turn changes nothing a test looks at.
        self.next_page(C.PAGE_TELEPORT, 2, 3, 0)

    def _pick_tile(self, dirs: str) -> int:
        # Prefer tiles without treasures, so that laying a corridor never hands out a
        # treasure by accident; T-junctions all carry treasures, so they come last.
        s = self.s
        want = mask_from_directions(dirs)
        candidates = []
        for c in C.LOOSE_CELLS:
            t = int(s["cell_tile"][c])
            if c in self.laid:
                continue
            if any(ROTATE_SQUARE[C.TILE_SHAPE[t], r] == want for r in range(4)):
                candidates.append((int(C.TILE_TREASURE[t]) >= 0, t))
        if not candidates:
            raise ValueError(f"no free tile opens {dirs!r}")
        return min(candidates)[1]

    def place(self, at: int, tile: int) -> None:
        """Put ``tile`` on cell ``at`` by swapping it with whatever lies there (or with the
        spare), so that cell_tile stays a permutation of the loose tiles."""
        s = self.s
        assert not C.IS_FIXED_CELL[at], "printed spaces never move"
        here = int(s["cell_tile"][at])
        if here == tile:
            return
        if int(s["spare"]) == tile:
            s["spare"] = here
            s["tile_down"][here] = 0  # the spare always lies face up
        else:
            where = int(np.nonzero(s["cell_tile"] == tile)[0][0])
            assert where not in self.laid, f"tile {tile} is already laid at {where}"
            s["cell_tile"][where] = here
        s["cell_tile"][at] = tile

    def lay(self, at: int, dirs: str | None = None, tile: int | None = None, down: bool = False) -> int:
        """Lay a tile on ``at`` with open edges ``dirs`` (face up) or face down; returns its id."""
        if tile is None:
            assert dirs is not None
            tile = self._pick_tile(dirs)
        self.place(at, tile)
        s = self.s
        s["tile_down"][tile] = 1 if down else 0
        if dirs is not None:
            s["tile_rot"][tile] = rotation_for(tile, dirs)
        self.laid.add(at)
        return tile

    def set_spare(self, tile: int, rot: int = 0) -> None:
        s = self.s
        if int(s["spare"]) != tile:
            where = int(np.nonzero(s["cell_tile"] == tile)[0][0])
            assert where not in self.laid
            old = int(s["spare"])
            s["cell_tile"][where] = old
            s["tile_down"][old] = 1  # keep the blank board blank
            s["spare"] = tile
        s["tile_down"][tile] = 0
        s["tile_rot"][tile] = rot

    def put(self, seat: int, at: int) -> None:
        self.s["piece"][seat] = at

    def give(self, seat: int, first: int = -1, second: int = -1) -> None:
        self.s["slots"][seat] = (first, second)

    def collect_all_but(self, *left: int) -> None:
        """Mark every treasure collected except ``left``; the treasure deck is empty."""
        s = self.s
        for t in range(C.NUM_TREASURES):
            s["collected"][t] = 0 if t in left else 1
        s["num_collected"] = C.NUM_TREASURES - len(left)
        s["treasure_pos"] = C.NUM_TREASURES

    def next_page(self, kind: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        """The page the next turn will read."""
        s = self.s
        if int(s["page_pos"]) < int(s["num_pages"]):
            s["pages"][int(s["page_pos"])] = (kind, a, b, c)

    def ready(self) -> Scenario:
        """Derive open edges and the reach of the active piece, as the kernel keeps them."""
        K.refresh_board(self.s)
        K.compute_reach(self.s)
        return self

    # --- reading and playing ----------------------------------------------------------------
    def mask(self) -> np.ndarray:
        out = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
        K.legal_mask(self.s, out)
        return out.astype(bool)

    def legal(self, action: int) -> bool:
        return bool(self.mask()[action])

    def reach(self) -> dict[int, int]:
        """Reachable cell -> 1 (without a spell) or 2 (only with the movement spell)."""
        r = self.s["reach"]
        return {int(c): int(r[c]) for c in np.nonzero(r)[0]}

    def move_targets(self) -> set[int]:
        m = self.mask()
        return {c for c in range(C.NUM_CELLS) if m[K.A_MOVE + c]}

    def step(self, action: int) -> list[Event]:
        """Apply a legal action (asserting that it is legal) and return its events."""
        assert self.legal(action), f"action {action} is not legal here"
        assert K.step(self.s, action)
        return events(self.s)

    def move(self, to: int) -> list[Event]:
        return self.step(K.A_MOVE + to)

    def orient(self, rot: int) -> list[Event]:
        return self.step(K.A_ORIENT + rot)

    def push(self, arrow: int, rot: int = 0) -> list[Event]:
        return self.step(K.A_PUSH + 4 * arrow + rot)

    def rotate(self, at: int, steps: int) -> list[Event]:
        return self.step(K.A_ROTATE + 3 * at + steps - 1)

    def switch(self, at: int, south: bool) -> list[Event]:
        return self.step(K.A_SWITCH + 2 * at + (1 if south else 0))

    def end(self) -> list[Event]:
        return self.step(K.A_END)

    def observe(self, seat: int) -> np.ndarray:
        out = np.zeros(K.OBS_SIZE, dtype=np.float32)
        K.observe(self.s, seat, out)
        return out

    def returns(self) -> np.ndarray:
        out = np.zeros(C.NUM_SEATS)
        K.returns(self.s, out)
        return out
