"""The Mistress of Golems' Enslavement (l.400-401): "If you make a player, who was transformed
into the Guard, fall asleep, using the Guard card (crescent moon symbol), he receives 1 stun
point. If a sun-burst symbol appears, transfer him to the central field of the labyrinth. If
the transformed player encounters the Guard, he ignores him." (l.400); "If a player
transformed into the Guard meets another player, the latter loses a key." (l.401)

The card we play: 1 action, the round's Guard card (l.296 "it costs 1 action", l.314 "In one
round you may take the Guard movement card once only"): she takes the top Guard card for a
player in her corridor (off his start field) instead of for the Guard, and he is the Guard
while she carries it out ("using the Guard card", l.400): footprints, she moves him as the
Guard moves (l.316-323: along corridors, ignoring traps, never back where he came from in this
card unless at a corridor's end; never into a covered field, whose uncovering l.381 gives only
the Guard); the moon, 1 stun point where he stands; the sun-burst, the central field; the X,
nothing. Then he is himself again: his rounds are his own. He ignores the real Guard (no
meeting either way, l.400); each player standing in a corridor he comes into meets him and
drops a key there (l.401; the lowest-numbered, as a death leaves one, l.125), once per card;
the players standing with him when the card is taken are ignored, as the Guard ignores them
(l.330). The card itself is drawn by ``guard.move_guard`` (``turn.do_action`` calls it right
after the skill), which hands it here (``slave_card``)."""

from __future__ import annotations

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import at_start, occupants
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .life import add_stun, drop_key
from .queries import first_key, guard_ways, set_position
from .tables import (
    A_GUARD_DIR,
    CENTER_NODE,
    D_GUARD_DIR,
    EV_ENSLAVED_END,
    EV_ENSLAVED_MEETING,
    EV_ENSLAVED_MOVE,
    EV_SKILL,
    MC,
    NEIGHBORS,
    SK_ENSLAVEMENT,
)


@njit(cache=True)
def clear_slave(s) -> None:
    s.slave = -1
    s.slave_steps = 0
    s.slave_from = -1
    s.slave_ignore = 0


@njit(cache=True)
def enslave_legal(s, seat: int, target: int) -> bool:
    """One action left, the round's Guard card not taken yet (l.314), another player in her
    corridor; the caller has checked that she may use skills (l.132, l.351)."""
    if s.actions_left < 1 or s.guard_used or target < 0 or target == seat:
        return False
    return s.position[target] == s.position[seat] and not at_start(s, target)


@njit(cache=True)
def enslave(s, seat: int, target: int) -> None:
    """He is transformed; whoever stands with him is ignored by him (l.330)."""
    node = s.position[target]
    emit(s, EV_SKILL, seat, SK_ENSLAVEMENT, target, node)
    s.slave = target
    s.slave_steps = 0
    s.slave_from = -1
    s.slave_ignore = occupants(s, node, target)


@njit(cache=True)
def set_free(s) -> None:
    p = s.slave
    emit(s, EV_ENSLAVED_END, p, s.position[p])
    clear_slave(s)


@njit(cache=True)
def meet(s, q: int, node: int) -> None:
    """``q`` meets the transformed player: one of his keys stays in the corridor (l.401)."""
    k = first_key(s, q)
    emit(s, EV_ENSLAVED_MEETING, q, s.slave, k)
    if k >= 0:
        drop_key(s, q, k, node)


@njit(cache=True)
def slave_to(s, node: int) -> None:
    """He comes into ``node`` as the Guard would: no trap, no Guard (l.320, l.400), the
    players there meet him."""
    p = s.slave
    emit(s, EV_ENSLAVED_MOVE, p, s.position[p], node)
    s.slave_from = s.position[p]
    set_position(s, p, node)
    met = occupants(s, node, p) & ~s.slave_ignore
    s.slave_ignore |= met
    for q in range(s.num_players):
        if (met >> q) & 1:
            meet(s, q, node)


@njit(cache=True)
def slave_card(s, kind: int, steps: int) -> None:
    """The Guard card taken for him (``guard.move_guard``): footprints give him steps; the
    moon, the sun-burst and the X act at once and he is himself again."""
    if kind == C.GUARD_MOVE:
        s.slave_steps = steps
        return
    if kind == C.GUARD_MOON:  # "he receives 1 stun point" (l.400)
        add_stun(s, s.slave, 1)
    elif kind == C.GUARD_SUN and s.position[s.slave] != CENTER_NODE:  # "transfer him" (l.400)
        slave_to(s, CENTER_NODE)
    set_free(s)


@njit(cache=True)
def slave_options(s) -> int:
    return guard_ways(s, s.position[s.slave], s.slave_from, False)


@njit(cache=True)
def slave_step(s, d: int) -> None:
    node = s.position[s.slave]
    s.slave_steps -= 1
    slave_to(s, corridor_across(s.node_mask, NEIGHBORS, node // MC, d, MC))


@njit(cache=True)
def walk_slave(s) -> bool:
    """His next step (``turn.advance``): by itself when there is one way only (none: the
    steps are lost), else the Mistress chooses (the Guard's direction decision, as for the
    Guard, l.296); False while she must. No steps left: he is himself again."""
    if s.slave_steps <= 0:
        set_free(s)
        return True
    d = pod.forced_step(s, slave_options(s), D_GUARD_DIR)
    if d == pod.NO_WAY:
        s.slave_steps = 0
    elif d != pod.CHOOSE:
        slave_step(s, d)
    return d != pod.CHOOSE


@njit(cache=True)
def slave_dir_mask(s, out) -> None:
    hexboard.mark_directions(out, A_GUARD_DIR, slave_options(s))
