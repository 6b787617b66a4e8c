"""Set-up helpers for the Paths of Destiny 3e scenario tests.

A ``Scenario`` starts a real game with ``B.init_one`` (the ruleset's batch module) and then edits the state record
directly to build a position: tiles laid with ``K.set_tile`` (taken out of the tile pool,
so the 37 tiles stay conserved), characters put on corridor nodes, life / stun / crystal
/ keys / items / traps set, the next Golem card, event, tile or trap token chosen, and the
dice forced.

Dice: ``s.rng[0]`` is the whole generator state. ``rng_for_rolls(*specs)`` finds a
generator state whose next 2d6 totals match ``specs`` (an int: exactly that total; a
``(lo, hi)`` pair: a total in that range; ``None``: anything), so a test can say
``sc.rolls(8)`` before a risky jump. ``Scenario.force(action, predicate)`` is the general
form: it tries generator states on copies of the game, steps ``action`` and keeps the
first state for which ``predicate(copy_record, events)`` holds (use it when other draws,
like a shuffle, come between the dice).

Board reference (axial (q, r) -> cell, see ``labyrinth_env.core.grid.HEX_CELLS``): the
centre is cell 18; direction 0 is (+1, 0), 1 (+1, -1), 2 (0, -1), 3 (-1, 0), 4 (-1, +1),
5 (0, +1); key space i is the corner ``HEX_CORNERS[i]`` (21, 3, 0, 15, 33, 36) and its
starting space is cell ``37 + i``. ``line(i)`` is the straight row of cells from the
centre out to key space i (e.g. ``line(0) == [18, 19, 20, 21]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from hex_helpers import Event, HexScenario, key_node_of, node, search_rolls

from labyrinth_env import get_spec
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.grid import HEX_CENTER, HEX_CORNERS, ROTATE_HEX
from labyrinth_env.core.rng import roll_2d6, seed_state
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_3e.env import raw_env

B = get_spec("paths_of_destiny_3e_v3").loops  # the ruleset's entry points and batched loops

MC = K.MC
CENTER = int(HEX_CENTER)
KEY_CELLS = [int(c) for c in HEX_CORNERS]


# --- geometry -------------------------------------------------------------------------------
def start_cell(i: int) -> int:
    """The starting space beyond key space ``i``."""
    return K.START_CELL + i


def neighbor(cell: int, d: int) -> int:
    """The cell next to ``cell`` in direction ``d`` (starting spaces included), or -1."""
    return int(K.NEIGHBORS[cell, d])


def line(i: int, length: int = 4) -> list[int]:
    """The cells from the centre straight out in direction ``i`` (the last is key space i)."""
    out = [CENTER]
    for _ in range(length - 1):
        out.append(neighbor(out[-1], i))
    return out


def start_node_of(i: int) -> int:
    return start_cell(i) * MC


def dirs_mask(dirs: str) -> int:
    return C._m(dirs)


def ev(kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> Event:
    return (kind, seat, a, b, c, d)


def trap_check(seat: int, trap: int, fails: int, dice: Sequence[int], modifier: int = 0) -> Event:
    """A Trap Check's event: the failed rolls of ``len(dice)``, then what the table saw for
    the log: each roll's two dice and the seat's modifier (``K.ROLL_BITS`` apiece)."""
    shown = sum(d << (K.ROLL_BITS * i) for i, d in enumerate(dice))
    shown |= (modifier + K.MODIFIER_BIAS) << (K.ROLL_BITS * K.MAX_TRAP_ROLLS)
    return ev(K.EV_TRAP_CHECK, seat, trap, fails, len(dice), shown)


# --- tiles ----------------------------------------------------------------------------------
def tile_corridors(tile: int) -> list[tuple[int, int]]:
    """(base mask, level) of each corridor of ``tile``."""
    n = int(C.TILE_NUM_CORRIDORS[tile])
    return [(int(C.TILE_CORRIDOR_MASK[tile, k]), int(C.TILE_CORRIDOR_LEVEL[tile, k])) for k in range(n)]


def _spec(corridor: str | tuple[str, int]) -> tuple[int, int | None]:
    if isinstance(corridor, str):
        return dirs_mask(corridor), None
    dirs, level = corridor
    return dirs_mask(dirs), level


def fit(tile: int, corridors: Sequence[str | tuple[str, int]]) -> tuple[int, list[int]] | None:
    """A rotation of ``tile`` whose corridors are exactly ``corridors`` (each ``"03"`` or
    ``("03", C.BRIDGE)``), and for each wanted corridor the tile's corridor index k."""
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


