"""The cheapest-path search's tie-breaking, which both Paths of Destiny heuristics use.

Issue 33, item 6: heuristic games gave the seats unequal wins that followed the starting
space, not the seat (Paths of Destiny 3e, 3 players on starting spaces 0, 2, 4: the one on
space 2 won 21% of 400 games however the seats were placed, p < 1e-5), because every tie
went to the lowest direction, key or cell index, an order that is not the same seen from
each starting space. Ties now follow an order drawn afresh each turn."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexsearch as HS

TURNS = range(3000)


def salt(turn: int) -> np.uint64:
    return np.uint64(HS.tie_salt(turn))  # (from Python it comes back as a plain int)


def test_heuristic_ties_favour_no_direction_target_or_placement():
    # two targets equally near: each is chosen about half the time, never the farther one
    dist = np.full(HS.NUM_GRAPH, HS.INF, dtype=np.int64)
    dist[[5, 40]] = 7
    dist[60] = 8
    targets = np.array([5, 40, 60], dtype=np.int64)
    picks = [HS.best_target(dist, targets, 3, salt(t)) for t in TURNS]
    assert set(picks) == {5, 40}
    assert 0.45 < picks.count(5) / len(picks) < 0.55
    # candidates of equal cost (placements): the same; a cheaper one always wins
    ranks = [min((HS.ranked(3, salt(t), a), a) for a in (10, 11, 12))[1] for t in TURNS]
    assert all(0.3 < ranks.count(a) / len(ranks) < 0.37 for a in (10, 11, 12))
    assert all(HS.ranked(2, salt(t), 99) < HS.ranked(3, salt(t), 0) for t in range(50))
    # directions: each one tried first a sixth of the time, and of any two, either first
    # about half the time (so a mirrored layout's seats see the same odds)
    orders = []
    for t in TURNS:
        spin, sign = HS.tie_directions(salt(t))
        orders.append([(spin + sign * k) % 6 for k in range(6)])
    assert all(sorted(o) == list(range(6)) for o in orders)
    for d in range(6):
        assert 0.14 < sum(o[0] == d for o in orders) / len(orders) < 0.19
        for e in range(6):
            if e != d:
                ahead = sum(o.index(d) < o.index(e) for o in orders) / len(orders)
                assert 0.45 < ahead < 0.55, (d, e, ahead)
