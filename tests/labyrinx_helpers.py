"""Set-up helpers for the Labyrinx tests.

``Scenario`` starts a real game (``init_one`` of the ruleset's batch module) and edits the
state record to build a position: cards laid on the table from wherever they are (so the
100 cards stay conserved), hands dealt from the draw pile, characters and their icons set,
treasures moved from the reserve, and the dice forced.

Dice: every die of the kernel is one ``randint(rng, 6)`` draw and ``s.rng[0]`` is the whole
generator state; ``rng_for_dice(*faces)`` finds a generator state whose next dice show
``faces`` (an int: that face; None: any).

Table reference (default 9x9): the exit space is cells (3,3), (3,4), (3,5) (``EXIT``), the pile
spaces (4,3)-(4,5); cell ``(r, c)`` is ``r * 13 + c``. Directions N, E, S, W = 0, 1, 2, 3.
``INVARIANTS`` and ``invariant_error`` check a state after every step of the random games.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

import labyrinth_env
from labyrinth_env import get_spec
from labyrinth_env.core.rng import randint, seed_state
from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import heuristic as H
from labyrinth_env.rulesets.labyrinx import kernel as K

B = get_spec("labyrinx_v1").loops
ENV_ID = "labyrinx_v1"
N, E, S, W = 0, 1, 2, 3


def cell(r: int, c: int) -> int:
    return r * K.MAXT + c


EXIT = cell(3, 3)


def kind_id(name: str) -> int:
    return C.KIND_NAMES.index(name)


def options(num_players: int = 2, **opts) -> np.ndarray:
    return labyrinth_env.raw_env(ENV_ID, num_players=num_players, **opts).options_vector()


# --- dice -----------------------------------------------------------------------------------------
@njit(cache=True)
def _dice_match(state: np.uint64, faces: np.ndarray) -> bool:
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = state
    for f in faces:
        v = randint(rng, 6) + 1
        if f > 0 and v != f:
            return False
    return True


@njit(cache=True)
def _find_rng(faces: np.ndarray, start: int) -> np.uint64:
    for k in range(start, start + 10_000_000):
        st = seed_state(np.uint64(k))
        if _dice_match(st, faces):
            return st
    return np.uint64(0)


def rng_for_dice(*faces: int | None, start: int = 1) -> np.uint64:
    arr = np.array([0 if f is None else f for f in faces], dtype=np.int64)
    st = _find_rng(arr, start)
    assert st != 0, faces
    return st


# --- scenarios ------------------------------------------------------------------------------------
class Scenario:
    """A game of ``num_players`` on a ``table_size`` table whose state the test edits.
    ``s`` is the record (a view into ``states``); ``step`` applies an action and returns the
    events it produced (tuples)."""

    def __init__(self, num_players: int = 2, seed: int = 0, **opts) -> None:
        opts.setdefault("max_turns", None)
        self.env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, **opts)
        self.env.reset(seed=seed)
        self.states = self.env._states
        self.s = self.states[0]

    # cards -----------------------------------------------------------------------------------
    def take_card(self, kind: str | int) -> int:
        """A card of ``kind`` taken out of the draw pile or discard pile (or a hand)."""
        k = kind_id(kind) if isinstance(kind, str) else kind
        s = self.s
        for i in range(int(s["deck_len"])):
            if C.CARD_KIND[s["deck"][i]] == k:
                card = int(s["deck"][i])
                n = int(s["deck_len"])
                s["deck"][i : n - 1] = s["deck"][i + 1 : n].copy()
                s["deck"][n - 1] = -1
                s["deck_len"] = n - 1
                return card
        for i in range(int(s["discard_len"])):
            if C.CARD_KIND[s["discard"][i]] == k:
                card = int(s["discard"][i])
                n = int(s["discard_len"])
                s["discard"][i : n - 1] = s["discard"][i + 1 : n].copy()
                s["discard"][n - 1] = -1
                s["discard_len"] = n - 1
                return card
        for p in range(K.NUM_SEATS):
            for i in range(int(s["hand_len"][p])):
                if C.CARD_KIND[s["hand"][p, i]] == k:
                    card = int(s["hand"][p, i])
                    self.remove_from_hand(p, i)
                    return card
        raise AssertionError(f"no free card of kind {kind!r}")

    def remove_from_hand(self, p: int, i: int) -> int:
        s = self.s
        n = int(s["hand_len"][p])
        card = int(s["hand"][p, i])
        s["hand"][p, i : n - 1] = s["hand"][p, i + 1 : n].copy()
        s["hand"][p, n - 1] = -1
        s["hand_len"][p] = n - 1
        return card

    def lay(self, r: int, c: int, kind: str, rot: int | None = 0, face_up: bool = True) -> int:
        """Put a card of ``kind`` on space (r, c) (face down: ``rot`` is ignored)."""
        s = self.s
        x = cell(r, c)
        assert s["cell_type"][x] == K.T_FREE and s["cell_card"][x] < 0
        card = self.take_card(kind)
        s["cell_card"][x] = card
        s["cell_up"][x] = 1 if face_up else 0
        s["cell_rot"][x] = rot if face_up else -1
        s["num_empty"] -= 1
        return x

    def fill(self, keep: int, avoid: Sequence[int] = ()) -> None:
        """Lay draw-pile cards face down on free spaces (from the table's last row up)
        until ``keep`` cards are left in the draw pile or the table is full."""
        s = self.s
        t = int(s["table"])
        for x in sorted((cell(r, c) for r in range(t) for c in range(t)), reverse=True):
            if s["deck_len"] <= keep:
                return
            if s["cell_type"][x] == K.T_FREE and s["cell_card"][x] < 0 and x not in avoid:
                s["deck_len"] -= 1
                s["cell_card"][x] = s["deck"][s["deck_len"]]
                s["deck"][s["deck_len"]] = -1
                s["cell_up"][x] = 0
                s["cell_rot"][x] = -1
                s["num_empty"] -= 1

    def set_hand(self, p: int, kinds: Sequence[str]) -> None:
        s = self.s
        while s["hand_len"][p] > 0:
            card = self.remove_from_hand(p, 0)
            s["deck"][s["deck_len"]] = card  # back on top of the draw pile
            s["deck_len"] += 1
        for k in kinds:
            card = self.take_card(k)
            s["hand"][p, s["hand_len"][p]] = card
            s["hand_len"][p] += 1

    def put_on_top(self, kind: str) -> None:
        """A card of ``kind`` on top of the draw pile."""
        s = self.s
        card = self.take_card(kind)
        s["deck"][s["deck_len"]] = card
        s["deck_len"] += 1

    def hand_kinds(self, p: int) -> list[str]:
        s = self.s
        return [C.KIND_NAMES[C.CARD_KIND[s["hand"][p, i]]] for i in range(int(s["hand_len"][p]))]

    # characters -----------------------------------------------------------------------------------
    def place(self, p: int, r: int, c: int) -> None:
        self.s["pos"][p] = cell(r, c)

    def character(self, p: int, name: str) -> None:
        """Give seat ``p`` the named character (swapping with whoever has it)."""
        s = self.s
        ch = C.CHARACTER_NAMES.index(name)
        for q in range(K.NUM_SEATS):
            if s["character"][q] == ch:
                s["character"][q] = s["character"][p]
        s["character"][p] = ch

    def give_treasure(self, p: int, n: int) -> None:
        s = self.s
        s["reserve"] -= n
        s["treasure"][p] += n

    def main(self, p: int, actions: int = 3) -> None:
        """Seat ``p``'s action phase, ``actions`` regular actions left."""
        s = self.s
        s["seat"] = p
        s["phase"] = K.PH_ACTION
        s["actions_left"] = actions
        s["regular_done"] = 0 if actions == 3 else 1
        s["decision"] = K.D_MAIN
        s["decider"] = p

    def dice(self, *faces: int | None) -> None:
        self.s["rng"][0] = rng_for_dice(*faces)

    # playing --------------------------------------------------------------------------------------
    def mask(self) -> np.ndarray:
        m = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
        B.refresh_one(self.states, m, np.zeros(K.NUM_SEATS))
        return m

    def legal(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.mask())]

    def step(self, action: int) -> list[tuple[int, ...]]:
        assert invariant_error(self.s) == 0, INVARIANTS.get(invariant_error(self.s))
        m = self.mask()
        assert m[action], f"{self.env.action_to_str(action)} is not legal; decision {self.decision()}"
        self.env.step(action)
        n = int(self.s["num_events"])
        return [tuple(int(x) for x in self.s["events"][i]) for i in range(n)]

    def decision(self) -> str:
        return K.DECISIONS[int(self.s["decision"])]

    def events_of(self, events, kind: int) -> list[tuple[int, ...]]:
        return [e for e in events if e[0] == kind]