def tile_named(name: str) -> int:
    return C.TILE_NAMES.index(name)


# --- dice -----------------------------------------------------------------------------------
RollSpec = int | tuple[int, int] | None


def rng_for_rolls(*specs: RollSpec, first: int = 1) -> np.uint64:
    """A generator state (for ``s.rng[0]``) whose next 2d6 totals match ``specs``."""
    lo = np.array([2 if s is None else (s if isinstance(s, int) else s[0]) for s in specs], dtype=np.int64)
    hi = np.array([12 if s is None else (s if isinstance(s, int) else s[1]) for s in specs], dtype=np.int64)
    i = search_rolls(lo, hi, first, 50_000_000)
    if i < 0:
        raise ValueError(f"no generator state found for rolls {specs}")
    return seed_state(np.uint64(i))


def rolls_from(rng_value: np.uint64, count: int) -> list[int]:
    """The next ``count`` 2d6 totals a generator state will give (for checking)."""
    rng = np.array([rng_value], dtype=np.uint64)
    return [int(roll_2d6(rng)) for _ in range(count)]


def options_vector(**options: Any) -> np.ndarray:
    """The kernel options vector for env options (validated by the env, as ``make`` does)."""
    return raw_env(**options).options_vector()


def new_game(seed: int = 1, **options: Any) -> tuple[np.ndarray, np.void]:
    """A real game; two players on the standard board unless ``two_player_variant=True`` is
    asked (the scenarios' geometry is the standard board's; the env's default for two
    players is the page-15 board), without characters unless ``characters=`` names them."""
    options.setdefault("num_players", 2)
    options.setdefault("two_player_variant", False)
    options.setdefault("characters", "none")  # the base game unless a test deals characters
    states = new_states(K, 1)
    B.init_one(states, np.uint64(seed), options_vector(**options))
    return states, states[0]


