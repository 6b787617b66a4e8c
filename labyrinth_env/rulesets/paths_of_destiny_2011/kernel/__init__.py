"""Paths of Destiny (2011 edition) kernel: the base game as numba functions over one state
record (``STATE_DTYPE``), split by decision family; this package gives the kernel
contract (``labyrinth_env.core.contract``) and dispatches by the pending decision.

| module | what |
|---|---|
| ``tables`` | sizes, tables, options, actions, decision, throw and event codes, the record, the observation's layout |
| ``queries`` | the own key field, the keys held and liftable, past the obstacles, moving a piece, seat offsets |
| ``life`` | Life, stun, death, the start field's restoring; Rest |
| ``entering`` | a player placed in a corridor, the entry to explore, an ordinary move |
| ``traps`` | Set a Trap, the trap's throw (entering or leaving) and its effect |
| ``moving`` | Move (door traps first), jump down, come down, climb up |
| ``keys`` | lifting a key, taking a stunned player's key (free actions) |
| ``fights`` | Attack, killing a stunned player, the encounter and its declarations, the fight's throws |
| ``guard`` | Move the Guard, its steps, meeting the Guard |
| ``building`` | Build, where a field may go, placing the drawn field |
| ``throws`` | a throw's repeat offer and outcome, the repeat (the fate crystal), Regenerate |
| ``exploring`` | the steps of an entry into a corridor |
| ``turn`` | the action decision, the win, the round passing on, ``advance`` |
| ``seating`` | the start fields, fixed or chosen (decision) |
| ``observe`` | the observation |
| ``illusion`` | the Illusionist's face-down fields: building one (decision), turning it face up (decision) |
| ``timeloop`` | the Assassin's Time Loop: the players' state kept before his action, brought back |
| ``enslavement`` | the Mistress of Golems' Enslavement: a player moved by the round's Guard card |
| ``foundation`` | the Architect's Foundation: the drawn field put back for the next one |
| ``tracking`` | the Head Hunter's Tracking: a face-down trap next to him turned face up |

The turn (the rulebook's "round") is a sequence of decisions. What is being resolved lives
in the state: the entry into a corridor (``ex_*``: the Guard, the trap, the encounter with
the players there, step by step), the throw in progress (``ck_*``: a jump, a Guard meeting,
a trap, a fight, waiting perhaps for a fate-crystal decision), the Guard's steps left and
its queued meetings. ``turn.advance`` carries on from there once a decision is made, so
every step is a pure function of the record and the action.

The hex board, tile rotation, reachability and dice are shared with the 3rd edition
through ``labyrinth_env.core`` (``hexboard``, ``pod``, ``grid``, ``corridors``, ``rng``).
Re-exported for env.py, picture.py, the heuristic and the tests (``K.<name>``): the
constants of ``tables``, and the functions imported with ``noqa: F401``.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexboard, hexsearch, pod
from labyrinth_env.core.contract import (  # noqa: F401
    clear_mask,
    set_decision,
    start_record,
    take_decision,
    tally_unseen,
    to_act,
    winner_returns,
)
from labyrinth_env.core.hexboard import any_buildable, at_start, clear_cell, start_node  # noqa: F401
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import deal_shuffled, keys_held, shuffle_unknown  # noqa: F401

from .building import compute_placements, key_ways, lay_frame, place_field, reach_from_centre, set_tile, ways_open  # noqa: F401
from .enslavement import clear_slave
from .entrapment import choose_trap_order, clear_second_traps, trap_order_mask
from .fights import declare, declare_mask, entrant_declares, entrant_mask, occupant_declares, occupant_mask
from .foundation import A_FOUNDATION, foundation_mask, lay_foundation
from .guard import guard_dir_mask, guard_options, steer_guard  # noqa: F401
from .illusion import clear_illusion, lay_face_down, uncover_mask
from .observe import observe  # noqa: F401
from .queries import move_target, own_key_node, past_players, past_trap, pickable_key, set_position  # noqa: F401
from .rite import clear_rite, rite_mask, rite_send
from .seating import choose_start, seat_players, start_field_mask, throw_for_first  # noqa: F401
from .skills import (
    character_mask,
    choose_which_trap,
    drafting,
    setup_characters,
    take_character,
    theft_mask,
    try_theft,
    which_trap_mask,
)
from .tables import *  # noqa: F403 (every constant of the kernel: K.<name>)
from .tables import (
    A_PLACE,
    A_SKILL,
    CENTER_CELL,
    CENTER_NODE,
    CK_NONE,
    D_CHARACTER,
    D_DECLARE,
    D_ENTRANT,
    D_FACE_DOWN,
    D_GUARD_DIR,
    D_MAIN,
    D_OCCUPANT,
    D_PLACE,
    D_REROLL,
    D_RITE,
    D_START,
    D_THEFT,
    D_TRAP_ORDER,
    D_UNCOVER,
    D_WHICH_TRAP,
    LIFE,
    NUM_ACTIONS,
    NUM_GUARD_CARDS,
    NUM_KEYS,
    NUM_NORMAL_TILES,
    NUM_TRAPS,
    OPT_CRYSTAL,
    TRUNCATED,
)
from .throws import repeat_mask, repeat_throw
from .timeloop import clear_loop
from .traps import trap_settable  # noqa: F401
from .turn import action_legal, action_mask, advance, do_action, finish_uncover


# --- the pending decision -------------------------------------------------------------------
@njit(cache=True)
def legal_mask(s, out) -> None:
    """The legal actions of the pending decision into ``out``: the round's actions, a start
    field, a placement, the Guard's direction, a repeated throw, the encounter's attacks."""
    if not clear_mask(s, out):
        return
    dec = s.decision
    if dec == D_START:
        start_field_mask(s, out)
    elif dec == D_PLACE:
        pod.placement_mask(s, out, A_PLACE)
        foundation_mask(s, out)
    elif dec == D_GUARD_DIR:
        guard_dir_mask(s, out)
    elif dec == D_REROLL:
        repeat_mask(out)
    elif dec == D_OCCUPANT:
        occupant_mask(out)
    elif dec == D_ENTRANT:
        entrant_mask(s, s.decider, out)
    elif dec == D_DECLARE:
        declare_mask(s, out)
    elif dec == D_CHARACTER:
        character_mask(s, out)
    elif dec == D_TRAP_ORDER:
        trap_order_mask(out)
    elif dec == D_THEFT:
        theft_mask(s, s.decider, out)
    elif dec == D_RITE:
        rite_mask(s, out)
    elif dec == D_FACE_DOWN:
        pod.placement_mask(s, out, A_PLACE)
    elif dec == D_UNCOVER:
        uncover_mask(s, out)
    elif dec == D_WHICH_TRAP:
        which_trap_mask(out)
    else:
        action_mask(s, out)


@njit(cache=True, inline="always")
def is_legal(s, action: int) -> bool:
    if not pod.in_play(s, action, NUM_ACTIONS):
        return False
    if s.decision == D_MAIN:  # the actions ask their own rules, not the whole mask
        return (action < A_PLACE or action >= A_SKILL) and action_legal(s, action)
    # a local mask: a rejected action must leave every byte of the state as it was
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    return mask[action] != 0


@njit(cache=True)
def step(s, action: int) -> bool:
    """Carry out one legal action of the pending decision, then everything that follows by
    itself. An illegal action returns False and changes nothing."""
    if not is_legal(s, action):
        return False
    dec = take_decision(s, D_MAIN)  # the decider stays until the next decision is set
    if dec == D_START:
        choose_start(s, s.decider, action)
    elif dec == D_PLACE:
        if action == A_FOUNDATION:
            lay_foundation(s)
        else:
            place_field(s, action)
    elif dec == D_GUARD_DIR:
        steer_guard(s, action)
    elif dec == D_REROLL:
        repeat_throw(s, s.decider, action)
    elif dec == D_OCCUPANT:
        occupant_declares(s, s.decider, action)
    elif dec == D_ENTRANT:
        entrant_declares(s, s.decider, action)
    elif dec == D_DECLARE:
        declare(s, s.decider, action)
    elif dec == D_CHARACTER:
        take_character(s, s.decider, action)
        if not drafting(s):  # every card taken: the throw for the first player (l.80)
            throw_for_first(s)
    elif dec == D_TRAP_ORDER:
        choose_trap_order(s, action)
    elif dec == D_THEFT:
        try_theft(s, s.decider, action)
    elif dec == D_RITE:
        rite_send(s, action)
    elif dec == D_FACE_DOWN:
        lay_face_down(s, s.decider, action)
    elif dec == D_UNCOVER:
        finish_uncover(s, s.decider, action)
    elif dec == D_WHICH_TRAP:
        choose_which_trap(s, s.decider, action)
    else:
        do_action(s, action)
    advance(s)  # from the main decision on: nothing if another decision is pending
    return True


returns = winner_returns


# --- a new game ----------------------------------------------------------------------------------
@njit(cache=True)
def init_board(s) -> None:
    """The central field, the key fields with their keys, the frame; the piles and the Guard
    cards shuffled; the Guard awake on the central field."""
    lay_frame(s)
    s.trap_failed[:] = 0
    pod.lay_keys(s)
    s.key_touched[:] = 0
    s.fight_lost = 0
    s.trap_fell = 0
    s.left_start = 0
    s.took_key[:] = 0
    pod.deal_piles(s, NUM_NORMAL_TILES, NUM_TRAPS)
    deal_shuffled(s.rng, s.guard_deck, NUM_GUARD_CARDS)
    s.guard_pos = 0
    s.guard_node = CENTER_NODE
    s.guard_from = -1
    s.guard_from_turn = -10
    s.guard_asleep = 0
    s.guard_steps = 0
    s.guard_ignore = 0
    s.guard_checks = 0
    s.cell_builder[:] = -1


@njit(cache=True)
def init_resolution(s) -> None:
    """Every field of what is being resolved, so a reused record starts byte-identical."""
    pod.clear_scratch(s, CK_NONE)
    s.ex_active = 0
    s.ex_seat = 0
    s.ex_node = 0
    s.ex_from = 0
    s.ex_mode = 0
    s.ex_ignore_trap = 0
    s.ex_step = 0
    s.ex_phase = 0
    s.ex_bonus = 0
    s.ex_target = -1
    s.ex_declared = 0
    s.ex_join = 0
    s.ex_vs = 0
    s.ck_att = 0
    s.ck_def = 0
    s.ck_asked = 0
    s.ck_enc = 0
    s.ck_trap = 0
    s.ck_mode = 0
    s.ck_node = 0
    s.ck_diff = 0
    s.first_roll[:] = 0
    s.first_tied = 0
    s.move_dir = 0
    s.blade = 0
    s.ex_theft = 0
    s.ex_second = 0
    clear_rite(s)
    s.disarmed = 0
    s.disarm_turn[:] = 0
    clear_loop(s)
    clear_illusion(s)
    s.mirror_used = 0
    s.shortcut_used = 0
    clear_slave(s)
    s.foundation_used = 0
    s.tracking_used = 0
    s.actions_left = 0
    s.guard_used = 0


@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    n = s.num_players
    s.ask_crystal = s.options[OPT_CRYSTAL]
    init_board(s)
    init_resolution(s)
    pod.ready_players(s, n, LIFE)
    s.seat_start[:] = -1
    s.position[:] = -1
    s.choose_order[:] = -1
    s.choose_pos = 0  # nobody seated yet: ``seating.first_outcome`` seats them
    s.first_player = -1
    s.first_tied = (1 << n) - 1
    setup_characters(s)
    clear_second_traps(s)
    if not drafting(s):
        throw_for_first(s)  # settled (crystals offered, ties thrown again, seats) by advance
    set_decision(s, D_MAIN, 0)
    advance(s)


# --- for search and training -----------------------------------------------------------------------
@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample what ``seat`` cannot know: the order of the board-field and trap piles and
    of the Guard cards not yet used, which trap lies under each face-down token (first and
    second tokens and the pile dealt as one set: nobody can tell them apart), and the RNG.
    Each unknown set is sorted before it is shuffled, so the result depends only on what
    ``seat`` knows and ``seed``."""
    rng = pod.resample_tiles(s, seed)
    shuffle_unknown(rng, s.guard_deck[s.guard_pos :])
    hexboard.redeal_face_down(s, rng)  # the Illusionist's face-down fields, with the pile
    pod.resample_traps_and_dice(s, rng, s.node_trap2, s.trap2_up)  # the Head Hunter's second tokens too


