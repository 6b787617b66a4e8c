"""Paths of Destiny (3rd edition) kernel: the base game as numba functions over one state
record (``STATE_DTYPE``), split by decision family; this package gives the kernel
contract (``labyrinth_env.core.contract``) and dispatches by the pending decision.

| module | what |
|---|---|
| ``tables`` | sizes, tables, options, actions, decision, check and event codes, the record, the observation's layout |
| ``queries`` | where the central and key spaces lie, the Life cap, the event's and items' modifiers |
| ``items`` | the item pool, carried items, picking up (decision) |
| ``life`` | Life, stun, death; Rest and the Healing Potion; dropping an item, Life or stun (decisions) |
| ``moving`` | entering a corridor; Move, risky and safe jumps |
| ``traps`` | laying traps, Set a Trap, the Trap Check |
| ``combat`` | Attack, free attacks, the Combat Check, the push out of the central space |
| ``golem`` | Move the Golem, its steps, the Golem Check and the Scepter of Control |
| ``events`` | Trigger an Event and the event's target |
| ``building`` | Build, where a tile may go, placing the drawn tile |
| ``checks`` | a check's reroll offer and outcome, the reroll, Activate the Crystal, the War Sister's Fury |
| ``abilities`` | the characters: deal, draft, ability tokens, tile removal, Rebuild, Change, Fury, Terror |
| ``facedown`` | the Illusionist's face-down tiles: Illusion, entering one, its orientation (decision) |
| ``exploring`` | the five steps of exploring a corridor |
| ``turn`` | the activity decision, the win, the turn passing on, ``advance`` |
| ``observe`` | the observation |

The turn is a sequence of decisions. Resolving an activity can stop for a decision of
any seat (a reroll with the Crystal of Fate, the victim's choice of Poisoned Spears, a
free attack, the winner's push direction, ...). What is being resolved lives in the state
(the exploration stack, the check in progress, the Golem steps left, queued Golem checks
and deaths), and ``turn.advance`` carries on from there once the decision is made, so every
step is a pure function of the record and the action.
The package also re-exports what env.py, picture.py, the heuristic and the tests read as
``K.<name>``: every constant of ``tables`` and the functions imported with ``noqa: F401``.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexboard, hexsearch, kernel_common, pod
from labyrinth_env.core.contract import (  # noqa: F401
    clear_mask,
    set_decision,
    start_record,
    take_decision,
    tally_unseen,
    to_act,
    winner_returns,
)
from labyrinth_env.core.grid import HEX_CENTER
from labyrinth_env.core.hexboard import any_buildable, clear_cell, occupants, start_node  # noqa: F401
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import deal_shuffled, keys_held, shuffle_unknown  # noqa: F401

from .abilities import (  # noqa: F401
    abilities_blocked,
    change_character,
    choose_token,
    combat_bonus,
    consecrated,
    deal_characters,
    draft_mask,
    draft_next,
    draft_pick,
    fury_mask,
    give_character,
    golem_bonus,
    rebuild_target,
    remove_tile,
    token_order_mask,
)
from .building import buildable_cell, compute_placements, lay_frame, place_tile, set_tile, targets_connected  # noqa: F401
from .checks import reroll, reroll_mask, use_fury
from .combat import counter_attack, counter_mask, free_attack, free_attack_mask, push_mask, push_out
from .events import event_target_mask, strike_target
from .facedown import face_down_ahead, orient_mask, resample_face_down, reset_face_down  # noqa: F401
from .golem import golem_dir_mask, golem_options, scepter_mask, steer_golem, use_scepter  # noqa: F401
from .items import pick_up, pick_up_legal, pickable_key, pickup_mask  # noqa: F401
from .life import drop_and_die, drop_mask, life_or_stun_mask, lose_life, lose_life_or_take_stun  # noqa: F401
from .observe import observe  # noqa: F401
from .queries import at_start, center_node, event_mod, item_sum, max_life, move_target  # noqa: F401
from .tables import *  # noqa: F403 (every constant of the kernel: K.<name>)
from .tables import (
    A_FACE_DOWN,
    A_FURY,
    A_LAY_TOKEN,
    A_PLACE,
    CK_NONE,
    D_COUNTER,
    D_DRAFT,
    D_DROP_ITEM,
    D_EVENT_TARGET,
    D_FREE_ATTACK,
    D_FURY,
    D_GOLEM_DIR,
    D_LIFE_OR_STUN,
    D_MAIN,
    D_ORIENT,
    D_PICKUP,
    D_PLACE,
    D_PUSH_DIR,
    D_REROLL,
    D_SCEPTER,
    D_TOKEN_ORDER,
    EV_FIRST_PLAYER,
    LIFE,
    NUM_ACTIONS,
    NUM_BOARD,
    NUM_EVENTS,
    NUM_GOLEM_CARDS,
    NUM_ITEMS,
    NUM_KEYS,
    NUM_NORMAL_TILES,
    NUM_SEATS,
    NUM_TRAPS,
    OPT_CRYSTAL,
    OPT_VARIANT,
    SEATINGS,
    TRUNCATED,
    VARIANT_CENTER,
    VARIANT_SEATS,
)
from .turn import activity_legal, activity_mask, advance, do_activity, finish_reveal, start_turn


# --- the pending decision -------------------------------------------------------------------
@njit(cache=True)
def legal_mask(s, out) -> None:
    """Fill ``out`` with the legal actions of the pending decision: the activities, or the
    mask of the family that asked (a placement, the Golem's direction, a reroll, ...)."""
    if not clear_mask(s, out):
        return
    dec = s.decision
    if dec == D_PLACE:
        pod.placement_mask(s, out, A_PLACE)
    elif dec == D_GOLEM_DIR:
        golem_dir_mask(s, out)
    elif dec == D_REROLL:
        reroll_mask(out)
    elif dec == D_SCEPTER:
        scepter_mask(out)
    elif dec == D_LIFE_OR_STUN:
        life_or_stun_mask(out)
    elif dec == D_FREE_ATTACK:
        free_attack_mask(s, s.decider, out)
    elif dec == D_COUNTER:
        counter_mask(out)
    elif dec == D_PUSH_DIR:
        push_mask(s, out)
    elif dec == D_PICKUP:
        pickup_mask(s, s.decider, out)
    elif dec == D_EVENT_TARGET:
        event_target_mask(s, out)
    elif dec == D_DROP_ITEM:
        drop_mask(out)
    elif dec == D_FURY:
        fury_mask(out)
    elif dec == D_TOKEN_ORDER:
        token_order_mask(s, out)
    elif dec == D_DRAFT:
        draft_mask(s, out)
    elif dec == D_ORIENT:
        orient_mask(s, out)
    else:
        activity_mask(s, out)


@njit(cache=True, inline="always")
def is_legal(s, action: int) -> bool:
    if not pod.in_play(s, action, NUM_ACTIONS):
        return False
    if s.decision == D_MAIN:  # the activities ask their own rules, not the whole mask
        activity = action < A_PLACE or A_LAY_TOKEN <= action < A_FURY
        activity = activity or A_FACE_DOWN <= action < A_FACE_DOWN + NUM_BOARD
        return activity and activity_legal(s, action)
    # a local mask: a rejected action must leave every byte of the state as it was
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    return mask[action] != 0


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one legal action (an activity, or the answer to the decision a family asked
    for) and everything automatic after it. Returns False, changing nothing, if the
    action is not legal now."""
    who = s.decider
    if not is_legal(s, action):
        return False
    dec = take_decision(s, D_MAIN)
    if dec == D_PLACE:
        place_tile(s, action)
    elif dec == D_GOLEM_DIR:
        steer_golem(s, action)
    elif dec == D_REROLL:
        reroll(s, who, action)
    elif dec == D_SCEPTER:
        use_scepter(s, who, action)
    elif dec == D_LIFE_OR_STUN:
        lose_life_or_take_stun(s, who, action)
    elif dec == D_FREE_ATTACK:
        free_attack(s, who, action)
    elif dec == D_COUNTER:
        counter_attack(s, who, action)
    elif dec == D_PUSH_DIR:
        push_out(s, action)
    elif dec == D_PICKUP:
        pick_up(s, action)
    elif dec == D_EVENT_TARGET:
        strike_target(s, who, action)
    elif dec == D_DROP_ITEM:
        drop_and_die(s, who, action)
    elif dec == D_FURY:
        use_fury(s, who, action)
    elif dec == D_TOKEN_ORDER:
        choose_token(s, action)
    elif dec == D_DRAFT:
        if draft_pick(s, who, action):
            start_turn(s)  # the last pick: the first turn begins
    elif dec == D_ORIENT:
        finish_reveal(s, who, action)
    else:
        do_activity(s, action)
    advance(s)  # from the main decision on: nothing if another decision is pending
    return True


returns = winner_returns


# --- a new game --------------------------------------------------------------------------------
@njit(cache=True)
def init_board(s) -> None:
    """The central space (moved in the 2-player variant), the key spaces with their keys,
    the frame; the pools and decks shuffled (Annihilation stays at the bottom); the Golem
    on the central space."""
    s.center_cell = VARIANT_CENTER if s.variant else HEX_CENTER
    lay_frame(s)
    pod.lay_keys(s)
    s.key_dropped_by[:] = -1
    pod.deal_piles(s, NUM_NORMAL_TILES, NUM_TRAPS)
    s.item_node[:] = -1
    deal_shuffled(s.rng, s.item_pool, NUM_ITEMS)
    s.item_pool_len = NUM_ITEMS
    deal_shuffled(s.rng, s.golem_deck, NUM_GOLEM_CARDS)
    s.golem_pos = 0
    deal_shuffled(s.rng, s.event_deck, NUM_EVENTS - 1)
    s.event_deck[NUM_EVENTS - 1] = NUM_EVENTS - 1  # Annihilation stays at the bottom
    s.event_pos = 0
    s.current_event = -1
    s.golem_node = center_node(s)
    s.golem_from = -1
    s.golem_from_turn = -10
    s.golem_trail[:] = 0
    s.golem_trail_turn[:] = 0
    s.golem_trail_len = 0
    reset_face_down(s)


@njit(cache=True)
def init_characters(s, n: int) -> None:
    """Each character on its starting space with 4 Life and an active Crystal, no items."""
    pod.ready_players(s, n, LIFE)
    for p in range(NUM_SEATS):
        s.items[p, 0] = -1
        s.items[p, 1] = -1
        s.character[p] = -1
        if p < n:
            s.seat_start[p] = VARIANT_SEATS[p] if s.variant else SEATINGS[n, p]
            s.position[p] = start_node(s, p)
        else:
            s.seat_start[p] = -1
            s.position[p] = -1


@njit(cache=True)
def init_resolution(s) -> None:
    """Every field of what is being resolved, so a reused record starts byte-identical."""
    pod.clear_scratch(s, CK_NONE)
    s.depth = 0
    s.ex_seat[:] = 0
    s.ex_node[:] = 0
    s.ex_from[:] = 0
    s.ex_step[:] = 0
    s.ex_pickup[:] = 0
    s.ex_ignore_trap[:] = 0
    s.ex_done[:] = 0
    s.ex_phase[:] = 0
    s.ex_order[:, :] = 0
    s.ex_tokens[:] = 0
    s.ck_opp = 0
    s.push_from = 0
    s.actions_left = 0
    s.golem_used = 0
    s.event_used = 0
    s.exchanged = 0
    s.declined = 0
    s.golem_steps = 0
    s.golem_checks = 0
    s.dying = 0
    s.choices_left = 0


@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    n = s.num_players
    # l.96: two players use the page-15 set-up (the option's False: the standard board)
    s.variant = s.options[OPT_VARIANT] if n == 2 else 0
    s.ask_crystal = s.options[OPT_CRYSTAL]
    init_board(s)
    init_characters(s, n)
    init_resolution(s)
    draft = deal_characters(s)  # setup step 9 (l.89)
    first = kernel_common.roll_for_first(s, n, EV_FIRST_PLAYER)
    s.seat = first
    if draft:  # seats pick in turn before the first turn (``abilities.draft_pick`` starts it)
        set_decision(s, D_DRAFT, draft_next(s))
        return
    start_turn(s)
    set_decision(s, D_MAIN, first)
    advance(s)


# --- for search and training ---------------------------------------------------------------------
@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample what ``seat`` cannot know: the order of the tile, trap and item pools and of
    the Golem and event decks (Annihilation stays last), and which trap lies under each
    face-down trap token (with the pool), and which tile each face-down tile of the
    Illusionist is (with the tile pool: no seat has seen one). Each unknown set is sorted before it is
    shuffled, so the result depends only on what ``seat`` knows and ``seed`` (searches that
    determinize cannot leak the true order)."""
    rng = pod.resample_tiles(s, seed)
    shuffle_unknown(rng, s.item_pool[: s.item_pool_len])
    shuffle_unknown(rng, s.golem_deck[s.golem_pos :])
    shuffle_unknown(rng, s.event_deck[s.event_pos : NUM_EVENTS - 1])
    resample_face_down(s, rng)
    pod.resample_traps_and_dice(s, rng, s.node_trap[:0], s.trap_up[:0])


@njit(cache=True)
def unseen(s, seat: int, out) -> None:
    """The contract's account of what ``seat`` cannot see: the sets ``determinize``
    resamples, which no seat has seen (the same for every seat and ``NO_SEAT``): the tile
    pool with the face-down tiles, the item pool, the Golem cards and the event cards not
    yet turned (Annihilation's place is known), the face-down trap tokens with the trap
    pool. The dice's future is not counted."""
    out[:] = 0.0
    tally_unseen(out, hexboard.unseen_tiles(s))
    tally_unseen(out, s.item_pool[: s.item_pool_len])
    tally_unseen(out, s.golem_deck[s.golem_pos :])
    tally_unseen(out, s.event_deck[s.event_pos : NUM_EVENTS - 1])
    tally_unseen(out, pod.unseen_traps(s, s.node_trap[:0], s.trap_up[:0]))


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): 0.5 for holding a key, minus 0.05 per
    step (as the crow flies) to the goal: the nearest key lying on another player's key
    space while keyless, the central space once holding one. 0 once the game is won, so
    the shaping of a decided game sums to -potential(start) and does not change which
    policies are best; a truncated game keeps its position's value."""
    allowed = ((1 << NUM_KEYS) - 1) & ~(1 << s.seat_start[seat]) if s.position[seat] >= 0 else 0
    return hexboard.key_race_potential(s, seat, s.center_cell, allowed, TRUNCATED)


@njit(cache=True)
def progress(s, seat: int) -> float:
    """The self-play learner's progress: ``shaping_potential`` with the steps counted along
    the cheapest path instead of as the crow flies (``hexsearch.key_race_progress``)."""
    allowed = ((1 << NUM_KEYS) - 1) & ~(1 << s.seat_start[seat]) if s.position[seat] >= 0 else 0
    return hexsearch.key_race_progress(s, seat, center_node(s), allowed, TRUNCATED)
