"""The Head Hunter's Tracking (reconstructed, played as a public effect): "once a round,
without an action: turn face up the face-down traps of your corridor or of a corridor next
to it".

The plan was "you may look at a face-down trap in your corridor or next to it", which
would give his seat a private memory of the token, to be shown in his observation only and
kept by ``determinize`` for him while the other seats' determinizations deal it again.
Played this way the token is turned face up for all, as a player coming in uncovers it
(l.234 "When you enter a corridor with a trap – uncover it"): from then on it is public
like any uncovered trap (the observation shows its type, ``determinize`` leaves face-up
tokens where they are), so no seat knows more than another.

"Use skill 3" turns up his own corridor's traps, "use skill 3 towards" a direction those of
the corridor across that edge (``skills.across``, one move away: ``skills.next_to``); a
corridor with the Head Hunter's second trap (Entrapment) has both turned up. It costs no
action point but is used in his round while he still has one (a look before a step, so a
round with nothing left to spend ends as before); not on his start field nor stunned
(l.132, l.351)."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .skills import across, board_corridor, skill_active
from .tables import (
    A_SKILL,
    A_SKILL_DIR,
    EV_SKILL,
    EV_TRAP_REVEALED,
    HEAD_HUNTER,
    NO_TARGET,
    SK_TRACKING,
    TRAP_TOKENS,
)

SLOT = SK_TRACKING - 3 * HEAD_HUNTER
A_TRACK_HERE = A_SKILL + SLOT  # "use skill 3": his own corridor
A_TRACK_DIR = A_SKILL_DIR + SLOT * 6  # + d: "use skill 3 towards" the corridor across d


@njit(cache=True)
def tracked_corridor(s, seat: int, action: int) -> int:
    """The corridor a Tracking action aims at (-1: not a Tracking action, or no corridor)."""
    if s.character[seat] != HEAD_HUNTER:
        return -1
    if action == A_TRACK_HERE:
        return s.position[seat]
    if A_TRACK_DIR <= action < A_TRACK_DIR + 6:
        return across(s, s.position[seat], action - A_TRACK_DIR)
    return -1


@njit(cache=True)
def hidden_trap(s, node: int) -> bool:
    """A board corridor with a face-down token (its first or its second)."""
    if node < 0 or not board_corridor(node):
        return False
    return (s.node_trap[node] >= 0 and not s.trap_up[node]) or (s.node_trap2[node] >= 0 and not s.trap2_up[node])


@njit(cache=True)
def tracking_legal(s, seat: int, action: int) -> bool:
    node = tracked_corridor(s, seat, action)
    if node < 0 or s.tracking_used or s.actions_left < 1:
        return False
    return hidden_trap(s, node) and skill_active(s, seat, SK_TRACKING)


@njit(cache=True)
def tracking_mask(s, seat: int, out) -> None:
    if s.character[seat] != HEAD_HUNTER or s.tracking_used or s.actions_left < 1:
        return
    out[A_TRACK_HERE] = 1 if tracking_legal(s, seat, A_TRACK_HERE) else 0
    for d in range(6):
        out[A_TRACK_DIR + d] = 1 if tracking_legal(s, seat, A_TRACK_DIR + d) else 0


@njit(cache=True)
def any_tracking(s, seat: int) -> bool:
    if s.character[seat] != HEAD_HUNTER or s.tracking_used:
        return False
    for d in range(7):
        if tracking_legal(s, seat, A_TRACK_HERE if d == 6 else A_TRACK_DIR + d):
            return True
    return False


@njit(cache=True)
def track(s, seat: int, action: int) -> None:
    """The corridor's face-down tokens turned face up, for all to see."""
    node = tracked_corridor(s, seat, action)
    s.tracking_used = 1
    emit(s, EV_SKILL, seat, SK_TRACKING, NO_TARGET, node)
    if s.node_trap[node] >= 0 and not s.trap_up[node]:
        s.trap_up[node] = 1
        emit(s, EV_TRAP_REVEALED, seat, node, TRAP_TOKENS[s.node_trap[node]])
    if s.node_trap2[node] >= 0 and not s.trap2_up[node]:
        s.trap2_up[node] = 1
        emit(s, EV_TRAP_REVEALED, seat, node, TRAP_TOKENS[s.node_trap2[node]])