@njit(cache=True)
def unseen(s, seat: int, out) -> None:
    """The contract's account of what ``seat`` cannot see: the sets ``determinize``
    resamples, which no seat has seen (the same for every seat and ``NO_SEAT``): the tile
    pile with the face-down fields, the Guard cards not yet used, the face-down trap tokens
    (first and second) with the trap pile. The dice's future is not counted."""
    out[:] = 0.0
    tally_unseen(out, hexboard.unseen_tiles(s))
    tally_unseen(out, s.guard_deck[s.guard_pos :])
    tally_unseen(out, pod.unseen_traps(s, s.node_trap2, s.trap2_up))


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): 0.5 for holding a key, minus 0.05 per
    step (as the crow flies) to the goal: the nearest key the seat may lift while keyless,
    the central field once holding one. 0 once the game is won; a truncated game keeps its
    position's value (as the 3rd edition's)."""
    allowed = 0
    for k in range(NUM_KEYS):
        if pickable_key(s, seat, k):
            allowed |= 1 << k
    return hexboard.key_race_potential(s, seat, CENTER_CELL, allowed, TRUNCATED)


@njit(cache=True)
def progress(s, seat: int) -> float:
    """The self-play learner's progress: ``shaping_potential`` with the steps counted along
    the cheapest path instead of as the crow flies (``hexsearch.key_race_progress``)."""
    allowed = 0
    for k in range(NUM_KEYS):
        if pickable_key(s, seat, k):
            allowed |= 1 << k
    return hexsearch.key_race_progress(s, seat, CENTER_CELL * MC, allowed, TRUNCATED)  # noqa: F405
