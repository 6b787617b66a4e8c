"""A measured card for a game: branching, length, chance, hidden information, seat advantage.

``labyrinth analyze --env ID [--players N[,M...]] [--agents random,heuristic,...] [--games G]
[--seed S] [--out DIR]`` plays ``G`` games per player count and agent mix and reports:

- length: decisions per game and per turn, game length in turns (the kernel's ``turn``
  counter at the end), the share of games ending by truncation (``max_turns``);
- branching: legal actions per decision (mean, median, p90, max, the share of forced
  decisions with one legal action) overall and per pending decision (the kernel's
  ``DECISIONS``);
- chance: random numbers drawn per game in play (dice, random picks, reshuffles: the steps
  the record's dice advanced), draws and reveals per game (components leaving what no seat
  has seen, the kernel's ``unseen(s, NO_SEAT)``), and the share of decisions that follow a
  step with either;
- hidden information: components the deciding seat cannot see at each decision
  (``unseen(s, seat)``, the sets the kernel's ``determinize`` resamples) and the log10 of
  their arrangements (the information set's size where the kernel counts it);
- seat advantage: win rate by seat with Wilson intervals and a chi-square p-value that
  every seat wins equally often, by turn order (the first player is whoever takes turn 0:
  some rulesets throw for it), and the first player's edge over a fair share with a
  two-sided binomial p-value (games with a winner); cooperative rulesets report the
  team's rates instead;
- sizes and speed: observation length, action-space size, state record bytes, the
  kernel's random-play steps/s and the analysis loop's decisions/s.

Agents: ``--agents`` is one mix (repeat the flag for more): one spec plays every seat, or
one spec per seat (the seating rotates every game so each agent sits in each seat
equally). Mixes of ``random`` and ``heuristic`` play inside the kernel, a whole batch of
games per call; any other agent (``mcts:...``, ``ppo:...``) plays through the AEC env
with the same accounting read from the record.

``analyze(...)`` returns the card as a dict (what ``--out`` writes as ``analysis.json``);
``plot_card`` draws ``analysis.png``: histograms of game length and of branching, and the
win rate by seat.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import labyrinth_env
from labyrinth_env.core import analyze_template as T
from labyrinth_env.core.contract import LOST, NO_SEAT, TRUNCATED, WON
from labyrinth_env.registry import check_output_folder

KERNEL_AGENTS = {"random": T.RANDOM, "heuristic": T.HEURISTIC}
ROW_CAPACITY = 1 << 18  # decision rows per kernel call (a game that does not fit starts the next call)
# the longest game a card plays (64 bytes a decision: 256 MB of rows); a game that has not
# ended by then (a ruleset whose games need not end, played with a limit too high) is refused
MAX_GAME_DECISIONS = 1 << 22
RATE_STEPS = 20_000  # random steps timed for the kernel's own speed
AGENT_SEED_MIX = 0x5DEECE66D  # the random agent's dice per game, apart from the game's


# --- arguments ----------------------------------------------------------------------------------
def check_setting(
    env_id: str, players: Sequence[int] | int | None, mixes: Sequence[Sequence[str] | str], games: int
) -> tuple:
    """The checked (spec, player counts, agent mixes, games); ``ValueError`` names what is
    wrong and what is allowed."""
    from labyrinth_env.agents import parse_agent_spec, split_agent_specs

    if env_id not in labyrinth_env.list_envs():
        raise ValueError(f"unknown env id {env_id!r}; available: {', '.join(labyrinth_env.list_envs())}")
    spec = labyrinth_env.get_spec(env_id)
    lo, hi = spec.players
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    if players is None:
        counts = list(range(lo, hi + 1))
    else:
        counts = [players] if isinstance(players, (int, np.integer)) else list(players)
        for n in counts:
            if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not lo <= n <= hi:
                raise ValueError(f"players {n!r} is not a player count of {env_id} ({lo}-{hi})")
    checked: list[tuple[str, ...]] = []
    for mix in mixes:
        specs = tuple(split_agent_specs(mix) if isinstance(mix, str) else (str(a).strip() for a in mix))
        if not specs or any(not a for a in specs):
            raise ValueError(f"an agent mix needs agent specs (e.g. random,heuristic), got {mix!r}")
        for a in specs:
            parse_agent_spec(a)
        for n in counts:
            if len(specs) > 1 and len(specs) != n:
                raise ValueError(
                    f"agents {','.join(specs)} ({len(specs)}) do not fit {n} players of {env_id}: "
                    f"give one agent for every seat, or one agent for all seats"
                )
        checked.append(specs)
    if not checked:
        raise ValueError("give at least one agent mix (e.g. --agents heuristic)")
    return spec, [int(n) for n in counts], checked, int(games)


# --- playing ----------------------------------------------------------------------------------------
def _seating(mix: Sequence[str], players: int, game: int) -> list[str]:
    """Seat ``p`` of game ``game``: one spec for all, or the mix rotated by the game index."""
    if len(mix) == 1:
        return [mix[0]] * players
    return [mix[(p + game) % players] for p in range(players)]


def _seeds(seed: int, players: int, games: int) -> tuple[np.ndarray, np.ndarray]:
    root = np.random.SeedSequence([seed, players])
    state = root.generate_state(2 * games, dtype=np.uint64)
    return state[:games], state[games:] ^ np.uint64(AGENT_SEED_MIX)


def play_kernel(
    spec: Any, options: np.ndarray, seeds: np.ndarray, kinds: np.ndarray, agent_seeds: np.ndarray, bar: Any = None
) -> tuple:
    """Every game in the kernel, in batches of whole games: (decision rows, log10
    arrangements per row, game rows, seconds in the kernel)."""
    loops = _bound(spec)
    states = spec.new_states(1)
    rows, infosets, game_rows = [], [], np.zeros((len(seeds), T.GAME_COLUMNS), dtype=np.int64)
    capacity = ROW_CAPACITY
    done = 0
    seconds = 0.0
    # no game: compiles (or loads) the loop, so the seconds below are play only
    loops.play_recorded(
        states,
        options,
        seeds[:0],
        kinds[:0],
        agent_seeds[:0],
        np.zeros((1, T.DECISION_COLUMNS), dtype=np.int64),
        np.zeros(1),
        np.zeros((0, T.GAME_COLUMNS), dtype=np.int64),
        0,
    )
    while done < len(seeds):
        decisions = np.zeros((capacity, T.DECISION_COLUMNS), dtype=np.int64)
        infoset = np.zeros(capacity)
        games = np.zeros((len(seeds) - done, T.GAME_COLUMNS), dtype=np.int64)
        start = time.perf_counter()
        played = loops.play_recorded(
            states, options, seeds[done:], kinds[done:], agent_seeds[done:], decisions, infoset, games, 0
        )
        seconds += time.perf_counter() - start
        if played == 0:
            if capacity >= MAX_GAME_DECISIONS:
                raise ValueError(_endless(spec.env_id, done, seeds[done]))
            # one game longer than the buffer: a larger one, the same game again
            capacity = min(capacity * 4, MAX_GAME_DECISIONS)
            continue
        used = int(games[:played, T.G_DECISIONS].sum())
        decisions = decisions[:used]
        decisions[:, T.D_GAME] += done
        rows.append(decisions)
        infosets.append(infoset[:used])
        game_rows[done : done + played] = games[:played]
        done += played
        if bar is not None:
            bar.update(played)
    return np.concatenate(rows), np.concatenate(infosets), game_rows, seconds


def _endless(env_id: str, game: int, seed: Any) -> str:
    return (
        f"{env_id}: game {game} (seed {int(seed)}) had not ended after {MAX_GAME_DECISIONS:,} decisions, the "
        "most a card plays in one game: give a lower max_turns (--max-turns)"
    )


def _bound(spec: Any) -> Any:
    from labyrinth_env.core.templates import bind

    return bind(T, spec, "analyze")


def play_external(
    env_id: str, spec: Any, options: dict[str, Any], mix: Sequence[str], seeds: np.ndarray, bar: Any = None
) -> tuple:
    """Every game through the AEC env with agents outside the kernel (search, trained
    policies), the same accounting read from the record after each step."""
    from labyrinth_env.agents import make_agent

    loops = _bound(spec)
    env = labyrinth_env.raw_env(env_id, **options)
    players = env.options.num_players
    agents: dict[str, Any] = {}
    rows: list[list[int]] = []
    infosets: list[float] = []
    game_rows = np.zeros((len(seeds), T.GAME_COLUMNS), dtype=np.int64)
    seen, public = np.zeros(2), np.zeros(2)
    seconds = 0.0
    for g, game_seed in enumerate(seeds):
        seating = _seating(mix, players, g)
        seat_agents = []
        for p, name in enumerate(seating):
            agent = agents.setdefault(f"{name}#{p}", make_agent(name, p))
            agent.reset(int(game_seed) % 2**31 + p)
            seat_agents.append(agent)
        start = time.perf_counter()
        env.reset(seed=int(game_seed))
        states = env.unwrapped._states
        s = states[0]
        first_row, numbers, draws, chance, first_seat = len(rows), 0, 0, 0, int(s["seat"])
        loops.unseen_one(states, NO_SEAT, public)
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if len(rows) - first_row >= MAX_GAME_DECISIONS:
                raise ValueError(_endless(env_id, g, game_seed))
            seat = env.agent_name_mapping[name]
            loops.unseen_one(states, seat, seen)
            if int(s["turn"]) == 0:
                first_seat = int(s["seat"])
            rows.append(
                [g, int(s["turn"]), seat, int(s["decision"]), int(obs["action_mask"].sum()), chance, int(seen[0])]
            )
            infosets.append(float(seen[1]))
            agent = seat_agents[seat]
            action = agent.act(obs, env.unwrapped.seat_view(name, model=getattr(agent, "uses_model", True)))
            dice, hidden = np.uint64(s["rng"][0]), public[0]
            env.step(action)
            drawn = loops.numbers_drawn(dice, np.uint64(s["rng"][0]))
            loops.unseen_one(states, NO_SEAT, public)
            revealed = max(0, int(hidden - public[0]))
            numbers += max(drawn, 0)
            draws += revealed
            chance = int(drawn != 0 or revealed > 0)
        seconds += time.perf_counter() - start
        outcome = int(s["outcome"])
        game_rows[g] = [
            int(s["winner"]) if outcome == WON else NO_SEAT,
            outcome,
            int(s["turn"]),
            len(rows) - first_row,
            numbers,
            draws,
            first_seat,
        ]
        if bar is not None:
            bar.update(1)
    decisions = np.asarray(rows, dtype=np.int64).reshape(-1, T.DECISION_COLUMNS)
    return decisions, np.asarray(infosets, dtype=float), game_rows, seconds


def kernel_rate(spec: Any, options: np.ndarray, seed: int, steps: int = RATE_STEPS) -> float:
    """Random legal steps per second of the kernel alone in this setting (one core)."""
    loops = _bound(spec)
    states = spec.new_states(1)
    loops.random_steps_rate(states, options, np.uint64(seed), 100)  # loaded, warm
    start = time.perf_counter()
    loops.random_steps_rate(states, options, np.uint64(seed), steps)
    return steps / max(time.perf_counter() - start, 1e-9)


# --- figures --------------------------------------------------------------------------------------
def _stats(values: np.ndarray) -> dict[str, float]:
    if len(values) == 0:
        return {"mean": math.nan, "median": math.nan, "p90": math.nan, "max": math.nan}
    v = np.asarray(values, dtype=float)
    return {
        "mean": float(v.mean()),
        "median": float(np.median(v)),
        "p90": float(np.percentile(v, 90)),
        "max": float(v.max()),
    }


def _rate(successes: int, trials: int) -> dict[str, Any]:
    from labyrinth_env.stats import wilson_interval

    lo, hi = wilson_interval(successes, trials)
    return {
        "wins": int(successes),
        "games": int(trials),
        "rate": successes / trials if trials else math.nan,
        "ci95": [lo, hi],
    }


def binomial_p_value(successes: int, trials: int, p: float) -> float:
    """Two-sided exact binomial test (scipy's ``binomtest``)."""
    if trials == 0:
        return math.nan
    from scipy.stats import binomtest

    return float(binomtest(int(successes), int(trials), p).pvalue)


def seat_p_value(wins: Sequence[int]) -> float:
    """Chi-square test that every seat wins equally often (games with a winner; nan with
    fewer than 5 winners expected per seat, where the test does not hold)."""
    total = sum(wins)
    if len(wins) < 2 or total < 5 * len(wins):
        return math.nan
    from scipy.stats import chisquare

    return float(chisquare(wins).pvalue)


def card_figures(
    spec: Any,
    players: int,
    decisions: np.ndarray,
    infoset: np.ndarray,
    games: np.ndarray,
    observation_size: int | None = None,
) -> dict[str, Any]:
    """The card's figures from the decision and game rows (see the module docstring);
    ``observation_size``: the env's for the options played (default: the kernel's largest,
    ``OBS_SIZE``; options such as Paths of Destiny's characters add to it)."""
    kernel = spec.kernel
    n_games = len(games)
    per_game = games[:, T.G_DECISIONS]
    # decisions per turn: rows grouped by (game, turn); their counts sum to each game's decisions
    keys = decisions[:, T.D_GAME] * (1 << 32) + decisions[:, T.D_TURN]
    _, per_turn = np.unique(keys, return_counts=True)
    legal = decisions[:, T.D_LEGAL]
    by_type: dict[str, Any] = {}
    for d in np.unique(decisions[:, T.D_DECISION]):
        sel = legal[decisions[:, T.D_DECISION] == d]
        name = kernel.DECISIONS[int(d)] if 0 <= d < len(kernel.DECISIONS) else str(int(d))
        by_type[name] = {"decisions": len(sel), "share": len(sel) / len(legal), **_stats(sel)}
    outcome = games[:, T.G_OUTCOME]
    countable = infoset[np.isfinite(infoset)]
    card: dict[str, Any] = {
        "players": players,
        "games": n_games,
        "length": {
            "decisions_per_game": _stats(per_game),
            "decisions_per_turn": _stats(per_turn),
            "turns_per_game": _stats(games[:, T.G_TURNS]),
            "truncated_share": float(np.mean(outcome == TRUNCATED)),
        },
        "branching": {
            "decisions": len(legal),
            **_stats(legal),
            "forced_share": float(np.mean(legal == 1)) if len(legal) else math.nan,
            "by_decision": by_type,
        },
        "chance": {
            "random_numbers_per_game": _stats(games[:, T.G_NUMBERS]),
            "draws_per_game": _stats(games[:, T.G_DRAWS]),
            "decisions_after_chance_share": float(decisions[:, T.D_CHANCE].mean()) if len(decisions) else math.nan,
        },
        "hidden": {
            "unseen_per_decision": _stats(decisions[:, T.D_UNSEEN]),
            "unseen_at_first_decision": _stats(decisions[np.r_[0, np.cumsum(per_game)[:-1]], T.D_UNSEEN])
            if n_games and len(decisions)
            else _stats(np.array([])),
            "infoset_log10": _stats(countable),
            "infoset_counted_share": float(len(countable) / len(infoset)) if len(infoset) else math.nan,
        },
        "sizes": {
            "observation": int(kernel.OBS_SIZE if observation_size is None else observation_size),
            "actions": int(kernel.NUM_ACTIONS),
            "state_bytes": int(kernel.STATE_DTYPE.itemsize),
        },
        "histograms": {
            "turns": np.bincount(games[:, T.G_TURNS]).tolist(),
            "legal": np.bincount(legal).tolist() if len(legal) else [],
        },
    }
    if spec.cooperative:
        card["team"] = {
            "won": _rate(int(np.sum(outcome == WON)), n_games),
            "lost": _rate(int(np.sum(outcome == LOST)), n_games),
            "truncated": _rate(int(np.sum(outcome == TRUNCATED)), n_games),
        }
        return card
    winner = games[:, T.G_WINNER]
    first = games[:, T.G_FIRST]
    by_seat = [_rate(int(np.sum(winner == p)), n_games) for p in range(players)]
    order = np.where(winner >= 0, (winner - first) % players, -1)
    by_order = [_rate(int(np.sum(order == k)), n_games) for k in range(players)]
    decided = int(np.sum(winner >= 0))
    first_wins = int(np.sum(order == 0))
    card["seats"] = {
        "by_seat": by_seat,
        "equal_seats_p_value": seat_p_value([r["wins"] for r in by_seat]),
        "by_turn_order": by_order,
        "no_winner_share": float(np.mean(winner < 0)),
        "truncated_share": float(np.mean(outcome == TRUNCATED)),
        "decided_games": decided,
        "first_player": {
            **_rate(first_wins, decided),
            "fair_share": 1.0 / players,
            "edge": first_wins / decided - 1.0 / players if decided else math.nan,
            "p_value": binomial_p_value(first_wins, decided, 1.0 / players),
        },
    }
    return card


def _agent_rates(mix: Sequence[str], players: int, games: np.ndarray) -> dict[str, Any] | None:
    """Per agent of a mixed seating: its wins over the seats it held."""
    if len(mix) == 1:
        return None
    wins: dict[str, int] = dict.fromkeys(mix, 0)
    seats: dict[str, int] = dict.fromkeys(mix, 0)
    for g, row in enumerate(games):
        seating = _seating(mix, players, g)
        for p, name in enumerate(seating):
            seats[name] += 1
            wins[name] += int(row[T.G_WINNER] == p)
    return {name: _rate(wins[name], seats[name]) for name in mix}


# --- the whole card ----------------------------------------------------------------------------------
def analyze(
    env_id: str,
    players: Sequence[int] | int | None = None,
    agents: Sequence[Sequence[str] | str] = ("heuristic",),
    games: int = 100,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """The card of ``env_id``: one entry per player count and agent mix (``agents``: a list
    of mixes, each one spec for all seats or one per seat). ``options`` are further env
    options (``max_turns``, variants). See the module docstring for the figures."""
    from tqdm import tqdm

    from labyrinth_env.core.rng import python_seed
    from labyrinth_env.progress import first_use

    if isinstance(agents, str):
        agents = [agents]
    spec, counts, mixes, games = check_setting(env_id, players, agents, games)
    seed = python_seed(seed)
    options = dict(options or {})
    settings = []
    total = len(counts) * len(mixes) * games
    bar = tqdm(total=total, desc=f"analyze {env_id}", unit="game", disable=not progress, file=sys.stderr)
    try:
        for n in counts:
            env = labyrinth_env.raw_env(env_id, **{**options, "num_players": n})
            vec = env.options_vector()
            seeds, agent_seeds = _seeds(seed, n, games)
            with first_use(("analyze", spec.env_id), f"{spec.title} analysis loops"):
                rate = kernel_rate(spec, vec, seed)
            for mix in mixes:
                bar.set_postfix_str(f"{n} players, {','.join(mix)}")
                in_kernel = all(a in KERNEL_AGENTS for a in mix)
                if in_kernel:
                    kinds = np.array(
                        [[KERNEL_AGENTS[a] for a in _seating(mix, n, g)] for g in range(games)], dtype=np.int64
                    )
                    with first_use(("analyze-heuristic", spec.env_id), f"{spec.title} analysis loops"):
                        decisions, infoset, game_rows, seconds = play_kernel(spec, vec, seeds, kinds, agent_seeds, bar)
                else:
                    decisions, infoset, game_rows, seconds = play_external(
                        env_id, spec, {**options, "num_players": n}, mix, seeds, bar
                    )
                card = card_figures(spec, n, decisions, infoset, game_rows, observation_size=env.obs_size)
                card["agents"] = list(mix)
                card["seating"] = "one agent in every seat" if len(mix) == 1 else "rotated every game"
                card["played"] = "in the kernel" if in_kernel else "through the AEC env"
                card["sizes"]["kernel_steps_per_s"] = rate
                card["sizes"]["analysis_decisions_per_s"] = len(decisions) / max(seconds, 1e-9)
                agent_rates = _agent_rates(mix, n, game_rows)
                if agent_rates is not None:
                    card["by_agent"] = agent_rates
                settings.append(card)
    finally:
        bar.close()
    return {
        "env_id": spec.env_id,
        "title": spec.title,
        "utility": spec.utility,
        "players": list(spec.players),
        "decisions": list(spec.kernel.DECISIONS),
        "games": games,
        "seed": seed,
        "options": options,
        "settings": settings,
    }


# --- output ---------------------------------------------------------------------------------------
def _f(x: float, digits: int = 1) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _ci(rate: dict[str, Any]) -> str:
    lo, hi = rate["ci95"]
    return f"{_f(rate['rate'], 3)} ({lo:.3f}-{hi:.3f})"


def _spread(stats: dict[str, float], digits: int = 1, keys: Sequence[str] = ("median", "max")) -> str:
    """``mean (median m, max x)`` of a ``_stats`` dict."""
    rest = ", ".join(f"{k} {_f(stats[k], 0)}" for k in keys)
    return f"{_f(stats['mean'], digits)} ({rest})"


def card_rows(card: dict[str, Any]) -> list[tuple[str, str]]:
    """One setting as (figure, value) rows for the tables and the Markdown card."""
    ln, br, ch, hi, sz = card["length"], card["branching"], card["chance"], card["hidden"], card["sizes"]
    rows = [
        ("decisions per game", _spread(ln["decisions_per_game"])),
        ("decisions per turn", _spread(ln["decisions_per_turn"], 2, ("max",))),
        ("turns per game", _spread(ln["turns_per_game"], 1, ("median", "p90", "max"))),
        ("truncated", f"{ln['truncated_share']:.1%}"),
        (
            "legal actions per decision",
            f"{_spread(br, 1, ('median', 'p90', 'max'))}; forced (one legal action) {br['forced_share']:.0%}",
        ),
    ]
    for name, d in br["by_decision"].items():
        rows.append((f"  {name}", f"{d['share']:.0%} of decisions: {_spread(d)}"))
    unseen = hi["unseen_per_decision"]
    infoset = hi["infoset_log10"]
    rows += [
        ("random numbers per game", _f(ch["random_numbers_per_game"]["mean"])),
        ("draws and reveals per game", _f(ch["draws_per_game"]["mean"])),
        ("decisions after a chance event", f"{ch['decisions_after_chance_share']:.1%}"),
        (
            "unseen components per decision",
            f"{_spread(unseen)}; at the first decision {_f(hi['unseen_at_first_decision']['mean'])}",
        ),
        (
            "information set, log10 arrangements",
            f"{_f(infoset['mean'])} (max {_f(infoset['max'])}); counted at {hi['infoset_counted_share']:.1%} "
            "of decisions",
        ),
    ]
    if "seats" in card:
        seats = card["seats"]
        by_seat = "; ".join(f"{p}: {_ci(r)}" for p, r in enumerate(seats["by_seat"]))
        rows.append(("win rate by seat", f"{by_seat}; equal seats p = {_f(seats['equal_seats_p_value'], 3)}"))
        rows.append(
            ("win rate by turn order", "; ".join(f"#{k + 1}: {_ci(r)}" for k, r in enumerate(seats["by_turn_order"])))
        )
        fp = seats["first_player"]
        edge = fp["edge"] * 100 if not math.isnan(fp["edge"]) else math.nan
        rows.append(
            (
                "first player's edge",
                f"{_f(edge)} points over {fp['fair_share']:.3f} (p = {_f(fp['p_value'], 3)}, "
                f"{fp['games']} games with a winner)",
            )
        )
        rows.append(("no winner", f"{seats['no_winner_share']:.1%}"))
    if "team" in card:
        rows.append(("team won / lost", f"{_ci(card['team']['won'])} / {_ci(card['team']['lost'])}"))
    if "by_agent" in card:
        rows.append(("win rate by agent", "; ".join(f"{a}: {_ci(r)}" for a, r in card["by_agent"].items())))
    rows += [
        ("observation / actions / state", f"{sz['observation']} floats / {sz['actions']} / {sz['state_bytes']} bytes"),
        ("kernel steps/s (random play)", f"{sz['kernel_steps_per_s']:,.0f}"),
        ("analysis decisions/s", f"{sz['analysis_decisions_per_s']:,.0f} ({card['played']})"),
    ]
    return rows


def print_card(result: dict[str, Any], console: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    for card in result["settings"]:
        table = Table(
            title=f"{result['env_id']}: {card['players']} players, {','.join(card['agents'])} "
            f"({card['seating']}), {card['games']} games, seed {result['seed']}"
        )
        table.add_column("figure", style="bold")
        table.add_column("value", overflow="fold")
        for name, value in card_rows(card):
            table.add_row(name, value)
        console.print(table)


def card_markdown(result: dict[str, Any]) -> str:
    """The settings as Markdown tables (what ``docs/games/<ruleset>.md`` quotes)."""
    out = []
    for card in result["settings"]:
        out.append(
            f"**{card['players']} players, {','.join(card['agents'])}** ({card['seating']}, {card['games']} games)\n"
        )
        out.append("| figure | value |\n|---|---|")
        for name, value in card_rows(card):
            shown = "&nbsp;&nbsp;" + name.strip() if name.startswith("  ") else name
            out.append(f"| {shown} | {value} |")
        out.append("")
    return "\n".join(out)


def plot_card(result: dict[str, Any], path: str | Path) -> Path | None:
    """Histograms of game length (turns) and of legal actions per decision, and the win
    rate by seat with Wilson intervals, one line per setting; None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for i, card in enumerate(result["settings"]):
        label = f"{card['players']}p {','.join(card['agents'])}"
        colour = f"C{i % 10}"
        turns = np.asarray(card["histograms"]["turns"], dtype=float)
        legal = np.asarray(card["histograms"]["legal"], dtype=float)
        if turns.sum():
            # log-spaced bins: games of a few dozen turns and games cut at max_turns side by side
            edges = np.unique(np.geomspace(1, len(turns) + 1, 40).astype(int))
            counts = np.add.reduceat(np.r_[turns, 0][: edges[-1]], edges[:-1] - 1) if len(edges) > 1 else turns
            axes[0].step(edges[: len(counts)], counts / turns.sum(), where="post", label=label, color=colour)
        if legal.sum():
            axes[1].step(np.arange(len(legal)), legal / legal.sum(), where="mid", label=label, color=colour)
        if "seats" in card and card["seats"]["decided_games"]:
            rates = [r["rate"] for r in card["seats"]["by_seat"]]
            lo = [r["rate"] - r["ci95"][0] for r in card["seats"]["by_seat"]]
            hi = [r["ci95"][1] - r["rate"] for r in card["seats"]["by_seat"]]
            axes[2].errorbar(
                np.arange(len(rates)), rates, yerr=[lo, hi], marker="o", capsize=3, label=label, color=colour
            )
        elif "team" in card:
            t = card["team"]["won"]
            axes[2].errorbar(
                [card["players"]],
                [t["rate"]],
                yerr=[[t["rate"] - t["ci95"][0]], [t["ci95"][1] - t["rate"]]],
                marker="o",
                capsize=3,
                label=label,
            )
    axes[0].set(title="game length", xlabel="turns", ylabel="share of games")
    axes[0].set_xscale("log")
    axes[1].set(title="branching", xlabel="legal actions per decision", ylabel="share of decisions")
    axes[1].set_xscale("symlog")
    if result["utility"] == "cooperative":
        axes[2].set(title="team win rate (Wilson 95%)", xlabel="players", ylabel="win rate", ylim=(0, 1))
    else:
        axes[2].set(title="win rate by seat (Wilson 95%)", xlabel="seat", ylabel="win rate")
        axes[2].set_ylim(0, 1)
        axes[2].xaxis.get_major_locator().set_params(integer=True)
    for ax in axes:
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    fig.suptitle(f"{result['env_id']}: {result['games']} games per setting, seed {result['seed']}")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# --- command line ------------------------------------------------------------------------------------
def _players_arg(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--players must be a player count or a comma-separated list of them, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    from labyrinth_env.options import option_assignment

    parser = argparse.ArgumentParser(prog="labyrinth analyze", description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", required=True, help="env id (labyrinth envs)")
    parser.add_argument("--players", default=None, help="player count(s), comma-separated (default: every count)")
    parser.add_argument(
        "--agents",
        action="append",
        default=None,
        help="an agent mix: one spec for every seat or one per seat, comma-separated (repeat for more mixes; "
        "default heuristic)",
    )
    parser.add_argument("--games", type=int, default=100, help="games per player count and mix")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-turns", type=int, default=None, help="the env's max_turns (default: the env's)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="any env option")
    parser.add_argument("--out", type=Path, default=None, help="write analysis.json and analysis.png here")
    parser.add_argument("--markdown", action="store_true", help="print the card as Markdown tables too")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    options: dict[str, Any] = dict(option_assignment(text) for text in args.option)
    if args.max_turns is not None:
        options["max_turns"] = args.max_turns
    players = None if args.players is None else _players_arg(args.players)
    if args.out is not None:
        check_output_folder(args.out, "--out")  # before the games, not after them
    result = analyze(
        args.env, players, args.agents or ["heuristic"], args.games, args.seed, options, progress=not args.no_progress
    )
    result["command"] = "labyrinth analyze " + " ".join(sys.argv[2:] if argv is None else argv)
    print_card(result)
    if args.markdown:
        print(card_markdown(result))
    if args.out is not None:
        try:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / "analysis.json").write_text(json.dumps(result, indent=1))
            png = plot_card(result, args.out / "analysis.png")
        except OSError as exc:
            raise ValueError(f"--out {str(args.out)!r} cannot be written: {exc.strerror or exc}") from None
        print(f"written: {args.out / 'analysis.json'}" + (f", {png}" if png else " (no matplotlib: no picture)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
