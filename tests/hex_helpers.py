"""What the scenario helpers of both Paths of Destiny editions share: the hex board's
cells and nodes, reading a step's events, finding dice, and the part of a ``Scenario``
that only drives the kernel (each edition's ``Scenario`` subclasses ``HexScenario`` and
names its kernel ``K`` and components ``C``), and reading the text board.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType
from typing import Any, Self

import numpy as np
from numba import njit

from labyrinth_env.core.events import clear_events
from labyrinth_env.core.grid import HEX_CORNERS, HEX_INDEX
from labyrinth_env.core.hexboard import KEY_CELLS as KEY_CELL_ARRAY
from labyrinth_env.core.hexboard import MAX_CORRIDORS, NUM_BOARD, NUM_BOARD_NODES, NUM_CELLS
from labyrinth_env.core.rng import roll_2d6, seed_state

Event = tuple[int, ...]
MC = MAX_CORRIDORS
KEY_CELLS = [int(c) for c in HEX_CORNERS]


def cell_at(q: int, r: int) -> int:
    return HEX_INDEX[(q, r)]


def node(cell: int, k: int = 0) -> int:
    return cell * MC + k


def key_node_of(i: int) -> int:
    return KEY_CELLS[i] * MC


def events(s: np.void) -> list[Event]:
    n = min(int(s["num_events"]), s["events"].shape[0])
    return [tuple(int(x) for x in row) for row in s["events"][:n]]


def events_of(evs_or_state: Any, kind: int) -> list[Event]:
    evs = events(evs_or_state) if isinstance(evs_or_state, np.void) else evs_or_state
    return [e for e in evs if e[0] == kind]


@njit(cache=True)
def search_rolls(lo: np.ndarray, hi: np.ndarray, first: int, tries: int) -> int:
    """The first seed from ``first`` whose generator's next 2d6 totals lie in [lo, hi]."""
    rng = np.empty(1, dtype=np.uint64)
    for i in range(first, first + tries):
        rng[0] = seed_state(np.uint64(i))
        ok = True
        for j in range(lo.shape[0]):
            r = roll_2d6(rng)
            if r < lo[j] or r > hi[j]:
                ok = False
                break
        if ok:
            return i
    return -1


class HexScenario:
    """Driving a scenario's game through its kernel ``K``: reading the mask, stepping,
    observing, and setting the pieces of a position."""

    K: ModuleType
    C: ModuleType
    states: np.ndarray
    s: np.void

    def actions(self, n: int) -> Self:
        self.s["actions_left"] = n
        return self

    def set_tile(self, cell: int, tile: int, rot: int = 0) -> list[int]:
        """Put ``tile`` on ``cell`` in rotation ``rot`` (taken out of the pool if there);
        returns its corridor nodes."""
        assert 0 <= cell < self.K.NUM_BOARD and not self.s["cell_built"][cell], f"cell {cell} is taken"
        self._take_from_pool(tile)
        self.K.set_tile(self.s, cell, tile, rot)
        return [node(cell, k) for k in range(int(self.C.TILE_NUM_CORRIDORS[tile]))]

    def _take_from_pool(self, tile: int) -> None:
        raise NotImplementedError

    def empty_pool(self, keep: int = 0) -> None:
        """Leave only the top ``keep`` tiles in the pool."""
        s = self.s
        n = int(s["tile_pool_len"])
        top = [int(t) for t in s["tile_pool"][n - keep : n]] if keep else []
        s["tile_pool"][:keep] = top
        s["tile_pool_len"] = keep

    def put(self, seat: int, at_node: int) -> None:
        self.s["position"][seat] = at_node

    def set(self, seat: int, life: int | None = None, stun: int | None = None, crystal: int | None = None) -> None:
        if life is not None:
            self.s["life"][seat] = life
        if stun is not None:
            self.s["stun"][seat] = stun
        if crystal is not None:
            self.s["crystal"][seat] = crystal

    def start_of(self, seat: int) -> int:
        return int(self.K.start_node(self.s, seat))

    def force(
        self,
        action: int,
        predicate: Callable[[np.void, list[Event]], bool],
        tries: int = 200_000,
    ) -> list[Event]:
        """Find a generator state for which stepping ``action`` satisfies ``predicate`` (on
        a copy), set it, step for real and return the events."""
        assert self.legal(action), f"action {action} is not legal here"
        trial = self.states.copy()
        for i in range(1, tries + 1):
            trial[:] = self.states
            value = seed_state(np.uint64(i))
            trial[0]["rng"][0] = value
            self.K.step(trial[0], action)
            if predicate(trial[0], events(trial[0])):
                self.s["rng"][0] = value
                return self.step(action)
        raise ValueError(f"no generator state makes action {action} give the wanted outcome")

    # --- reading and playing -------------------------------------------------------------------
    def mask(self) -> np.ndarray:
        out = np.zeros(self.K.NUM_ACTIONS, dtype=np.uint8)
        self.K.legal_mask(self.s, out)
        return out.astype(bool)

    def legal(self, action: int) -> bool:
        return bool(self.mask()[action])

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.mask())]

    def advance(self) -> list[Event]:
        """Resolve everything automatic (as after a step) and return the events."""
        clear_events(self.s)
        self.K.advance(self.s)
        return events(self.s)

    def step(self, action: int) -> list[Event]:
        """Apply a legal action (asserting that it is legal) and return its events."""
        assert self.legal(action), f"action {action} is not legal now (decision {self.K.DECISIONS[self.decision]})"
        assert self.K.step(self.s, action)
        return events(self.s)

    def move(self, d: int) -> list[Event]:
        return self.step(self.K.A_MOVE + d)

    def end(self) -> list[Event]:
        return self.step(self.K.A_END_TURN)

    @property
    def decision(self) -> int:
        return int(self.s["decision"])

    @property
    def decider(self) -> int:
        return int(self.s["decider"])

    def observe(self, seat: int) -> np.ndarray:
        out = np.zeros(self.K.OBS_SIZE, dtype=np.float32)
        self.K.observe(self.s, seat, out)
        return out

    def returns(self) -> np.ndarray:
        out = np.zeros(self.K.NUM_SEATS)
        self.K.returns(self.s, out)
        return out

    def pos(self, seat: int) -> int:
        return int(self.s["position"][seat])