# --- invariants -----------------------------------------------------------------------------------
INVARIANTS = {
    1: "a card is not in exactly one place (draw pile, discard pile, a hand, the table)",
    2: "treasures are not conserved (reserve + players + chests != 25) or negative",
    3: "a hand is over its limit at a turn's boundary, or over the slots",
    4: "a character stands neither on a face-up card nor in the exit space",
    5: "num_empty disagrees with the empty spaces",
    6: "a face-down card has a rotation, or a face-up card none outside its rotation decision",
    7: "the mask is all false while the game runs",
    8: "the pending decision's seat is not in play",
    9: "a defeated mark or a treasure lies on the wrong card",
    10: "a card lies outside the table's free spaces",
    11: "a player holds five treasures but the game runs",
    12: "actions left out of range in the action decision",
    13: "racers without the most treasures",
    14: "a face-down card is remembered by a seat not in play or a card is missing its kind",
    15: "something is still being resolved in the action decision",
    16: "a pile or hand keeps a card id past its end (a drawn or moved card left behind)",
    17: "the guaranteed end's counters are past their limits while the game runs",
    18: "a monster's movement begun has no steps left, or a movement flag without a movement",
}


@njit(cache=True)
def invariant_error(s) -> int:
    """0, or the code (``INVARIANTS``) of the first invariant ``s`` breaks."""
    e = card_error(s)
    if e == 0:
        e = table_error(s)
    if e == 0:
        e = turn_error(s)
    return e


