"""Set-up helpers for the Labyrinthos scenario tests.

A ``Scenario`` starts a real game (heroes chosen: seat p takes hero ``heroes[p]``), then
edits the state record into a position: tiles revealed on cells (swapped with the cell that
held them, so the 49 tiles stay a permutation), heroes and the monster put on cells, walls,
wounds, keys (taken from the key piles), cards (taken from the deck), action tokens (taken
from the supply) set, and the dice forced. By default it starts seat 0's turn after the
first round (the monster on the Door tile), with nothing being resolved.

Dice: every die of the kernel (the Minotaur die, the Blood die) is one ``randint(rng, 6)``
draw giving a face index 0-5 (``C.MINOTAUR_FACE_*``, ``C.BLOOD_FACES``), and ``s.rng[0]``
is the whole generator state. ``rng_for_dice(*faces)`` finds a generator state whose next
draws are ``faces`` (None: any).

Cells are ``row * 7 + col``; ``cell(r, c)``; the Door tile is ``DOOR`` (r3c3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from labyrinth_env import get_spec
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.grid import mask_from_directions
from labyrinth_env.core.rng import randint, seed_state
from labyrinth_env.rulesets.labyrinthos import components as C
from labyrinth_env.rulesets.labyrinthos import kernel as K
from labyrinth_env.rulesets.labyrinthos.env import raw_env

B = get_spec("labyrinthos_v2").loops
Event = tuple[int, ...]
DOOR = int(K.DOOR_CELL)
N, E, S, W = 0, 1, 2, 3


def cell(r: int, c: int) -> int:
    return r * K.SIZE + c


def edge(a: int, d: int) -> int:
    return int(K.EDGE_OF[a, d])


def events(s: np.void) -> list[Event]:
    n = min(int(s["num_events"]), s["events"].shape[0])
    return [tuple(int(x) for x in row) for row in s["events"][:n]]


def events_of(evs: list[Event], kind: int) -> list[Event]:
    return [e for e in evs if e[0] == kind]


@njit(cache=True)
def _search_dice(faces: np.ndarray, first: int, tries: int) -> int:
    rng = np.empty(1, dtype=np.uint64)
    for i in range(first, first + tries):
        rng[0] = seed_state(np.uint64(i))
        ok = True
        for j in range(faces.shape[0]):
            f = randint(rng, 6)
            if faces[j] >= 0 and f != faces[j]:
                ok = False
                break
        if ok:
            return i
    return -1


def rng_for_dice(*faces: int | None) -> np.uint64:
    """A generator state whose next d6 draws are the face indices ``faces`` (None: any)."""
    arr = np.array([-1 if f is None else f for f in faces], dtype=np.int64)
    i = _search_dice(arr, 1, 50_000_000)
    if i < 0:
        raise ValueError(f"no generator state found for dice {faces}")
    return seed_state(np.uint64(i))


def options_vector(**options: Any) -> np.ndarray:
    return raw_env(**options).options_vector()


def face_of(kind: int, hooves: int = 0) -> int:
    for f in range(6):
        if C.MINOTAUR_FACE_KIND[f] == kind and C.MINOTAUR_FACE_HOOVES[f] == hooves:
            return f
    raise ValueError("no such Minotaur die face")


def blood_face(wounds: int) -> int:
    return int(np.flatnonzero(wounds == C.BLOOD_FACES)[0])


class Scenario:
    def __init__(
        self,
        seed: int = 1,
        heroes: Sequence[int] | None = None,
        fresh: bool = True,
        **options: Any,
    ) -> None:
        options.setdefault("num_players", 2)
        self.n = options["num_players"]
        self.states = new_states(K, 1)
        B.init_one(self.states, np.uint64(seed), options_vector(**options))
        self.s = self.states[0]
        heroes = list(range(self.n)) if heroes is None else list(heroes)
        while int(self.s["decision"]) == K.D_HERO:
            who = int(self.s["decider"])
            assert K.step(self.s, K.A_HERO + heroes[who])
        self.used: set[int] = set()
        if fresh:
            self.fresh_turn(0)

    # --- the turn ------------------------------------------------------------------------------
    def fresh_turn(self, seat: int = 0, first_round: bool = False) -> Scenario:
        s = self.s
        s["seat"] = seat
        s["turn"] = 0 if first_round else self.n
        s["monster_cell"] = -1 if first_round else DOOR
        s["phase"] = K.PH_MAIN
        s["decision"] = K.D_MAIN
        s["decider"] = seat
        s["num_tasks"] = 0
        s["m_active"] = 0
        s["m_points"] = 0
        s["m_hunt"] = -1
        s["num_events"] = 0
        return self

    # --- the maze --------------------------------------------------------------------------------
    def tile_with(self, shape: str, symbol: int = C.SYM_NONE, kind: int | None = None, colour: int = -1) -> int:
        for t in range(C.NUM_TILES):
            if t in self.used or C.TILE_SHAPE[t] != shape or C.TILE_SYMBOL[t] != symbol:
                continue
            if kind is not None and C.TILE_KIND[t] != kind:
                continue
            if colour >= 0 and C.TILE_COLOUR[t] != colour:
                continue
            if t == C.DOOR_TILE:
                continue
            return t
        raise ValueError(f"no unused {shape} tile with symbol {C.SYMBOL_NAMES[symbol]}")

    def _unused(self, shape: str, symbol: int) -> int | None:
        try:
            return self.tile_with(shape, symbol, kind=C.KIND_MAZE)
        except ValueError:
            return None

    def reveal(
        self, at: int, dirs: str = "NESW", symbol: int = C.SYM_NONE, tile: int | None = None, up: bool = True
    ) -> int:
        """Put a tile with exactly the pathways ``dirs`` (and ``symbol``) on ``at``, face up."""
        s = self.s
        mask = mask_from_directions(dirs)
        if tile is None:
            shape = {1: "dead end", 3: "T", 4: "cross"}.get(len(dirs))
            if shape is None:
                shape = "straight" if dirs in ("NS", "EW", "SN", "WE") else "corner"
            try:
                tile = self.tile_with(shape, symbol)
            except ValueError:
                # not enough tiles of that shape: a plain maze tile of another shape, its
                # pathways drawn as asked (the kernel reads only the cell's mask)
                tile = next(
                    t
                    for shp in ("cross", "T", "corner", "straight", "dead end")
                    for t in [self._unused(shp, symbol)]
                    if t is not None
                )
        held = int(np.flatnonzero(s["cell_tile"] == tile)[0])
        if held != at:  # swap the two tiles (and their faces)
            s["cell_tile"][held] = s["cell_tile"][at]
            s["cell_mask"][held] = C.TILE_MASK[int(s["cell_tile"][held])]
            s["cell_up"][held], s["cell_up"][at] = s["cell_up"][at], s["cell_up"][held]
        s["cell_tile"][at] = tile
        s["cell_mask"][at] = mask
        s["cell_up"][at] = 1 if up else 0
        if not up:
            s["cell_mask"][at] = C.TILE_MASK[tile]
        self.used.add(tile)
        return tile

    def hide_tile(self, at: int) -> None:
        """Turn the tile on ``at`` face down."""
        self.s["cell_up"][at] = 0
        self.s["cell_mask"][at] = C.TILE_MASK[int(self.s["cell_tile"][at])]

    def wall(self, at: int, d: int) -> int:
        e = edge(at, d)
        assert not self.s["wall"][e]
        self.s["wall"][e] = 1
        self.s["wall_supply"] -= 1
        return e

    # --- pieces ----------------------------------------------------------------------------------
    def put(self, seat: int, at: int) -> Scenario:
        self.s["position"][seat] = at
        return self

    def monster(self, at: int) -> Scenario:
        self.s["monster_cell"] = at
        return self

    def tokens(self, seat: int, feet: int, hands: int) -> Scenario:
        s = self.s
        s["feet_supply"] += int(s["feet"][seat]) - feet
        s["hand_supply"] += int(s["hands"][seat]) - hands
        s["feet"][seat] = feet
        s["hands"][seat] = hands
        assert s["feet_supply"] >= 0 and s["hand_supply"] >= 0
        return self

    def wound(self, seat: int, *slots: int) -> Scenario:
        for slot in slots:
            assert not self.s["slot_wound"][seat, slot]
            self.s["slot_wound"][seat, slot] = 1
            self.s["wound_supply"] -= 1
        return self

    def give_key(self, seat: int, colour: int, action: int, slot: int) -> int:
        """The token with key ``action``; if that token is of another colour than ``colour``,
        the token of ``colour`` in the same place of its pile (any key of that colour)."""
        k = int(action)  # token k carries key action k
        if C.KEY_TOKEN_COLOUR[k] != colour:
            k = colour * C.KEY_TOKENS_PER_COLOUR + k % C.KEY_TOKENS_PER_COLOUR
        assert self.s["key_pile"][k]
        self.s["key_pile"][k] = 0
        self.s["slot_key"][seat, slot] = k
        return k

    def clear_hands(self) -> Scenario:
        """Every hand back into the deck (so tests give exactly the cards they need)."""
        s = self.s
        n = int(s["deck_len"])
        for p in range(self.n):
            for t in range(C.NUM_CARD_TYPES):
                for _ in range(int(s["hand"][p, t])):
                    s["deck"][n] = t
                    n += 1
                s["hand"][p, t] = 0
        s["deck_len"] = n
        return self

    def give_card(self, seat: int, card: int) -> Scenario:
        s = self.s
        n = int(s["deck_len"])
        deck = [int(x) for x in s["deck"][:n]]
        deck.remove(card)
        s["deck"][: n - 1] = deck
        s["deck"][n - 1] = -1
        s["deck_len"] = n - 1
        s["hand"][seat, card] += 1
        return self

    def next_card(self, card: int) -> Scenario:
        """The next card drawn will be ``card``."""
        s = self.s
        n = int(s["deck_len"])
        deck = [int(x) for x in s["deck"][:n]]
        deck.remove(card)
        deck.append(card)
        s["deck"][:n] = deck
        return self

    def dice(self, *faces: int | None) -> Scenario:
        self.s["rng"][0] = rng_for_dice(*faces)
        return self

    # --- reading and playing ---------------------------------------------------------------------
    @property
    def decision(self) -> int:
        return int(self.s["decision"])

    @property
    def decider(self) -> int:
        return int(self.s["decider"])

    def mask(self) -> np.ndarray:
        out = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
        K.legal_mask(self.s, out)
        return out.astype(bool)

    def legal(self, action: int) -> bool:
        return bool(self.mask()[action])

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.mask())]

    def step(self, action: int) -> list[Event]:
        assert self.legal(action), f"action {action} is not legal in decision {K.DECISIONS[self.decision]}"
        assert K.step(self.s, action)
        return events(self.s)

    def steps(self, *actions: int) -> list[Event]:
        out: list[Event] = []
        for a in actions:
            out += self.step(a)
        return out


def issue19_figures(games: int = 100, monster: str = "minotaur") -> dict[int, dict[str, int]]:
    """The figures docs/rules/labyrinthos.md quotes for issue 19, per player count, from
    heuristic-only games (seeds ``1000 n + g``): steps, player turns, games won, Door-tile
    placements, last movement points spent on the starting tile (with a move off open, and
    of those the ones that kept the monster there), reaction prompts and those to a holder.
    ``python -c "import sys; sys.path.insert(0, 'tests'); import labyrinthos_helpers as h; print(h.issue19_figures())"``
    """
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    out: dict[int, dict[str, int]] = {}
    for n in (2, 3, 4):
        f = dict.fromkeys(("games", "won", "steps", "turns", "door", "last", "last_open", "kept", "asked", "held"), 0)
        for g in range(games):
            states = new_states(K, 1)
            B.init_one(states, np.uint64(1000 * n + g), options_vector(num_players=n, monster=monster))
            s = states[0]
            while int(s["outcome"]) == K.RUNNING:
                dec = int(s["decision"])
                a = int(B.heuristic_one(states, mask))
                at_start = int(s["monster_cell"]) == int(s["m_start"]) and int(s["m_hunt"]) < 0
                if dec == K.D_MONSTER and int(s["m_points"]) == 1 and at_start:
                    f["last"] += 1
                    if mask[K.A_CELL : K.A_CELL + K.NUM_CELLS].any():
                        f["last_open"] += 1
                        f["kept"] += a >= K.A_EXPLORE
                if dec in (K.D_CANCEL, K.D_DODGE):
                    f["asked"] += 1
                    f["held"] += bool(mask[K.A_YES] or mask[K.A_CARD : K.A_CARD + C.NUM_CARD_TYPES].any())
                s["num_events"] = 0
                assert K.step(s, a)
                f["steps"] += 1
                for e in events(s):
                    f["door"] += e[0] == K.EV_MONSTER_MOVE and e[4] == K.MONSTER_HOW_DOOR
                    f["turns"] += e[0] == K.EV_TURN
            f["games"] += 1
            f["won"] += int(s["outcome"]) == K.WON
        out[n] = f
    return out
