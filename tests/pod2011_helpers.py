"""Set-up helpers for the Paths of Destiny 2011 scenario tests.

A ``Scenario`` starts a real game (the ruleset's batch module ``init_one``; 2 and 5 players
choose their start fields first, which ``Scenario`` does for them, seat i on start field
``fields[i]``) and then edits the state record to build a position: board fields laid with
``K.set_tile`` (taken out of the pile, so the 30 fields stay conserved), players put on
corridor nodes, life / stun / crystal / keys / traps set, the next Guard card or trap
chosen, and the dice forced.

Dice: every die of the kernel is one ``randint(rng, 6)`` draw, and ``s.rng[0]`` is the whole
generator state. ``rng_for_dice(*faces)`` finds a generator state whose next dice show
``faces`` (an int: that face; None: any), ``rng_for_rolls(*totals)`` one whose next 2d6
totals match (an int, a ``(lo, hi)`` pair or None). ``Scenario.force(action, predicate)``
is the general form: it tries generator states on copies of the game, steps ``action`` and
keeps the first for which ``predicate(copy_record, events)`` holds.

Board reference: the centre is cell 18, direction 0 is (+1, 0), 1 (+1, -1), 2 (0, -1),
3 (-1, 0), 4 (-1, +1), 5 (0, +1); key field i is ``HEX_CORNERS[i]`` (21, 3, 0, 15, 33, 36)
and its start field is cell ``37 + i``. ``line(i)`` is the row of cells from the centre out
to key field i (``line(0) == [18, 19, 20, 21]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from hex_helpers import HexScenario, key_node_of, node, search_rolls
from numba import njit

from labyrinth_env import get_spec
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.grid import HEX_CENTER, HEX_CORNERS, ROTATE_HEX
from labyrinth_env.core.rng import randint, seed_state
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011.env import raw_env

B = get_spec("paths_of_destiny_2011_v6").loops

MC = K.MC
CENTER = int(HEX_CENTER)
CENTER_NODE = CENTER * MC
KEY_CELLS = [int(c) for c in HEX_CORNERS]
DEFAULT_FIELDS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4), 6: (0, 1, 2, 3, 4, 5)}


# --- geometry -------------------------------------------------------------------------------
def neighbor(cell: int, d: int) -> int:
    return int(K.NEIGHBORS[cell, d])


def line(i: int, length: int = 4) -> list[int]:
    out = [CENTER]
    for _ in range(length - 1):
        out.append(neighbor(out[-1], i))
    return out


def start_node_of(i: int) -> int:
    return (K.START_CELL + i) * MC


def dirs_mask(dirs: str) -> int:
    mask = 0
    for ch in dirs:
        mask |= 1 << int(ch)
    return mask


# --- board fields ---------------------------------------------------------------------------
def tile_corridors(tile: int) -> list[tuple[int, int]]:
    n = int(C.TILE_NUM_CORRIDORS[tile])
    return [(int(C.TILE_CORRIDOR_MASK[tile, k]), int(C.TILE_CORRIDOR_LEVEL[tile, k])) for k in range(n)]


def _spec(corridor: str | tuple[str, int]) -> tuple[int, int | None]:
    if isinstance(corridor, str):
        return dirs_mask(corridor), None
    dirs, level = corridor
    return dirs_mask(dirs), level


def fit(tile: int, corridors: Sequence[str | tuple[str, int]]) -> tuple[int, list[int]] | None:
    """A rotation of ``tile`` whose corridors are exactly ``corridors`` and, per wanted
    corridor, the tile's corridor index k."""
    want = [_spec(c) for c in corridors]
    have = tile_corridors(tile)
    if len(have) != len(want):
        return None
    for rot in range(6):
        ks: list[int] = []
        for mask, level in want:
            found = -1
            for k, (m, lev) in enumerate(have):
                if k not in ks and int(ROTATE_HEX[m, rot]) == mask and (level is None or level == lev):
                    found = k
                    break
            if found < 0:
                break
            ks.append(found)
        if len(ks) == len(want):
            return rot, ks
    return None


def tiles_fitting(corridors: Sequence[str | tuple[str, int]]) -> list[int]:
    return [t for t in range(C.NUM_NORMAL_TILES) if fit(t, corridors) is not None]


# --- dice -----------------------------------------------------------------------------------
@njit(cache=True)
def _search_dice(lo: np.ndarray, hi: np.ndarray, first: int, tries: int) -> int:
    rng = np.empty(1, dtype=np.uint64)
    for i in range(first, first + tries):
        rng[0] = seed_state(np.uint64(i))
        ok = True
        for j in range(lo.shape[0]):
            f = randint(rng, 6) + 1
            if f < lo[j] or f > hi[j]:
                ok = False
                break
        if ok:
            return i
    return -1


