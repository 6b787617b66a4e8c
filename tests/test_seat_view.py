"""What tournaments and evaluations hand their agents (issue 22, item 11): a ``SeatView``
with the seat's observation, its mask, the public log and a forward model over records
determinized for the seat; never the env, its record, its dice or other hands."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.agents import make_agent
from labyrinth_env.agents.base import Agent, legal_actions
from labyrinth_env.agents.evaluate import play_game
from labyrinth_env.seat_view import ForwardModel, SeatView
from labyrinth_env.spec import RulesetSpec

# every built-in ruleset with hidden information worth hiding, at a player count with rivals
GAMES = {
    "labyrinthos_v2": {"num_players": 3},
    "labyrinx_v1": {"num_players": 3, "character_powers": True},
    "paths_of_destiny_2011_v6": {"num_players": 3},
    "paths_of_destiny_3e_v3": {"num_players": 3},
    "team_edition_v2": {"num_players": 2, "variant": "standard"},
}
SMALL_MCTS = "mcts:simulations=12,rollout_turns=1,rollout_steps=30"


def _positions(env_id: str, seed: int, every: int) -> tuple[list[int], list[list[int]]]:
    """A random game's actions, and the action prefixes that reach every ``every``-th
    decision with a real choice (up to six)."""
    env = labyrinth_env.raw_env(env_id, **GAMES[env_id])
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    prefixes: list[list[int]] = []
    choices = 0
    while env.agents and not env.terminations[env.agent_selection] and len(prefixes) < 6:
        legal = env.legal_actions()
        if len(legal) > 1:
            choices += 1
            if choices % every == 0:
                prefixes.append(list(env.actions_taken))
        env.step(int(rng.choice(legal)))
    return list(env.actions_taken), prefixes


def _replayed(env_id: str, seed: int, actions: list[int]):
    env = labyrinth_env.raw_env(env_id, **GAMES[env_id])
    env.reset(seed=seed)
    for a in actions:
        env.step(a)
    return env


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through data: attributes (slots, ``__dict__``,
    properties), container items, mapping keys and values, array bases. Code (functions,
    methods, classes, modules) and the registered ruleset specs (the rules, shared by
    every game) are leaves: their globals are the interpreter's, not the view's."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if obj is None or isinstance(obj, (str, bytes, int, float, complex, bool, np.generic)):
            continue
        if isinstance(obj, (ModuleType, type, FunctionType, BuiltinFunctionType, MethodType, RulesetSpec)):
            continue
        if isinstance(obj, np.ndarray):
            if obj.base is not None:
                stack.append(obj.base)
            continue
        if isinstance(obj, Mapping):
            stack.extend(obj.keys())
            stack.extend(obj.values())
            continue
        if isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
            continue
        names = set(getattr(obj, "__dict__", {}))
        for cls in type(obj).__mro__:
            slots = cls.__dict__.get("__slots__", ())
            names.update([slots] if isinstance(slots, str) else slots)
            names.update(k for k, v in cls.__dict__.items() if isinstance(v, property))
        for name in names:
            with contextlib.suppress(AttributeError):
                stack.append(getattr(obj, name))
    return list(seen.values())


@pytest.mark.parametrize("env_id", sorted(GAMES))
def test_a_view_has_no_path_to_the_record_the_dice_or_other_hands(env_id):
    _, prefixes = _positions(env_id, seed=3, every=5)
    assert len(prefixes) >= 3
    for prefix in [[], *prefixes]:
        env = _replayed(env_id, 3, prefix)
        truth = env._states.copy()
        view = env.seat_view()
        assert isinstance(view, SeatView) and isinstance(view.model, ForwardModel)
        # the obvious ways in are not there
        for path in ("env", "unwrapped", "state", "_states", "rng"):
            assert not hasattr(view, path), path
            assert not hasattr(view.model, path), path
        found = _reachable(view)
        records = []
        for obj in found:
            assert obj is not env, "the view reaches the env"
            if isinstance(obj, np.ndarray):
                assert not np.shares_memory(obj, env._states), "the view shares memory with the game's record"
                if obj.dtype == env._states.dtype:
                    records.append(obj)
        assert records, "the forward model holds a sample of the position"
        samples = [*(r.copy() for r in records), view.model.sample(1), view.model.sample(2)]
        for rec in samples:
            assert rec.tobytes() != truth.tobytes(), "a record in the view is the game's own"
            assert rec[0]["rng"][0] != truth[0]["rng"][0], "the view holds the game's dice"
            # the sample is the same position for the seat: it sees and may do the same
            seen = np.zeros(env.obs_size, dtype=np.float32)
            env.batch.observe_one(rec, view.seat, seen)
            assert np.array_equal(seen, view.observation)
            assert np.array_equal(view.model.legal_mask(rec), view.action_mask)
        assert env._states.tobytes() == truth.tobytes()  # building a view changes nothing


def _other_hands(states: np.ndarray, seat: int) -> list[np.ndarray]:
    """The other seats' cards in hand (Labyrinthos: a count per card type)."""
    s = states[0]
    return [np.asarray(s["hand"][p]).copy() for p in range(int(s["num_players"])) if p != seat]


