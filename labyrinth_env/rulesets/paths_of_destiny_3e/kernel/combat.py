"""Combat: the Attack activity, the free attacks of exploring (the character that entered
first, then, if it declines, the occupants it did not fight, in random order), the Combat
Check (ties roll again, a stunned defender loses without rolling) and the winner's push
of the loser out of the central space."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexboard
from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import occupants
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import roll_2d6, shuffle
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .abilities import combat_bonus, consecrated, dismember, steal
from .life import lose_life
from .moving import enter
from .queries import center_node, event_mod, item_sum
from .tables import (
    A_ATTACK,
    A_COUNTER,
    A_DECLINE,
    A_FREE_ATTACK,
    A_PUSH_DIR,
    CK_COMBAT,
    D_PUSH_DIR,
    EV_COMBAT,
    EV_PUSHED_OUT,
    ITEM_ATTACK,
    ITEM_DEFEND,
    MC,
    NEIGHBORS,
    NUM_BOARD_NODES,
    NUM_SEATS,
)


@njit(cache=True)
def can_fight(s, seat: int) -> bool:
    """Stunned characters may do nothing but rest, not even a free attack."""
    return s.stun[seat] == 0 and not (s.dying >> seat) & 1


# --- the Combat Check ------------------------------------------------------------------------
@njit(cache=True)
def combat_total(s, seat: int, attacking: bool) -> int:
    # the event's combat modifier goes to the attacker only: on both sides it would cancel
    bonus = combat_bonus(s, seat)
    if attacking:
        return roll_2d6(s.rng) + item_sum(s, seat, ITEM_ATTACK) + event_mod(s, C.LONG_COMBAT_MOD) + bonus
    return roll_2d6(s.rng) + item_sum(s, seat, ITEM_DEFEND) + bonus


@njit(cache=True)
def combat_loser(s) -> int:
    return s.ck_opp if s.ck_a > s.ck_b else s.ck_seat


@njit(cache=True)
def roll_combat(s, reroll_seat: int) -> None:
    """Roll (or reroll one side of) a combat; ties repeat both checks."""
    att, dfn = s.ck_seat, s.ck_opp
    if s.stun[dfn] > 0:  # a stunned character loses without rolling
        s.ck_a, s.ck_b = 1, 0
    else:
        if reroll_seat < 0 or reroll_seat == att:
            s.ck_a = combat_total(s, att, True)
        if reroll_seat < 0 or reroll_seat == dfn:
            s.ck_b = combat_total(s, dfn, False)
        while s.ck_a == s.ck_b:
            s.ck_a = combat_total(s, att, True)
            s.ck_b = combat_total(s, dfn, False)
    emit(s, EV_COMBAT, att, dfn, s.ck_a, s.ck_b)


@njit(cache=True)
def begin_combat(s, attacker: int, defender: int) -> None:
    """Roll the combat (``checks.settle_check`` offers the loser's reroll and applies the outcome)."""
    s.ck_kind = CK_COMBAT
    s.ck_seat = attacker
    s.ck_opp = defender
    s.fury_used = 0
    roll_combat(s, -1)


@njit(cache=True)
def combat_outcome(s) -> None:
    """The loser loses 1 Life (all against the War Sister); on the central space, alive,
    the winner pushes it out."""
    loser = combat_loser(s)
    winner = s.ck_opp if loser == s.ck_seat else s.ck_seat
    node = s.position[loser]
    steal(s, winner, loser)
    lose_life(s, loser, dismember(s, winner, loser))
    if node == center_node(s) and not (s.dying >> loser) & 1 and push_options(s, node) != 0:
        s.push_from = node
        s.ck_seat = loser
        set_decision(s, D_PUSH_DIR, winner)


# --- Attack (activity) -----------------------------------------------------------------------
@njit(cache=True)
def attack_legal(s, seat: int, off: int) -> bool:
    """The character ``off`` seats on stands on the attacker's corridor (not a consecrated one)."""
    if off >= s.num_players or consecrated(s, s.position[seat]):
        return False
    return s.position[(seat + off) % s.num_players] == s.position[seat]


@njit(cache=True)
def attack_mask(s, seat: int, out) -> None:
    n = s.num_players
    if consecrated(s, s.position[seat]):
        return
    for off in range(1, n):
        if s.position[(seat + off) % n] == s.position[seat]:
            out[A_ATTACK + off - 1] = 1


@njit(cache=True)
def attack(s, seat: int, action: int) -> None:
    begin_combat(s, seat, (seat + action - A_ATTACK + 1) % s.num_players)


# --- free attacks while exploring (decisions) ----------------------------------------------
@njit(cache=True)
def free_attack_mask(s, who: int, out) -> None:
    """The character that entered attacks an occupant it has not fought yet, or declines."""
    f = s.depth - 1
    node = s.ex_node[f]
    n = s.num_players
    out[A_DECLINE] = 1
    for off in range(1, n):
        p = (who + off) % n
        if s.position[p] == node and not (s.ex_done[f] >> p) & 1:
            out[A_FREE_ATTACK + off - 1] = 1


@njit(cache=True)
def free_attack(s, who: int, action: int) -> None:
    f = s.depth - 1
    if action == A_DECLINE:  # the occupants it did not fight may now attack it
        s.ex_phase[f] = 1
        explore_counter_order(s, f)
    else:
        target = (who + action - A_FREE_ATTACK + 1) % s.num_players
        s.ex_done[f] |= np.uint8(1 << target)
        begin_combat(s, who, target)


@njit(cache=True)
def explore_counter_order(s, f: int) -> None:
    """The mover forgoes its free attacks: the occupants it has not fought may attack it,
    in random order."""
    node = s.ex_node[f]
    others = occupants(s, node, s.ex_seat[f]) & ~np.int64(s.ex_done[f])
    n = 0
    for p in range(s.num_players):
        if (others >> p) & 1:
            s.ex_order[f, n] = p
            n += 1
    for p in range(n, NUM_SEATS):
        s.ex_order[f, p] = -1
    shuffle(s.rng, s.ex_order[f], n)


@njit(cache=True)
def counter_mask(out) -> None:
    out[A_DECLINE] = 1
    out[A_COUNTER] = 1


@njit(cache=True)
def counter_attack(s, who: int, action: int) -> None:
    """An occupant attacks the character that entered, or lets it be."""
    f = s.depth - 1
    s.ex_done[f] |= np.uint8(1 << who)
    if action == A_COUNTER:
        begin_combat(s, who, s.ex_seat[f])


# --- the push out of the central space (decision) --------------------------------------------
@njit(cache=True)
def push_options(s, node: int) -> int:
    m = 0
    cell = node // MC
    for d in range(6):
        if (s.node_mask[node] >> d) & 1:
            other = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
            if other >= 0 and other < NUM_BOARD_NODES:
                m |= 1 << d
    return m


@njit(cache=True)
def push_mask(s, out) -> None:
    hexboard.mark_directions(out, A_PUSH_DIR, push_options(s, s.push_from))


@njit(cache=True)
def push_out(s, action: int) -> None:
    """The winner pushes the loser out along a corridor of its choice: the loser explores
    it, but picks nothing up."""
    loser = s.ck_seat
    d = action - A_PUSH_DIR
    target = corridor_across(s.node_mask, NEIGHBORS, s.push_from // MC, d, MC)
    emit(s, EV_PUSHED_OUT, loser, s.push_from, target)
    enter(s, loser, target, False)