# --- invariants both editions keep (codes as in their tests' INVARIANTS) -----------------------
@njit(cache=True)
def keys_error(s) -> int:
    """1: a key both lies on a node and is held, or neither; 2: it lies on a node that does
    not exist (or off the board); 3: it is held by a seat not in play."""
    for k in range(s.key_node.shape[0]):
        on_node = s.key_node[k] >= 0
        held = s.key_holder[k] >= 0
        if on_node == held:
            return 1
        if on_node and (s.key_node[k] >= NUM_BOARD_NODES or s.node_mask[s.key_node[k]] == 0):
            return 2
        if held and s.key_holder[k] >= s.num_players:
            return 3
    return 0


@njit(cache=True)
def traps_error(s, center_cell: int) -> int:
    """7: a trap on a missing, central or start-field corridor; 6: a trap token not in
    exactly one place (pile, board)."""
    traps = np.zeros(s.trap_pool.shape[0], dtype=np.int64)
    for i in range(s.trap_pool_len):
        traps[s.trap_pool[i]] += 1
    for node in range(s.node_trap.shape[0]):
        t = s.node_trap[node]
        if t >= 0:
            traps[t] += 1
            cell = node // MC
            if cell >= NUM_BOARD or cell == center_cell or s.node_mask[node] == 0:
                return 7
    for t in range(traps.shape[0]):
        if traps[t] != 1:
            return 6
    return 0


@njit(cache=True)
def tiles_error(s, center_cell: int, central_tile: int, key_tile: int) -> int:
    """9: a printed field (central, key, start) missing or a normal tile outside the board;
    8: a normal tile not in exactly one place (board, drawn, pile)."""
    tiles = np.zeros(s.tile_pool.shape[0], dtype=np.int64)
    for cell in range(NUM_BOARD):
        tile = s.cell_tile[cell]
        is_key = False
        for k in range(len(KEY_CELL_ARRAY)):
            if KEY_CELL_ARRAY[k] == cell:
                is_key = True
        if cell == center_cell:
            if tile != central_tile or not s.cell_built[cell]:
                return 9
        elif is_key:
            if tile != key_tile or not s.cell_built[cell]:
                return 9
        elif s.cell_built[cell]:
            if tile < 0 or tile >= tiles.shape[0]:
                return 9
            tiles[tile] += 1
        elif tile != -1:
            return 9
    for cell in range(NUM_BOARD, NUM_CELLS):
        if not s.cell_built[cell] or s.cell_tile[cell] != -1:
            return 9
    if s.drawn_tile >= 0:
        tiles[s.drawn_tile] += 1
    for i in range(s.tile_pool_len):
        tiles[s.tile_pool[i]] += 1
    for t in range(tiles.shape[0]):
        if tiles[t] != 1:
            return 8
    return 0