def rng_for_dice(*faces: int | tuple[int, int] | None) -> np.uint64:
    """A generator state whose next dice show ``faces`` (int, (lo, hi) or None)."""
    lo = np.array([1 if f is None else (f if isinstance(f, int) else f[0]) for f in faces], dtype=np.int64)
    hi = np.array([6 if f is None else (f if isinstance(f, int) else f[1]) for f in faces], dtype=np.int64)
    i = _search_dice(lo, hi, 1, 50_000_000)
    if i < 0:
        raise ValueError(f"no generator state found for dice {faces}")
    return seed_state(np.uint64(i))


def rng_for_rolls(*specs: int | tuple[int, int] | None) -> np.uint64:
    """A generator state whose next 2d6 totals match ``specs``."""
    lo = np.array([2 if s is None else (s if isinstance(s, int) else s[0]) for s in specs], dtype=np.int64)
    hi = np.array([12 if s is None else (s if isinstance(s, int) else s[1]) for s in specs], dtype=np.int64)
    i = search_rolls(lo, hi, 1, 50_000_000)
    if i < 0:
        raise ValueError(f"no generator state found for rolls {specs}")
    return seed_state(np.uint64(i))


def options_vector(**options: Any) -> np.ndarray:
    return raw_env(**options).options_vector()


def new_game(seed: int = 1, fields: Sequence[int] | None = None, **options: Any) -> tuple[np.ndarray, np.void]:
    """A game set up and seated (the first-player throws kept, choosing ``fields`` for 2 and
    5 players)."""
    options.setdefault("num_players", 2)
    n = options["num_players"]
    states = new_states(K, 1)
    B.init_one(states, np.uint64(seed), options_vector(**options))
    s = states[0]
    fields = DEFAULT_FIELDS[n] if fields is None else fields
    while int(s["decision"]) in (K.D_START, K.D_REROLL):
        if int(s["decision"]) == K.D_REROLL:  # the first-player throw kept: crystals stay up
            assert K.step(s, K.A_KEEP)
            continue
        who = int(s["decider"])
        assert K.step(s, K.A_START_FIELD + fields[who])
    return states, s


