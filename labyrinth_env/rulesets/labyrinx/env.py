"""Labyrinx (``labyrinx_v1``), the card game, 2-6 players.

The labyrinth of square path cards grows around the Empty Hall, one face-down card a turn;
characters flip cards as they walk in, face monsters, traps and chests with a die and the
cards in their hands, and the first to hold five treasures wins. Rules, reconstructions and
every choice where the rulebook is silent: ``docs/rules/labyrinx.md``.

| Import | ``labyrinth_env.make("labyrinx_v1", num_players=4)`` |
|---|---|
| Actions | Discrete(``kernel.NUM_ACTIONS``) |
| Agents | ``player_0`` .. ``player_{n-1}``, n = 2..6 |
| Observation | dict: ``observation`` float32[``kernel.OBS_SIZE``] in [0, 1], ``action_mask`` int8 |

With ``lookahead=True`` (a learner's aid, off by default) the observation gains 5 floats per
action at its end, for the seat to act: what each legal action leads to in a world
determinized for that seat from its observation (the change of its own progress and of the
best rival's, the result if the game ends, acting again, legal; see
``core/batch_template.lookahead_one``); ``lookahead_layout()`` says where they sit.

Actions (the mask allows only the pending decision's actions; spaces are named
``(row,col)``, seats by offset to the left of the deciding player):

| decision (who) | actions |
|---|---|
| the labyrinth expands (active player) | place the top card face down at (r,c) |
| action (active player) | move to (r,c), peek at (r,c), play card k, draw a card, push player +k, |
| | use the special power, despair, rest drawing 1-4 cards, end the turn |
| play a card: where / push: where / Seer | at (r,c) |
| rotate the card (who flips or places it) | rotation 0-3 (quarter turns clockwise) |
| discard down to the hand limit / pay for a challenge | discard card k |
| move the loser of a monster (player on the left) | move it to (r,c) (each step of the full difficulty), |
| | do not move the loser (only before the first step) |
| move the loser of a trap (player on the left) | straight line north/east/south/west, do not move the loser |
| chest with a treasure on it (who comes in) | attempt the chest, leave it |
| despair | take a <kind> from the discard pile |

Observation (egocentric: relative seat 0 is the observer): per space of the 13x13 grid (the
table uses its top-left ``table_size`` square) whether it is on the table, the exit space,
a pile space, empty, a face-down card, a face-up card; the card's kind when face up or when
this seat remembers it (it peeked, or saw it face up before it was flipped back), a face-up
card's open sides and doors, defeated challenge, treasure on a chest, the card being
rotated or fought, the characters there; per seat treasures, hand size and limit, the
character's icons and identity, racer; the decision and who makes it, actions left, the
turn's flags (regular action taken, doors unlocked, thief used, powers on, race), the race's
turns so far (of the 120 that truncate it), pile sizes, the face-up discard pile by kind and
its top card, the treasure reserve, the challenge and the movement being resolved, and the
observer's own hand by kind.

Rewards: winner +1, the others -1/(n-1); 0 for everyone on truncation: ``max_turns``, or
the guaranteed end that holds even with ``max_turns=None`` (a race longer than
``components.RACE_TURN_LIMIT`` turns, a turn longer than ``components.TURN_DECISION_LIMIT``
decisions; the ``truncated`` event says which).

Version history: v0 (first release: the whole rulebook; character powers reconstructed and
optional). v1 (issue 19): a failed monster's loser is moved the full difficulty or not at
all (l.49); the race is won only by a racer's own move into the exit space, not by standing
there (l.58); only six characters have a special power and each is an action (l.38; no
passive powers, nobody sees the expansion card, l.30); the race is truncated after 120 turns
and a turn after 1,000 decisions, even with ``max_turns=None``; the heuristic finishes races.
Within v1 (issue 32; float rounding only, no game changes): the discard pile's kind features
are each kind's count over its number of cards, computed once, where a float32 sum of
1/count reached 1.0000001, outside the declared Box; values move in their last bits, so
fingerprints of games with such observations were recorded again.
The ``lookahead`` option (issue 35) came later and leaves the default observation and every
game as they were.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

import numpy as np

from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.core.grid import SQUARE_DIRECTIONS
from labyrinth_env.options import check_bool, lookahead_option, option
from labyrinth_env.render.panel import turn_shown
from labyrinth_env.rulesets.labyrinx import SPEC
from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import kernel as K
from labyrinth_env.rulesets.labyrinx.sentences import SENTENCES


@dataclass(frozen=True)
class LabyrinxOptions:
    num_players: int = option(2, "number of players", int_range=SPEC.players)
    max_turns: int | None = option(
        600, "truncate after this many player turns (None: never)", int_range=(1, 1_000_000), optional=True
    )
    table_size: int = option(
        9, "the table is table_size x table_size card spaces (its sides wrap around)", int_range=(K.MIN_TABLE, K.MAXT)
    )
    character_powers: bool = option(
        False, "use the characters' special powers (reconstructed; False: the base game)", check=check_bool
    )
    lookahead: bool = lookahead_option()


def cell_name(cell: int) -> str:
    r, c = divmod(int(cell), K.MAXT)
    return f"({r},{c})"


def _seats(mask: int) -> list[int]:
    return [p for p in range(K.NUM_SEATS) if (mask >> p) & 1]


class raw_env(LabyrinthAECEnv):
    """Labyrinx AEC env (unwrapped: an illegal action raises ``ValueError``)."""

    ruleset = SPEC
    Options = LabyrinxOptions
    sentences = SENTENCES

    def sentence_context(self) -> dict[str, Any]:
        return {"exit": cell_name(int(self.record["exit0"]))}

    def seat_lines(self, s: np.void, seat: int) -> list[str]:
        hand = [int(s["hand"][seat, k]) for k in range(int(s["hand_len"][seat]))]
        lines = [f"your hand ({len(hand)} of {K.HAND_LIMIT}):"]
        lines += [f"  card {k}: {C.KIND_NAMES[C.CARD_KIND[card]]}" for k, card in enumerate(hand)] or ["  (empty)"]
        # face-down cards this seat peeked at (l.33) or saw face up before they turned back
        known = [
            f"  {cell_name(cell)}: {C.KIND_NAMES[C.CARD_KIND[int(s['cell_card'][cell])]]}"
            for cell in range(K.NUM_CELLS)
            if s["known"][seat, cell] and not s["cell_up"][cell] and s["cell_card"][cell] >= 0
        ]
        if known:
            lines += ["face-down cards you know (peeked at or seen):", *known]
        ch = int(s["character"][seat])
        lines.append(f"your character: {C.CHARACTER_NAMES[ch]}")
        if s["powers"] and int(C.CHAR_POWER[ch]) != C.POW_NONE:
            lines.append(f"  special power: {C.POWER_NAMES[int(C.CHAR_POWER[ch])]}")
        return lines

    def options_vector(self) -> np.ndarray:
        o = self.options
        vec = super().options_vector()
        vec[K.OPT_TABLE] = o.table_size
        vec[K.OPT_POWERS] = int(o.character_powers)
        return vec

    def action_names(self) -> list[str]:
        cells = [cell_name(c) for c in range(K.NUM_CELLS)]
        names = [f"move to {c}" for c in cells]
        names += [f"peek at {c}" for c in cells]
        names += [f"play card {k}" for k in range(K.MAX_HAND)]
        names += ["draw a card"]
        names += [f"push player +{k}" for k in range(1, K.NUM_SEATS)]
        names += ["use the special power", "despair"]
        names += [f"rest drawing {k}" for k in range(1, K.REST_DRAWS + 1)]
        names += ["end the turn"]
        names += [f"at {c}" for c in cells]
        names += [f"rotation {r}" for r in range(4)]
        names += [f"discard card {k}" for k in range(K.MAX_HAND)]
        names += ["do not move the loser"]
        names += [f"straight line {d}" for d in ("north", "east", "south", "west")]
        names += ["attempt the chest", "leave the chest"]
        names += [f"take a {k.lower()} from the discard pile" for k in C.KIND_NAMES]
        assert len(names) == K.NUM_ACTIONS, len(names)
        return names

    def decode_event(self, record: np.ndarray) -> dict[str, Any]:
        kind, seat, a, b, c, _d = (int(x) for x in record)
        icon = C.ICON_NAMES[a] if 0 <= a < C.NUM_ICONS else None
        t = {
            K.EV_TURN: lambda: {"type": "start_turn", "seat": seat, "turn": a},
            K.EV_EXPAND: lambda: {"type": "labyrinth_expands", "seat": seat, "at": cell_name(a)},
            K.EV_MOVE: lambda: {
                "type": "move",
                "seat": seat,
                "from": cell_name(a),
                "to": cell_name(b),
                "how": K.HOW_NAMES[c],
            },
            K.EV_LOST_MOVE: lambda: {"type": "move_lost", "seat": seat, "stays": cell_name(a), "door_to": cell_name(b)},
            K.EV_FLIP: lambda: {"type": "flip", "seat": seat, "at": cell_name(a), "card": C.KIND_NAMES[b]},
            K.EV_ROTATE: lambda: {
                "type": "rotate",
                "seat": seat,
                "at": cell_name(a),
                "card": C.KIND_NAMES[b],
                "rotation": c,
            },
            K.EV_PEEK: lambda: {"type": "peek", "seat": seat, "at": cell_name(a)},
            K.EV_PLAY: lambda: {"type": "play", "seat": seat, "at": cell_name(a), "card": C.KIND_NAMES[b]},
            K.EV_DRAW: lambda: {"type": "draw", "seat": seat, "cards": a},
            K.EV_DISCARD: lambda: {"type": "discard", "seat": seat, "card": C.KIND_NAMES[a]},
            K.EV_CHALLENGE: lambda: {"type": "challenge", "seat": seat, "challenge": icon, "difficulty": b, "icons": c},
            K.EV_SUCCESS: lambda: {
                "type": "challenge_won",
                "seat": seat,
                "challenge": icon,
                "treasure": bool(b),
                "from_chest": bool(c),
            },
            K.EV_FAIL: lambda: {
                "type": "challenge_lost",
                "seat": seat,
                "challenge": icon,
                "treasure_lost": bool(b),
                "mover": None if c == K.NO_SEAT else c,
            },
            K.EV_CHEST_GOLD: lambda: {"type": "treasure_on_chest", "seat": seat, "at": cell_name(a)},
            K.EV_RESHUFFLE: lambda: {"type": "reshuffle", "cards": a},
            K.EV_DESPAIR: lambda: {"type": "despair", "seat": seat, "cards_drawn": a},
            K.EV_REST: lambda: {"type": "rest", "seat": seat, "cards": a},
            K.EV_FLIP_DOWN: lambda: {"type": "end_phase", "seat": seat, "flipped_down": a},
            K.EV_END_TRIGGER: lambda: {"type": "end_trigger", "seat": seat, "reason": K.END_NAMES[a]},
            K.EV_RACE: lambda: {"type": "race", "racers": _seats(a)},
            K.EV_WIN: lambda: {"type": "win", "seat": seat, "how": K.WIN_NAMES[a]},
            K.EV_TRUNCATED: lambda: {"type": "truncated", "why": K.CUT_NAMES[a]},
            K.EV_POWER: lambda: {"type": "power", "seat": seat, "power": C.POWER_NAMES[a], "arg": b},
            K.EV_CARDS_OUT: lambda: {"type": "cards_out"},
            K.EV_DRAWN_PLACED: lambda: {
                "type": "card_from_deck_placed",
                "seat": seat,
                "at": cell_name(a),
                "card": C.KIND_NAMES[b],
            },
            K.EV_REPLACE: lambda: {
                "type": "replace",
                "seat": seat,
                "at": cell_name(a),
                "old": C.KIND_NAMES[b],
                "new": C.KIND_NAMES[c],
            },
            K.EV_STOP: lambda: {"type": "stop_moving", "seat": seat, "moved": a, "steps_left": b},
            K.EV_DECLINE: lambda: {"type": "chest_left", "seat": seat, "at": cell_name(a)},
        }.get(kind)
        if t is None:
            raise ValueError(f"unknown event record {record.tolist()}")
        return t()

    def render_text(self) -> str:
        return render_text(self.record, self.text_width)


_ICON_GLYPH = ("M", "T", "C")
BODY = 5  # a space's characters before the one that shows who stands there


def _sides(open_mask: int, doors: int) -> str:
    """Open sides as ``N``/``E``/``S``/``W`` (lower case: a door on that side), ``.`` closed."""
    out = ""
    for d, letter in enumerate(SQUARE_DIRECTIONS):
        if (open_mask >> d) & 1:
            out += letter.lower() if (doors >> d) & 1 else letter
        else:
            out += "."
    return out


def card_sides(s: np.void, card: int, rot: int) -> str:
    """A card's sides in rotation ``rot`` (doors shut only outside the race)."""
    doors = 0 if s["race"] else int(K.CARD_DOORS[card, rot])
    return _sides(int(K.CARD_OPEN[card, rot]), doors)


