"""The toy maze race (``toy_race_v0``): a test fixture registered with ``register_ruleset``.

| Actions | Discrete(51): 0-24 turn that cell's tile, 25 pass, 26-50 move to that cell |
|---|---|
| Observation | float32[235]: per cell open N/E/S/W, centre, pieces by relative seat; decision, roll, seats |
| Rewards | zero-sum: the winner +1, the others -1/(n-1); 0 on truncation |

Options: ``num_players``, ``max_turns``, ``lookahead`` (5 floats per action after the 235).

Version history: v0 (the only one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.core.contract import OUTCOME_NAMES
from labyrinth_env.options import lookahead_option, option

from . import SPEC
from .kernel import tables as T


@dataclass(frozen=True)
class ToyRaceOptions:
    num_players: int = option(2, "number of players", int_range=SPEC.players)
    max_turns: int | None = option(60, "truncate after this many turns", int_range=(1, 10_000), optional=True)
    lookahead: bool = lookahead_option()


def cell_name(cell: int) -> str:
    return f"r{cell // T.SIZE}c{cell % T.SIZE}"


class raw_env(LabyrinthAECEnv):
    ruleset = SPEC
    Options = ToyRaceOptions

    def action_names(self) -> list[str]:
        names = [f"turn {cell_name(c)}" for c in range(T.NUM_CELLS)] + ["pass"]
        return names + [f"move to {cell_name(c)}" for c in range(T.NUM_CELLS)]

    def decode_event(self, record: np.ndarray) -> dict[str, Any]:
        kind, seat, a, b = (int(x) for x in record[:4])
        if kind == T.EV_START_TURN:
            return {"type": "start_turn", "seat": seat, "turn": a}
        if kind == T.EV_TURN_TILE:
            return {"type": "turn_tile", "seat": seat, "cell": cell_name(a)}
        if kind == T.EV_ROLL:
            return {"type": "roll", "seat": seat, "roll": a}
        if kind == T.EV_MOVE:
            return {"type": "move", "seat": seat, "from": cell_name(a), "to": cell_name(b)}
        if kind == T.EV_WIN:
            return {"type": "win", "seat": seat}
        if kind == T.EV_TRUNCATED:
            return {"type": "truncated"}
        raise ValueError(f"unknown event record {record.tolist()}")

    def render_text(self) -> str:
        s = self.record
        rows = []
        for r in range(T.SIZE):
            row = ""
            for c in range(T.SIZE):
                cell = r * T.SIZE + c
                here = [str(p) for p in range(int(s["num_players"])) if int(s["position"][p]) == cell]
                row += (here[0] if here else ("*" if cell == T.GOAL else "+")) + " "
            rows.append(row)
        rows.append(
            f"turn {int(s['turn'])}, player {int(s['seat'])}, roll {int(s['roll'])}, {OUTCOME_NAMES[int(s['outcome'])]}"
        )
        return "\n".join(rows)


def env(**options: Any) -> raw_env:
    e = raw_env(**options)
    e.checked = True
    return e