@njit(cache=True)
def tiles_error_with_face_down(s, center_cell: int, central_tile: int, key_tile: int) -> int:
    """``tiles_error`` with the Illusionist's face-down fields counted (each tile once: board
    face up or face down, drawn, pile; both editions): they are lent to the pile and their
    cells opened for the check, then put back."""
    n = s.tile_pool_len
    m = n
    for cell in range(NUM_BOARD):
        if s.fd_owner[cell] >= 0:
            s.tile_pool[m] = s.fd_tile[cell]
            s.cell_built[cell] = 0
            m += 1
    s.tile_pool_len = m
    err = tiles_error(s, center_cell, central_tile, key_tile)
    s.tile_pool_len = n
    for cell in range(NUM_BOARD):
        if s.fd_owner[cell] >= 0:
            s.cell_built[cell] = 1
    return err


# --- the text board ---------------------------------------------------------------------------
_CAPTION = re.compile(r"\((-?\d+),(-?\d+)\)|start \d")


def map_captions(text: str) -> dict[str, tuple[int, int]]:
    """Each field's name printed under it on the text map (``(q,r)``, ``start i``) -> its
    line and the column of its middle."""
    out = {}
    for i, line in enumerate(text.split("\n\n")[0].splitlines()):
        for m in _CAPTION.finditer(line):
            out[m.group(0)] = (i, m.start() + (len(m.group(0)) - 1) // 2)
    return out


def glyph_above(text: str, caption: str) -> str:
    """What the map shows on the field named ``caption`` (the line above its name)."""
    line, centre = map_captions(text)[caption]
    row = text.splitlines()[line - 1]
    return row[max(0, centre - 3) : centre + 4].strip()


def check_text_board(env: Any, seed: int, steps: int, figure: str) -> int:
    """Random legal steps of ``env`` (a raw Paths of Destiny env); at every state the text
    board must: stay within 100 columns; name on the map every field (``(q,r)``, ``start
    i``) a legal action names; show each player's seat digit on the field it stands on (and
    the wandering figure, whose corridor is the record's ``figure`` field, as ``G``/``g``);
    carry the key and the six direction names. Checked
    once: the map's directions are the ones their names say. Returns the states checked."""
    from labyrinth_env.core.grid import HEX_DELTAS
    from labyrinth_env.rulesets.hexenv import HEX_DIRECTION_NAMES, node_name

    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    text = env.render_text()
    captions = map_captions(text)
    assert len(captions) == NUM_CELLS, sorted(captions)
    centre = captions["(0,0)"]
    for d, name in enumerate(HEX_DIRECTION_NAMES):
        line, col = captions[f"({int(HEX_DELTAS[d, 0])},{int(HEX_DELTAS[d, 1])})"]
        assert ("north" in name) == (line < centre[0]) and ("south" in name) == (line > centre[0]), name
        assert ("east" in name) == (col > centre[1]) and ("west" in name) == (col < centre[1]), name
    checked = 0
    for _ in range(steps):
        s = env.record
        text = env.render_text()
        assert max(len(x) for x in text.splitlines()) <= 100
        assert "key:" in text and all(name in text for name in HEX_DIRECTION_NAMES)
        captions = map_captions(text)
        for a in env.legal_actions():
            name = env.action_to_str(a)
            for m in _CAPTION.finditer(name.replace("start field", "start")):
                assert m.group(0) in captions, (name, m.group(0))
        for p in range(int(s["num_players"])):
            if s["position"][p] >= 0:
                where = node_name(int(s["position"][p])).split("/")[0]
                shown = glyph_above(text, where)
                assert str(p) in shown.split(" ")[-1] or shown.endswith("*"), (p, where, shown)
        if s[figure] >= 0:
            where = node_name(int(s[figure])).split("/")[0]
            assert "G" in glyph_above(text, where).upper(), (figure, where, text)
        checked += 1
        if int(s["outcome"]) != 0:
            break
        legal = env.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    return checked