# --- the scenario ---------------------------------------------------------------------------
class Scenario(HexScenario):
    """One game state to edit into a position, then play actions on.

    ``Scenario(num_players=2)`` starts a real game and, with ``fresh=True`` (the default),
    hands a fresh turn to seat 0 (2 actions, nothing used, nothing being resolved, no
    pending checks) with every character on its starting space. The board holds only the
    printed spaces (central space, key spaces, starting spaces) until a test lays tiles.
    """

    K = K
    C = C

    def __init__(self, seed: int = 1, fresh: bool = True, **options: Any) -> None:
        options.setdefault("num_players", 2)
        self.states, self.s = new_game(seed, **options)
        self.reserved: set[int] = set()  # tiles that next_tile() put on top: lay() avoids them
        if fresh:
            self.fresh_turn(0)

    # --- the turn --------------------------------------------------------------------------
    def fresh_turn(self, seat: int = 0, turn: int | None = None) -> Scenario:
        s = self.s
        s["seat"] = seat
        if turn is not None:
            s["turn"] = turn
        s["actions_left"] = C.ACTIONS_PER_TURN
        s["golem_used"] = 0
        s["event_used"] = 0
        s["exchanged"] = 0
        if "declined" in s.dtype.names:
            s["declined"] = 0
        s["decision"] = K.D_MAIN
        s["decider"] = seat
        s["depth"] = 0
        s["ck_kind"] = K.CK_NONE
        s["golem_steps"] = 0
        s["golem_checks"] = 0
        s["dying"] = 0
        s["choices_left"] = 0
        s["num_events"] = 0
        return self

    def decide(self, decision: int, decider: int) -> Scenario:
        self.s["decision"] = decision
        self.s["decider"] = decider
        return self

    # --- the board -------------------------------------------------------------------------
    def _take_from_pool(self, tile: int) -> None:
        s = self.s
        n = int(s["tile_pool_len"])
        pool = [int(t) for t in s["tile_pool"][:n]]
        if tile in pool:
            pool.remove(tile)
            s["tile_pool"][: n - 1] = pool
            s["tile_pool"][n - 1] = tile  # parked beyond the pool's length
            s["tile_pool_len"] = n - 1

    def lay(self, cell: int, *corridors: str | tuple[str, int], tile: int | None = None) -> list[int]:
        """Lay a normal tile on ``cell`` whose corridors have exactly the edges given
        (``"03"`` or ``("03", C.BRIDGE)``), preferring tiles still in the pool, not put on
        top by ``next_tile`` and without icons (a tile already on the board is reused only
        when no other fits); returns the node of each corridor, in the order given."""
        if tile is None:
            pool = set(int(t) for t in self.s["tile_pool"][: int(self.s["tile_pool_len"])])
            cands = tiles_fitting(corridors)
            if not cands:
                raise ValueError(f"no tile has exactly the corridors {corridors}")
            cands.sort(key=lambda t: (t in self.reserved, t not in pool, int((C.TILE_CORRIDOR_ICON[t] != 0).sum()), t))
            tile = cands[0]
        found = fit(tile, corridors)
        assert found is not None, f"tile {C.TILE_NAMES[tile]} cannot show {corridors}"
        rot, ks = found
        self.set_tile(cell, tile, rot)
        return [node(cell, k) for k in ks]

    def lay_line(self, i: int, upto: int = 3) -> list[int]:
        """Straight corridors from the centre out towards key space ``i``: on the ``upto - 1``
        cells between them (a line of ground nodes joining centre and key space i)."""
        cells = line(i)
        dirs = f"{i}{(i + 3) % 6}"
        out = []
        for c in cells[1:upto]:
            out += self.lay(c, dirs)
        return out

    def clear_cell(self, cell: int) -> None:
        """Take the tile off ``cell`` (back on top of the pool)."""
        s = self.s
        tile = int(s["cell_tile"][cell])
        K.clear_cell(s, cell)
        if 0 <= tile < C.NUM_NORMAL_TILES:
            n = int(s["tile_pool_len"])
            pool = [int(t) for t in s["tile_pool"][:n] if t != tile] + [tile]
            s["tile_pool"][: len(pool)] = pool
            s["tile_pool_len"] = len(pool)

    def next_tile(self, tile: int) -> None:
        """Make ``tile`` (in the pool) the top of the Labyrinth pool."""
        s = self.s
        n = int(s["tile_pool_len"])
        pool = [int(t) for t in s["tile_pool"][:n]]
        assert tile in pool, f"tile {tile} is not in the pool"
        pool.remove(tile)
        pool.append(tile)
        s["tile_pool"][:n] = pool
        self.reserved.add(tile)

    def pool_tiles(self) -> list[int]:
        """The Labyrinth pool, bottom first (the top is the last)."""
        return [int(t) for t in self.s["tile_pool"][: int(self.s["tile_pool_len"])]]

    # --- tokens ----------------------------------------------------------------------------
    def trap_token_of(self, trap_type: int) -> int:
        """A token of ``trap_type`` still in the trap pool (taken out of it)."""
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
        raise ValueError(f"no {C.TRAP_NAMES[trap_type]} token left in the pool")

    def place_trap(self, at_node: int, trap_type: int, face_up: bool = False) -> int:
        """A trap token of ``trap_type`` on ``at_node``; returns the token."""
        t = self.trap_token_of(trap_type)
        self.s["node_trap"][at_node] = t
        self.s["trap_up"][at_node] = 1 if face_up else 0
        return t

    def next_trap(self, trap_type: int) -> None:
        """Make a token of ``trap_type`` the top of the trap pool (the next one drawn)."""
        s = self.s
        n = int(s["trap_pool_len"])
        for i in range(n - 1, -1, -1):
            if int(C.TRAP_TOKENS[int(s["trap_pool"][i])]) == trap_type:
                s["trap_pool"][i], s["trap_pool"][n - 1] = s["trap_pool"][n - 1], s["trap_pool"][i]
                return
        raise ValueError(f"no {C.TRAP_NAMES[trap_type]} token left in the pool")

    def _take_item(self, item: int) -> None:
        s = self.s
        n = int(s["item_pool_len"])
        pool = [int(i) for i in s["item_pool"][:n]]
        if item in pool:
            pool.remove(item)
            s["item_pool"][: n - 1] = pool
            s["item_pool"][n - 1] = item
            s["item_pool_len"] = n - 1
        for p in range(K.NUM_SEATS):
            for j in range(2):
                assert int(s["items"][p, j]) != item, f"item {item} is carried by seat {p}"

    def place_item(self, item: int, at_node: int) -> None:
        self._take_item(item)
        self.s["item_node"][item] = at_node

    def next_item(self, item: int) -> None:
        """Make ``item`` (in the item pool) the next one drawn."""
        s = self.s
        n = int(s["item_pool_len"])
        pool = [int(i) for i in s["item_pool"][:n]]
        assert item in pool
        pool.remove(item)
        pool.append(item)
        s["item_pool"][:n] = pool

    def give_items(self, seat: int, *items: int) -> None:
        s = self.s
        s["items"][seat] = (-1, -1)
        for j, it in enumerate(items):
            self._take_item(it)
            s["item_node"][it] = -1
            s["items"][seat, j] = it

    def give_key(self, seat: int, key: int) -> None:
        self.s["key_holder"][key] = seat
        self.s["key_node"][key] = -1

    def place_key(self, key: int, at_node: int, dropped_by: int = -1) -> None:
        self.s["key_holder"][key] = -1
        self.s["key_node"][key] = at_node
        self.s["key_dropped_by"][key] = dropped_by

    # --- characters -------------------------------------------------------------------------
    def key_of(self, seat: int) -> int:
        """The key-space node in front of ``seat``'s starting space."""
        return key_node_of(int(self.s["seat_start"][seat]))

    # --- the Golem and the decks -------------------------------------------------------------
    def golem(self, at_node: int, came_from: int | Sequence[int] = -1, from_turn: int = -10) -> None:
        """The Golem on ``at_node``; ``came_from`` the corridor it left last (or every
        corridor of a move, last one last) in turn ``from_turn``."""
        s = self.s
        trail = [came_from] if isinstance(came_from, int) else list(came_from)
        trail = [x for x in trail if x >= 0]
        s["golem_node"] = at_node
        s["golem_from"] = trail[-1] if trail else -1
        s["golem_from_turn"] = from_turn
        if "golem_trail" in s.dtype.names:  # v1 (the helpers also run on v0, to show a test fails there)
            s["golem_trail_len"] = len(trail)
            for i, x in enumerate(trail):
                s["golem_trail"][i] = x
                s["golem_trail_turn"][i] = from_turn

    def next_golem_card(self, kind: int, steps: int = 0) -> int:
        """Make the next Golem card one of ``kind`` (with ``steps`` for a move card)."""
        s = self.s
        pos = int(s["golem_pos"])
        if pos >= K.NUM_GOLEM_CARDS:
            pos = 0
            s["golem_pos"] = 0
        for i in range(pos, K.NUM_GOLEM_CARDS):
            card = int(s["golem_deck"][i])
            if int(C.GOLEM_CARD_KIND[card]) == kind and int(C.GOLEM_CARD_STEPS[card]) == steps:
                s["golem_deck"][i], s["golem_deck"][pos] = s["golem_deck"][pos], s["golem_deck"][i]
                return card
        raise ValueError("no such Golem card left in the deck")

    def next_event(self, event: int) -> None:
        """Make ``event`` the next card of the event deck (Annihilation only if it is next)."""
        s = self.s
        pos = int(s["event_pos"])
        for i in range(pos, K.NUM_EVENTS):
            if int(s["event_deck"][i]) == event:
                s["event_deck"][i], s["event_deck"][pos] = s["event_deck"][pos], s["event_deck"][i]
                return
        raise ValueError(f"event {event} is not left in the deck")

    def set_event(self, event: int) -> None:
        """The long-lasting effect in play (as if ``event`` had just been triggered)."""
        self.s["current_event"] = event

    # --- dice --------------------------------------------------------------------------------
    def rolls(self, *specs: RollSpec) -> Scenario:
        """The next 2d6 totals (see ``rng_for_rolls``)."""
        self.s["rng"][0] = rng_for_rolls(*specs)
        return self

    # --- reading and playing -------------------------------------------------------------------
    def place(self, cell: int, rot: int) -> list[Event]:
        return self.step(K.A_PLACE + cell * 6 + rot)

    def golem_dir(self, d: int) -> list[Event]:
        return self.step(K.A_GOLEM_DIR + d)

    def to_act(self) -> int:
        return int(K.to_act(self.s))
