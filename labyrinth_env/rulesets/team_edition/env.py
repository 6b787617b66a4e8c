"""Labyrinth: Team Edition (``team_edition_v2``), a cooperative moving maze for 1-4 players.

The team pushes and turns path tiles of a 7x7 maze to reach the treasures on their
boards, while the Book of Daedalus pushes face-down tiles in, flips tiles face down and
teleports pieces home. Everyone wins when all 24 treasures are collected before the
Book runs out; everyone loses otherwise. Rules: ``docs/rules/team_edition.md``.

| Import | ``from labyrinth_env import team_edition_v2`` or ``labyrinth_env.make("team_edition_v2")`` |
|---|---|
| Actions | Discrete(349) |
| Agents | ``player_0`` .. ``player_{n-1}``, n = 1..4 |
| Observation | dict: ``observation`` float32[2465] (``lookahead=True``: [4210]) in [0, 1], ``action_mask`` int8[349] |

Actions (one flat space; the mask allows only the pending decision's actions):

| index | action |
|---|---|
| 0-47 | Push spell: ``arrow * 4 + orientation`` of the spare (arrows clockwise from top column 1) |
| 48-96 | move the piece to cell ``row * 7 + col`` (never its own cell: not moving is not a move) |
| 97-243 | Rotate spell: ``cell * 3 + steps - 1``, turn that tile 1-3 quarter turns clockwise |
| 244-341 | Switch spell: ``cell * 2 + k``, swap with the east (k=0) or south (k=1) neighbour |
| 342-345 | orientation for a face-down tile just stepped on and flipped face up |
| 346 | end the turn |
| 347 | flip the face-down tile under the piece face up (orientation next): on stopping, or before a later move |
| 348 | leave the face-down tile the piece stopped on face down |

Traverse, Teleport and Escape are used while moving: a destination reachable only with
the spell spends it; one reachable without does not.

Observation (egocentric: relative seat 0 is the observer, then the others in turn order;
seats not in play are zero): 44 planes over the 49 cells (face-up loose tile, face-down
tile, printed space, open N/E/S/W, pieces x4, home corners x4, treasure wanted by seat
x4, treasure on nobody's board, treasure one-hot x24), the spare tile (open edges,
treasure, wanted by), per seat (in play, to act, two board spaces one-hot, spell), and
the turn (decision of 3, spells and moves used, variant, pages and treasures left,
collected treasures, the last page). Treasures on face-down tiles appear (the table saw
every one face up, and every change since was public) unless ``public_memory=False``;
the decks' contents and orders never appear.

With ``lookahead=True`` the observation is float32[4210]: the 2465 numbers above, then 5
per action (``action * 5``): for the seat to act, how many of its treasures would lie
within reach after that action (sure ones, and face-down tiles that may hide one, each
/2 and capped at 1), how close the reachable area would come to the nearest one, the
share of the maze reachable, and whether the action was looked at. Moves are scored by
their destination; spells and orientations by replaying them on a copy of the maze
(only while a move is left, so no replay turns a Daedalus page). Everything used is
public. Zero for a seat not to act. This is a learner's aid (the flat planes do not
let a network see what a push would open), off by default; see ``docs/training.md``.

Rewards: every seat +1 when the team collects all 24 treasures, -1 when the Book runs
out; 0 on truncation (``max_turns``).

Options: ``num_players`` (1-4, default 2), ``variant`` ("introductory", "standard",
"expert"), ``public_memory`` (bool, default True), ``max_turns`` (None or >= 1), ``daedalus_deck``
({"push", "flip", "teleport"} counts, 1-60 pages), ``spells`` (standard/expert: one
spell name per seat, or None to deal at random), ``lookahead`` (bool, default False).

Version history: v0 (first release; the ``lookahead`` option came later and leaves the
default observation as it was). v1 (issue 19): the observation recalls public history
by default (``public_memory=True``) and ``determinize`` keeps every face-down tile where
it is; a move to the piece's own cell is not a move (no collection, no bonus move);
flipping a face-down tile you stop on is a choice (actions 347/348, decision 2; the
observation's decision block has 3 entries); the Book of Daedalus is dealt each game
from card pools (Flip cards each hide one of the 12 loose treasures; Teleport cards name
pieces in play). v2 (issue 33): a piece left on a face-down tile may flip it face up before
its next move (action 347 in the main decision, with a move left; l.164, l.166), then moves
off as normal; in v1 it could not leave the tile but with Traverse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.core.contract import OUTCOME_NAMES
from labyrinth_env.options import check_bool, lookahead_option, option
from labyrinth_env.rulesets.team_edition import SPEC
from labyrinth_env.rulesets.team_edition import components as C
from labyrinth_env.rulesets.team_edition import kernel as K
from labyrinth_env.rulesets.team_edition.render import render_text
from labyrinth_env.rulesets.team_edition.sentences import SENTENCES


def _check_deck(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a dict with keys {list(C.PAGE_KINDS)} and page counts")
    unknown = sorted(set(value) - set(C.PAGE_KINDS))
    if unknown:
        raise ValueError(f"unknown page kind(s) {unknown}; kinds are {list(C.PAGE_KINDS)}")
    deck = {k: value.get(k, 0) for k in C.PAGE_KINDS}
    for k, n in deck.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"page count for {k!r} must be an int >= 0, got {n!r}")
    total = sum(deck.values())
    if not 1 <= total <= C.MAX_PAGES:
        raise ValueError(f"the Book must hold 1 to {C.MAX_PAGES} pages, got {total}")
    return deck


def _check_spells(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ValueError(f"expected a list of spell names, one per seat, from {list(C.SPELLS)}")
    for v in value:
        if v not in C.SPELLS:
            raise ValueError(f"unknown spell {v!r}; spells are {list(C.SPELLS)}")
    if len(set(value)) != len(value):
        raise ValueError("each spell tile exists once: no two seats can hold the same spell")
    return tuple(value)


@dataclass(frozen=True)
class TeamEditionOptions:
    num_players: int = option(2, "number of players", int_range=SPEC.players)
    variant: str = option("introductory", "rules variant", choices=K.VARIANTS)
    public_memory: bool = option(
        True,
        "recall public history: show treasures of face-down tiles (the table saw each face up)",
        check=check_bool,
    )
    max_turns: int | None = option(None, "truncate after this many turns", int_range=(1, 1_000_000), optional=True)
    daedalus_deck: dict = option(C.DEFAULT_DECK, "Daedalus page counts by kind", check=_check_deck)
    spells: tuple | None = option(None, "standard/expert: spell per seat", optional=True, check=_check_spells)
    lookahead: bool = lookahead_option()

    def validate(self) -> None:
        if self.spells is not None:
            if self.variant == "introductory":
                raise ValueError(
                    "option spells is only for variant 'standard' or 'expert' "
                    "(the introductory game gives every player Push and Rotate)"
                )
            if len(self.spells) != self.num_players:
                raise ValueError(
                    f"option spells must name one spell per player: {self.num_players} expected, got {len(self.spells)}"
                )


def cell_name(cell: int) -> str:
    return f"r{cell // C.SIZE}c{cell % C.SIZE}"


class raw_env(LabyrinthAECEnv):
    """Team Edition AEC env (unwrapped: an illegal action raises ``ValueError``)."""

    ruleset = SPEC
    Options = TeamEditionOptions
    sentences = SENTENCES

    def sentence_context(self) -> dict[str, Any]:
        n = self.options.num_players
        homes = {cell_name(int(C.HOME_CELLS[p])): C.COLORS[p] for p in range(C.NUM_SEATS)}
        return {"homes": homes, "home_of": {p: cell_name(int(C.HOME_CELLS[p])) for p in range(n)}}

    def seat_lines(self, s: np.void, seat: int) -> list[str]:
        wants = [C.TREASURES[int(t)] for t in s["slots"][seat] if t >= 0]
        return [
            f"you are {C.COLORS[seat]} (home corner {cell_name(int(C.HOME_CELLS[seat]))}), "
            f"spells: push and {C.SPELLS[int(s['spell'][seat])]}",
            f"treasures on your board: {', '.join(wants) or 'none'}",
        ]

    def options_vector(self) -> np.ndarray:
        o = self.options
        vec = super().options_vector()
        vec[K.OPT_VARIANT] = K.VARIANTS.index(o.variant)
        vec[K.OPT_MEMORY] = int(o.public_memory)
        for i, kind in enumerate(C.PAGE_KINDS):
            vec[K.OPT_DECK + i] = o.daedalus_deck[kind]
        vec[K.OPT_SPELLS : K.OPT_SPELLS + 4] = -1
        if o.spells is not None:
            for seat, name in enumerate(o.spells):
                vec[K.OPT_SPELLS + seat] = C.SPELLS.index(name)
        vec[K.OPT_LOOKAHEAD] = int(o.lookahead)
        return vec

    def observation_size(self) -> int:
        return K.OBS_SIZE_LOOKAHEAD if self.options.lookahead else K.OBS_SIZE

    def generic_lookahead(self) -> bool:
        return False  # the kernel writes Team Edition's own lookahead block (K.observe)

    def lookahead_layout(self) -> dict[str, Any] | None:
        """Where the lookahead features sit in the observation (None without the option):
        ``base_size`` floats of planes first, then ``features`` floats per action, and each
        action's ``kinds`` index (push, move, rotate, switch, orientation, end); what
        ``agents.policies.LookaheadPolicy`` needs."""
        if not self.options.lookahead:
            return None
        return {"base_size": K.OBS_SIZE, "features": K.LOOKAHEAD_FEATURES, "kinds": K.ACTION_KIND.tolist()}

    def action_names(self) -> list[str]:
        names = []
        for a in range(C.NUM_ARROWS):
            names += [f"push {C.ARROW_NAMES[a]} turn {o}" for o in range(4)]
        names += [f"move to {cell_name(c)}" for c in range(C.NUM_CELLS)]
        for c in range(C.NUM_CELLS):
            names += [f"rotate {cell_name(c)} clockwise {k} turn" for k in ("1/4", "1/2", "3/4")]
        for c in range(C.NUM_CELLS):
            names += [f"switch {cell_name(c)} with {d}" for d in ("east", "south")]
        names += [f"flip face up turn {o}" for o in range(4)]
        names.append("end turn")
        names += ["flip the tile face up", "leave the tile face down"]
        assert len(names) == K.NUM_ACTIONS
        return names

    def decode_event(self, record: np.ndarray) -> dict[str, Any]:
        kind, seat, a, b, c, d = (int(x) for x in record)
        if kind == K.EV_START_TURN:
            return {"type": "start_turn", "seat": seat, "turn": a, "pages_left": b}
        if kind == K.EV_PAGE:
            return {
                "type": "daedalus_page",
                "seat": seat,
                "kind": C.PAGE_KINDS[a],
                "text": C.describe_page((a, b, c, d)),
            }
        if kind == K.EV_DAEDALUS_PUSH:
            return {
                "type": "daedalus_push",
                "arrow": C.ARROW_NAMES[a],
                "tile_out": C.tile_name(b),
                "was_face_down": bool(c),
            }
        if kind == K.EV_DAEDALUS_FLIP:
            return {"type": "daedalus_flip", "tile": C.tile_name(a), "cell": cell_name(b)}
        if kind == K.EV_SENT_HOME:
            return {
                "type": "sent_home",
                "seat": seat,
                "from": cell_name(a),
                "to": cell_name(b),
                "cause": K.SENT_CAUSES[c],
            }
        if kind == K.EV_PUSH:
            return {
                "type": "push",
                "seat": seat,
                "arrow": C.ARROW_NAMES[a],
                "orientation": b,
                "tile_out": C.tile_name(c),
            }
        if kind == K.EV_PIECE_WRAPS:
            return {"type": "piece_wraps", "seat": seat, "from": cell_name(a), "to": cell_name(b)}
        if kind == K.EV_ROTATE:
            return {"type": "rotate", "seat": seat, "cell": cell_name(a), "steps": b}
        if kind == K.EV_SWITCH:
            return {"type": "switch", "seat": seat, "cells": [cell_name(a), cell_name(b)]}
        if kind == K.EV_MOVE:
            return {"type": "move", "seat": seat, "from": cell_name(a), "to": cell_name(b), "spell_used": bool(c)}
        if kind == K.EV_FLIP_UP:
            return {"type": "flip_up", "seat": seat, "cell": cell_name(a), "tile": C.tile_name(b), "orientation": c}
        if kind == K.EV_COLLECT:
            return {
                "type": "collect",
                "seat": seat,
                "treasure": C.TREASURES[a],
                "from_board_of": b,
                "bonus_move": bool(c),
            }
        if kind == K.EV_DRAW:
            return {"type": "draw", "seat": seat, "treasure": C.TREASURES[a]}
        if kind == K.EV_END_TURN:
            return {"type": "end_turn", "seat": seat, "turn": a}
        if kind == K.EV_LEAVE_DOWN:
            return {"type": "left_face_down", "seat": seat, "cell": cell_name(a), "tile": C.tile_name(b)}
        if kind == K.EV_GAME_END:
            return {"type": "game_end", "outcome": OUTCOME_NAMES[a], "collected": b}
        raise ValueError(f"unknown event record {record.tolist()}")

    def render_text(self) -> str:
        return render_text(self.record, width=self.text_width)


def env(**options: Any) -> raw_env:
    """The Team Edition env as PettingZoo's wrapped envs behave (see ``labyrinth_env.aec``)."""
    e = raw_env(**options)
    e.checked = True
    return e