@njit(cache=True)
def card_error(s) -> int:
    """Every card in one place (1), hands within their slots (3), the cards on the table
    face up or down as they should be (6), their marks and treasures (9), only on free
    spaces (10), nothing left past a pile's or a hand's end (16)."""
    n = s.num_players
    seen = np.zeros(K.NUM_CARDS, dtype=np.int64)
    for i in range(s.deck_len):
        seen[s.deck[i]] += 1
    for i in range(s.discard_len):
        seen[s.discard[i]] += 1
    for p in range(K.NUM_SEATS):
        if s.hand_len[p] > K.MAX_HAND or (p >= n and s.hand_len[p] != 0):
            return 3
        for i in range(s.hand_len[p]):
            seen[s.hand[p, i]] += 1
    for x in range(K.NUM_CELLS):
        card = s.cell_card[x]
        if card >= 0:
            if s.cell_type[x] != K.T_FREE:
                return 10
            seen[card] += 1
            pending = s.decision == K.D_ROTATE and s.pl_cell == x
            if s.cell_up[x] and s.cell_rot[x] < 0 and not pending:
                return 6
            if not s.cell_up[x] and s.cell_rot[x] >= 0:
                return 6
            icon = K.KIND_ICON[K.CARD_KIND[card]]
            if s.cell_beaten[x] and (icon < 0 or not s.cell_up[x]):
                return 9
            if s.cell_gold[x] and (icon != C.CHEST or not s.cell_up[x] or s.cell_gold[x] > 1):
                return 9
        elif s.cell_type[x] == K.T_FREE and (s.cell_gold[x] or s.cell_beaten[x]):
            return 9
    for c in range(K.NUM_CARDS):
        if seen[c] != 1:
            return 1
    for i in range(s.deck_len, K.NUM_CARDS):
        if s.deck[i] != -1:
            return 16
    for i in range(s.discard_len, K.NUM_CARDS):
        if s.discard[i] != -1:
            return 16
    for p in range(K.NUM_SEATS):
        for i in range(s.hand_len[p], K.MAX_HAND):
            if s.hand[p, i] != -1:
                return 16
    return 0


@njit(cache=True)
def table_error(s) -> int:
    """The count of empty spaces (5), the treasures kept (2), the characters on face-up
    cards or the exit (4)."""
    n = s.num_players
    empty = 0
    gold = 0
    for x in range(K.NUM_CELLS):
        if s.cell_card[x] >= 0:
            gold += s.cell_gold[x]
        elif s.cell_type[x] == K.T_FREE:
            empty += 1
    if empty != s.num_empty:
        return 5
    total = s.reserve + gold
    for p in range(n):
        if s.treasure[p] < 0:
            return 2
        total += s.treasure[p]
    if total != C.NUM_TREASURES or s.reserve < 0:
        return 2
    for p in range(n):
        x = s.pos[p]
        if x == s.exit0:
            continue
        if x < 0 or s.cell_type[x] != K.T_FREE or s.cell_card[x] < 0 or not s.cell_up[x]:
            return 4
    return 0


@njit(cache=True)
def turn_error(s) -> int:
    """The pending decision (``decision_error``); the memories of empty seats (14); while
    the game runs, the guaranteed end's counters (17) and the monster's movement (18)."""
    n = s.num_players
    if s.outcome == K.RUNNING:
        e = decision_error(s)
        if e != 0:
            return e
    for p in range(n, K.NUM_SEATS):
        for x in range(K.NUM_CELLS):
            if s.known[p, x]:
                return 14
    if s.outcome == K.RUNNING:
        if s.race_turns > C.RACE_TURN_LIMIT or s.turn_steps >= C.TURN_DECISION_LIMIT:
            return 17
        if (s.race_turns > 0) != (s.race != 0):
            return 17
        if s.decision == K.D_MONSTER and s.mv_kind != K.MV_MONSTER:
            return 18
        if s.decision == K.D_MONSTER and s.mv_begun and s.mv_steps <= 0:
            return 18
    return 0