def cell_glyph(s: np.void, cell: int) -> str:
    """``BODY`` characters: ``####`` a face-down card, ``.`` an empty space, ``EXIT`` the
    exit space, ``pile`` a pile space; a face-up card's sides (``card_sides``, ``????``
    before it is turned) and its icon (``+`` none, ``M``/``T``/``C`` monster, trap, chest,
    lower case once beaten, ``$`` a treasure on the chest)."""
    ty = int(s["cell_type"][cell])
    if ty == K.T_EXIT:
        return "EXIT "
    if ty == K.T_PILE:
        return "pile "
    card = int(s["cell_card"][cell])
    if card < 0:
        return "  .  "
    if not s["cell_up"][cell]:
        return "#### "
    icon = int(C.KIND_ICON[C.CARD_KIND[card]])
    mark = "+" if icon < 0 else _ICON_GLYPH[icon]
    if icon >= 0 and s["cell_beaten"][cell]:
        mark = mark.lower()
    if s["cell_gold"][cell]:
        mark = "$"
    rot = int(s["cell_rot"][cell])
    return ("????" if rot < 0 else card_sides(s, card, rot)) + mark


def render_text(s: np.void, width: int = 100) -> str:
    """The table with its row and column numbers, as spaces are named in the actions
    (``(row,col)``), the panel and the key. A space shows ``cell_glyph`` and then the seat
    digit of the character standing there (``*`` several)."""
    n = int(s["num_players"])
    t = int(s["table"])
    where: dict[int, list[str]] = {}
    for p in range(n):
        where.setdefault(int(s["pos"][p]), []).append(str(p))
    lines = ["   " + " ".join(f"{c:^{BODY}} " for c in range(t)).rstrip()]
    for r in range(t):
        row = []
        for c in range(t):
            cell = r * K.MAXT + c
            here = where.get(cell, [])
            row.append(cell_glyph(s, cell) + (here[0] if len(here) == 1 else "*" if here else " "))
        lines.append(f"{r:>2} " + " ".join(row).rstrip())
    status = {K.RUNNING: "running", K.WON: f"won by player {int(s['winner'])}", K.TRUNCATED: "truncated"}
    running = int(s["outcome"]) == K.RUNNING
    panel = [
        f"turn {turn_shown(int(s['turn']) - 1, s['outcome'])}, {status[int(s['outcome'])]}"
        + (" (race! doors open)" if s["race"] else "")
        + (f"; active player {int(s['seat'])}, actions left {int(s['actions_left'])}" if running else ""),
        *([f"decision: {K.DECISIONS[int(s['decision'])]} (player {int(s['decider'])})"] if running else []),
        f"draw pile {int(s['deck_len'])}, discards {int(s['discard_len'])}, treasure reserve {int(s['reserve'])}",
    ]
    cell = int(s["pl_cell"])
    if s["decision"] == K.D_ROTATE and cell >= 0 and s["cell_up"][cell] and s["cell_card"][cell] >= 0:
        card = int(s["cell_card"][cell])
        panel.append(f"the card being turned at {cell_name(cell)}: {C.KIND_NAMES[C.CARD_KIND[card]]}, its sides")
        panel.append("  " + ", ".join(f"rotation {r} {card_sides(s, card, r)}" for r in range(4)))
    for p in range(n):
        ch = int(s["character"][p])
        icons = "".join(g * int(C.CHAR_ICONS[ch, i]) for i, g in enumerate(_ICON_GLYPH))
        panel.append(
            f"player {p} {C.CHARACTER_NAMES[ch]} [{icons}] at {cell_name(int(s['pos'][p]))}: "
            f"treasures {int(s['treasure'][p])}, cards {int(s['hand_len'][p])}"
        )
    icons = ", ".join(f"{g} {name}" for g, name in zip(_ICON_GLYPH, C.ICON_NAMES))
    legend = (
        f"(r,c) in the actions: row r (left), column c (top); the table's sides wrap around (row {t - 1} "
        f"touches row 0, column {t - 1} column 0). NESW a face-up card's open sides (. closed; n/e/s/w: "
        f"a door on that side), then its icon: {icons} (lower case: beaten), $ a treasure on the chest, "
        "+ none; ???? not yet turned; #### face down; . empty; EXIT the exit space (one location); "
        "pile a pile space; then the character there (player digit, * several). "
        f"[{''.join(_ICON_GLYPH)}] after a character: its challenge icons ({icons}), each one card less "
        "to beat a challenge of its type. "
        "North is up, east to the right."
    )
    width = max(width, 40)
    legend = textwrap.wrap(legend, width, initial_indent="key: ", subsequent_indent="     ", break_on_hyphens=False)
    panel = [part for line in panel for part in textwrap.wrap(line, width, subsequent_indent="  ")]
    return "\n".join([*lines, "", *panel, "", *legend])


def env(**options: Any) -> raw_env:
    """The env as PettingZoo's wrapped envs behave (see ``labyrinth_env.aec``)."""
    e = raw_env(**options)
    e.checked = True
    return e