# --- the scenario ---------------------------------------------------------------------------
class Scenario(HexScenario):
    """One game state to edit into a position, then play actions on.

    ``Scenario(num_players=2)`` starts and seats a real game and, with ``fresh=True``, hands a
    fresh round to seat 0 (2 actions, the Guard not moved, nothing being resolved) with every
    player on its start field. The board holds only the printed fields until a test lays some.
    """

    K = K
    C = C

    def __init__(self, seed: int = 1, fresh: bool = True, fields: Sequence[int] | None = None, **options: Any):
        options.setdefault("num_players", 2)
        self.states, self.s = new_game(seed, fields, **options)
        self.reserved: set[int] = set()
        if fresh:
            self.fresh_turn(0)

    # --- the round -------------------------------------------------------------------------
    def fresh_turn(self, seat: int = 0, turn: int | None = None) -> Scenario:
        s = self.s
        s["seat"] = seat
        if turn is not None:
            s["turn"] = turn
        s["actions_left"] = C.ACTIONS_PER_TURN
        s["guard_used"] = 0
        s["decision"] = K.D_MAIN
        s["decider"] = seat
        s["ex_active"] = 0
        s["ck_kind"] = K.CK_NONE
        s["guard_steps"] = 0
        s["guard_checks"] = 0
        s["num_events"] = 0
        return self

    # --- the board -------------------------------------------------------------------------
    def _take_from_pool(self, tile: int) -> None:
        s = self.s
        n = int(s["tile_pool_len"])
        pool = [int(t) for t in s["tile_pool"][:n]]
        if tile in pool:
            pool.remove(tile)
            s["tile_pool"][: n - 1] = pool
            s["tile_pool"][n - 1] = tile
            s["tile_pool_len"] = n - 1

    def lay(self, cell: int, *corridors: str | tuple[str, int], tile: int | None = None) -> list[int]:
        """Lay a board field on ``cell`` whose corridors have exactly the edges given
        (``"03"`` or ``("03", C.BRIDGE)``), preferring fields still in the pile; returns the
        node of each corridor, in the order given."""
        if tile is None:
            pool = set(int(t) for t in self.s["tile_pool"][: int(self.s["tile_pool_len"])])
            cands = tiles_fitting(corridors)
            if not cands:
                raise ValueError(f"no field has exactly the corridors {corridors}")
            cands.sort(key=lambda t: (t in self.reserved, t not in pool, t))
            tile = cands[0]
        found = fit(tile, corridors)
        assert found is not None
        rot, ks = found
        self.set_tile(cell, tile, rot)
        return [node(cell, k) for k in ks]

    def lay_line(self, i: int, upto: int = 3) -> list[int]:
        """Straight corridors from the centre towards key field ``i`` on the cells between."""
        cells = line(i)
        dirs = f"{i}{(i + 3) % 6}"
        out = []
        for c in cells[1:upto]:
            out += self.lay(c, dirs)
        return out

    def bridge(self, cell: int, over: str = "03", under: str = "14") -> tuple[int, int]:
        """A bridge field on ``cell``: returns (bridge node, under node)."""
        b, u = self.lay(cell, (over, C.BRIDGE), (under, C.UNDER))
        return b, u

    def next_tile(self, tile: int) -> None:
        s = self.s
        n = int(s["tile_pool_len"])
        pool = [int(t) for t in s["tile_pool"][:n]]
        assert tile in pool
        pool.remove(tile)
        pool.append(tile)
        s["tile_pool"][:n] = pool
        self.reserved.add(tile)

    # --- traps -----------------------------------------------------------------------------
    def trap_token_of(self, trap_type: int) -> int:
        s = self.s
        n = int(s["trap_pool_len"])
        pool = [int(t) for t in s["trap_pool"][:n]]
        for t in pool:
            if int(C.TRAP_TOKENS[t]) == trap_type:
                pool.remove(t)
                s["trap_pool"][: n - 1] = pool
                s["trap_pool"][n - 1] = t
                s["trap_pool_len"] = n - 1
                return t
        raise ValueError(f"no {C.TRAP_NAMES[trap_type]} token left")

    def place_trap(self, at_node: int, name: str, face_up: bool = False, failed: bool = False) -> int:
        t = self.trap_token_of(C.TRAP_NAMES.index(name))
        self.s["node_trap"][at_node] = t
        self.s["trap_up"][at_node] = 1 if face_up or failed else 0
        self.s["trap_failed"][at_node] = 1 if failed else 0
        return t

    def next_trap(self, name: str) -> None:
        s = self.s
        ty = C.TRAP_NAMES.index(name)
        n = int(s["trap_pool_len"])
        for i in range(n - 1, -1, -1):
            if int(C.TRAP_TOKENS[int(s["trap_pool"][i])]) == ty:
                s["trap_pool"][i], s["trap_pool"][n - 1] = s["trap_pool"][n - 1], s["trap_pool"][i]
                return
        raise ValueError(f"no {name} token left")

    # --- keys and players ----------------------------------------------------------------------
    def give_key(self, seat: int, key: int) -> None:
        self.s["key_holder"][key] = seat
        self.s["key_node"][key] = -1
        self.s["key_touched"][key] |= 1 << seat

    def place_key(self, key: int, at_node: int, touched: int = 0) -> None:
        self.s["key_holder"][key] = -1
        self.s["key_node"][key] = at_node
        self.s["key_touched"][key] = touched

    def key_of(self, seat: int) -> int:
        return int(K.own_key_node(self.s, seat))

    # --- the Guard -----------------------------------------------------------------------------
    def guard(self, at_node: int, came_from: int = -1, from_turn: int = -10, asleep: bool = False) -> None:
        s = self.s
        s["guard_node"] = at_node
        s["guard_from"] = came_from
        s["guard_from_turn"] = from_turn
        s["guard_asleep"] = 1 if asleep else 0

    def next_guard_card(self, kind: int, steps: int = 0) -> int:
        s = self.s
        pos = int(s["guard_pos"])
        if pos >= K.NUM_GUARD_CARDS:
            pos = 0
            s["guard_pos"] = 0
        for i in range(pos, K.NUM_GUARD_CARDS):
            card = int(s["guard_deck"][i])
            if int(C.GUARD_CARD_KIND[card]) == kind and int(C.GUARD_CARD_STEPS[card]) == steps:
                s["guard_deck"][i], s["guard_deck"][pos] = s["guard_deck"][pos], s["guard_deck"][i]
                return card
        raise ValueError("no such Guard card left in the deck")

    # --- dice ------------------------------------------------------------------------------------
    def dice(self, *faces: int | tuple[int, int] | None) -> Scenario:
        self.s["rng"][0] = rng_for_dice(*faces)
        return self

    def rolls(self, *specs: int | tuple[int, int] | None) -> Scenario:
        self.s["rng"][0] = rng_for_rolls(*specs)
        return self

    # --- reading and playing -------------------------------------------------------------------
    def offset(self, frm: int, to: int) -> int:
        return (to - frm) % int(self.s["num_players"])


def east(*characters: str, line: bool = True) -> Scenario:
    """A game of these characters (seat order), the fields of line 0 laid (``lay_line``),
    the Guard far off at key field 2 and no fate crystals: the skill tests' start."""
    sc = Scenario(num_players=len(characters), characters=list(characters))
    if line:
        sc.lay_line(0)
    sc.guard(key_node_of(2))
    for p in range(len(characters)):
        sc.set(p, crystal=0)
    return sc