@njit(cache=True)
def decision_error(s) -> int:
    """While the game runs: a legal action (7) of a seat in play (8), no winner yet (11),
    hands within their limit (3), the action decision's counters (12, 15), the racers (13)."""
    n = s.num_players
    m = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    K.legal_mask(s, m)
    if m.sum() == 0:
        return 7
    if s.decider < 0 or s.decider >= n:
        return 8
    if not s.race:
        for p in range(n):
            if s.treasure[p] >= C.WIN_TREASURES:
                return 11
    if s.decision == K.D_MAIN or s.decision == K.D_EXPAND:
        for p in range(n):
            if s.hand_len[p] > K.hand_limit(s, p):
                return 3
    if s.decision == K.D_MAIN:
        if s.actions_left < 1 or s.actions_left > K.ACTIONS:
            return 12
        if s.mv_kind != K.MV_NONE:
            return 15
    if s.race:
        best = 0
        for p in range(n):
            best = max(best, s.treasure[p])
        for p in range(n):
            if s.racer[p] and s.treasure[p] != best:
                return 13
    return 0


@njit(cache=True)
def random_games(states, opts, games: int, seed: int, out) -> None:
    """``games`` random games from seeds ``seed + g``, the invariants checked after every
    step. ``out``: games, steps, first error code, wins, truncations, failing game, failing
    step, five-treasure wins, races, max hand seen, table-full ends."""
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) * np.uint64(7919) + np.uint64(3)
    for g in range(games):
        K.init(s, np.uint64(seed + g), opts)
        steps = 0
        err = invariant_error(s)
        while s.outcome == K.RUNNING and err == 0 and steps < 200_000:
            a = B.random_legal_action(s, mask, rng)
            if not K.step(s, a):
                err = 99
                break
            steps += 1
            for i in range(s.num_events):
                if s.events[i, 0] == K.EV_WIN and s.events[i, 2] == K.WIN_FIVE:
                    out[7] += 1
                if s.events[i, 0] == K.EV_RACE:
                    out[8] += 1
                if s.events[i, 0] == K.EV_END_TRIGGER and s.events[i, 2] == K.END_TABLE:
                    out[10] += 1
            for p in range(s.num_players):
                out[9] = max(out[9], s.hand_len[p])
            err = invariant_error(s)
        if err == 0 and s.outcome == K.RUNNING:
            err = 98
        if err != 0:
            out[2] = err
            out[5] = g
            out[6] = steps
            return
        out[0] += 1
        out[1] += steps
        out[3] += 1 if s.outcome == K.WON else 0
        out[4] += 1 if s.outcome == K.TRUNCATED else 0


@njit(cache=True)
def heuristic_games(states, opts, seeds, heuristic_seats: int, rng_seed: int, out) -> None:
    """Games from ``seeds`` with the heuristic in the seats of the bit set ``heuristic_seats``
    and random legal actions (dice from ``rng_seed``) in the others, the invariants checked
    after every step. ``out``: games, wins, truncations, races, races won, first error code,
    most steps in a game, most turns of a race, wins of seat 0. (One loop for the tests'
    heuristic games, rather than ``loops.play_games`` too: each jitted loop links and emits
    the kernel's code once more.)"""
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(rng_seed)
    for g in range(seeds.shape[0]):
        K.init(s, seeds[g], opts)
        steps = 0
        while s.outcome == K.RUNNING and steps < 200_000:
            if (heuristic_seats >> s.decider) & 1:
                a = H.heuristic_action(s, mask)
            else:
                a = B.random_legal_action(s, mask, rng)
            if not K.step(s, a):
                out[5] = 99
                return
            steps += 1
            for i in range(s.num_events):
                if s.events[i, 0] == K.EV_RACE:
                    out[3] += 1
                if s.events[i, 0] == K.EV_WIN and s.events[i, 2] == K.WIN_RACE:
                    out[4] += 1
            err = invariant_error(s)
            if err != 0:
                out[5] = err
                return
        out[0] += 1
        out[1] += 1 if s.outcome == K.WON else 0
        out[2] += 1 if s.outcome == K.TRUNCATED else 0
        out[6] = max(out[6], steps)
        out[7] = max(out[7], s.race_turns)
        out[8] += 1 if s.outcome == K.WON and s.winner == 0 else 0
