"""Cards, hands and the discard pile: drawing (and the draw pile's refill), discarding,
laying a card on the table and asking for its rotation; and the decision to discard down
to the hand limit (its mask and its effect)."""

from __future__ import annotations

from labyrinth_env.core.contract import NO_SEAT, set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import copy_into
from labyrinth_env.core.rng import shuffle

from .tables import A_SLOT, CARD_KIND, D_ROTATE, EV_CARDS_OUT, EV_DISCARD, EV_RESHUFFLE, NUM_SEATS


@njit(cache=True)
def refill(s) -> None:
    """The draw pile ran out: the discard pile is shuffled into a new one, or (none) every card is in game."""
    if s.discard_len > 0:
        n = s.discard_len
        copy_into(s.deck, s.discard, n)
        s.discard[:n] = -1
        shuffle(s.rng, s.deck, n)
        s.deck_len = n
        s.discard_len = 0
        emit(s, EV_RESHUFFLE, NO_SEAT, n)
    elif not s.cards_out:
        s.cards_out = 1
        emit(s, EV_CARDS_OUT, NO_SEAT)


@njit(cache=True)
def draw_top(s) -> int:
    if s.deck_len == 0:
        return -1
    s.deck_len -= 1
    card = s.deck[s.deck_len]
    s.deck[s.deck_len] = -1  # nothing of a drawn card stays behind in the pile
    if s.deck_len == 0:
        refill(s)
    return card


@njit(cache=True)
def to_discard(s, card: int) -> None:
    s.discard[s.discard_len] = card
    s.discard_len += 1


@njit(cache=True)
def draw_to_hand(s, p: int, count: int) -> int:
    got = 0
    for _ in range(count):
        card = draw_top(s)
        if card < 0:
            break
        s.hand[p, s.hand_len[p]] = card
        s.hand_len[p] += 1
        got += 1
    return got


@njit(cache=True)
def discard_slot(s, p: int, slot: int) -> None:
    card = s.hand[p, slot]
    n = s.hand_len[p]
    for i in range(slot, n - 1):
        s.hand[p, i] = s.hand[p, i + 1]
    s.hand[p, n - 1] = -1
    s.hand_len[p] = n - 1
    to_discard(s, card)
    emit(s, EV_DISCARD, p, CARD_KIND[card])


@njit(cache=True)
def lay_card(s, cell: int, card: int, face_up: bool) -> None:
    """A card comes onto an empty space (nobody remembers what was there: nothing was)."""
    s.cell_card[cell] = card
    s.cell_up[cell] = 1 if face_up else 0
    s.cell_rot[cell] = -1
    s.cell_beaten[cell] = 0
    s.cell_gold[cell] = 0
    for p in range(NUM_SEATS):
        s.known[p, cell] = 0
    s.num_empty -= 1


@njit(cache=True)
def ask_rotation(s, how: int, cell: int, origin: int, d: int, seat: int, decider: int) -> None:
    """The card at ``cell`` waits for ``decider`` to turn it (``placing.apply_rotation``).
    ``how`` (HOW_*) says what for: character ``seat`` then comes in through side ``d`` of
    ``origin`` (``d`` = NO_SIDE: a trap's landing), or nobody moves (a card played or
    replaced; the Builder's card, whose old rotation ``origin`` holds). Here, below the
    decision families, because moving, playing, despair and the Builder all ask it."""
    s.pl_kind = how
    s.pl_cell = cell
    s.pl_origin = origin
    s.pl_dir = d
    s.pl_seat = seat
    set_decision(s, D_ROTATE, decider)


@njit(cache=True)
def hand_slots_mask(s, out) -> None:
    """Any card of the decider's hand (to the hand limit, or to pay for a challenge)."""
    for i in range(s.hand_len[s.decider]):
        out[A_SLOT + i] = 1


# --- the decision: discard down to the hand limit (D_DISCARD) -------------------------------------
@njit(cache=True)
def discard_mask(s, out) -> None:
    hand_slots_mask(s, out)


@njit(cache=True)
def apply_discard(s, who: int, action: int) -> None:
    discard_slot(s, who, action - A_SLOT)