def _events(log) -> str:
    """A log as JSON text (read-only mappings and tuples compare equal to dicts and lists)."""
    return json.dumps([dict(e) for e in log], sort_keys=True)


def test_other_hands_in_a_view_are_dealt_anew():
    # Labyrinthos holds Desperation cards in hand: the view's samples deal the other hands
    # anew from the unseen cards (the seat's own hand stays); some other hand differs.
    env_id = "labyrinthos_v2"
    _, prefixes = _positions(env_id, seed=5, every=4)
    differed = 0
    for prefix in prefixes:
        env = _replayed(env_id, 5, prefix)
        seat = env.agent_name_mapping[env.agent_selection]
        view = env.seat_view()
        truth = _other_hands(env._states, seat)
        own = np.asarray(env._states[0]["hand"][seat]).copy()
        for seed in range(4):
            sample = view.model.sample(seed)
            assert np.array_equal(np.asarray(sample[0]["hand"][seat]), own)
            theirs = _other_hands(sample, seat)
            differed += any(not np.array_equal(a, b) for a, b in zip(theirs, truth, strict=True))
    assert differed > 0


def _agents(env_id: str) -> list[str]:
    have_heuristic = labyrinth_env.get_spec(env_id).heuristic_module is not None
    return [*(["heuristic"] if have_heuristic else []), "random", SMALL_MCTS]


@pytest.mark.parametrize("env_id", sorted(GAMES))
def test_two_games_differing_only_in_hidden_information_give_equal_views(env_id):
    # Game B has game A's public history (the same seed and actions) and A's position
    # with everything the acting seat cannot know drawn anew: the seat's views must be
    # equal, member by member, and so must every shipped agent's choice.
    _, prefixes = _positions(env_id, seed=8, every=4)
    assert len(prefixes) >= 3
    compared = 0
    for prefix in prefixes:
        a = _replayed(env_id, 8, prefix)
        b = _replayed(env_id, 8, prefix)
        seat = a.agent_name_mapping[a.agent_selection]
        a.kernel.determinize(b._states[0], seat, np.uint64(1234 + len(prefix)))
        assert a._states.tobytes() != b._states.tobytes()  # the hidden part really differs
        va, vb = a.seat_view(), b.seat_view()
        assert np.array_equal(va.observation, vb.observation)
        assert np.array_equal(va.action_mask, vb.action_mask)
        assert _events(va.log) == _events(vb.log)
        assert va.seat == vb.seat == seat
        # what a person in that seat is shown (issue 37): the terminal's and the page's
        # private lines, the picture drawn for the seat, the text board, the log's sentences
        assert a.private_lines(seat) == b.private_lines(seat)
        assert a.to_svg(viewer=seat) == b.to_svg(viewer=seat)
        assert a.render_text() == b.render_text()
        assert [e["text"] for e in va.log] == [e["text"] for e in vb.log]
        for seed in (0, 7, 2**63):
            assert va.model.sample(seed).tobytes() == vb.model.sample(seed).tobytes()
        obs = va.as_observation()
        for spec in _agents(env_id):
            choices = []
            for view in (va, vb):
                agent = make_agent(spec, seed=11)
                choices.append(agent.act(obs, view))
                if spec == SMALL_MCTS:
                    choices.append(agent.last_visits.tolist())
            assert choices[: len(choices) // 2] == choices[len(choices) // 2 :], spec
        compared += 1
    assert compared >= 3


class _Spy(Agent):
    """Records what it is handed and plays randomly."""

    def __init__(self) -> None:
        self.handed: list[object] = []
        self.rng = np.random.default_rng(0)

    def act(self, observation, view=None):
        self.handed.append(view)
        legal = legal_actions(observation)
        return int(legal[self.rng.integers(legal.size)])


def test_games_and_tournaments_hand_agents_a_view_not_the_env():
    env = labyrinth_env.make("paths_of_destiny_3e_v3", num_players=2, max_turns=6)
    spies = [_Spy(), _Spy()]
    play_game(env, spies, seed=4)
    handed = spies[0].handed + spies[1].handed
    assert handed and all(isinstance(v, SeatView) for v in handed)
    assert {v.seat for v in spies[0].handed} == {0} and {v.seat for v in spies[1].handed} == {1}
    # the log a view holds is the public log so far, read-only
    last = spies[0].handed[-1]
    assert _events(last.log) == json.dumps(env.unwrapped.game_log[: len(last.log)], sort_keys=True)
    with pytest.raises(TypeError):
        last.log[0]["type"] = "changed"  # type: ignore[index]
    with pytest.raises(ValueError):
        last.observation[0] = 1.0
    with pytest.raises(ValueError):
        last.action_mask[0] = 1


def test_agents_given_the_env_play_as_given_its_view():
    # Research code may still pass the env: agents then use its view, so they play the same.
    env = labyrinth_env.raw_env("paths_of_destiny_3e_v3", num_players=2)
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)
    for spec in ("heuristic", SMALL_MCTS):
        via_env = make_agent(spec, seed=3).act(obs, env)
        via_view = make_agent(spec, seed=3).act(obs, env.seat_view())
        assert via_env == via_view


class _Vandal(Agent):
    """Chooses as ``_Spy`` does (from the mask, before touching anything), then tries to
    change everything it was handed: it appends to every list, writes into every dict and
    mapping, makes every array writable and overwrites it, and sets every attribute it
    can reach from the view and the observation dict to None."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)
        self.attempts = 0
        self.changed = 0

    def act(self, observation, view=None):
        legal = legal_actions(observation)
        action = int(legal[self.rng.integers(legal.size)])
        for obj in _reachable((observation, view)):
            self.attempts += 1
            try:
                if isinstance(obj, list):
                    obj.append({"type": "start_turn", "seat": 0})
                elif isinstance(obj, dict):
                    obj["type"] = "forged"
                elif isinstance(obj, Mapping):
                    obj["type"] = "forged"  # type: ignore[index]
                elif isinstance(obj, np.ndarray):
                    obj.setflags(write=True)
                    obj[...] = 1
                elif hasattr(obj, "__slots__") or hasattr(obj, "__dict__"):
                    for name in [*getattr(type(obj), "__slots__", ()), *getattr(obj, "__dict__", {})]:
                        setattr(obj, name, None)
                else:
                    continue
                self.changed += 1
            except (TypeError, ValueError, AttributeError):
                pass
        return action


def test_an_agent_that_changes_what_it_was_handed_changes_nothing_in_the_game(tmp_path):
    # issue 32, item 2: the view's log was the env's live list of event dicts, so an agent
    # appending to it made play_game count other turns and broke the env's saved replay.
    env_id, options = "paths_of_destiny_3e_v3", {"num_players": 2, "max_turns": 6}
    honest = labyrinth_env.make(env_id, **options)
    expected = play_game(honest, [_Spy(), _Spy()], seed=4)
    vandals = [_Vandal(), _Vandal()]
    env = labyrinth_env.make(env_id, **options)
    got = play_game(env, vandals, seed=4)
    assert sum(v.changed for v in vandals) > 0  # it did change its own copies
    assert got == expected
    assert env.unwrapped.game_log == honest.unwrapped.game_log
    assert env.unwrapped.replay_dict() == honest.unwrapped.replay_dict()
    env.unwrapped.save_replay(tmp_path / "game.json")
    assert labyrinth_env.load_replay(tmp_path / "game.json").game_log == honest.unwrapped.game_log
