"""Every ruleset as an OpenSpiel game (``pip install open_spiel``; the ``[peers]`` extra).

``labyrinth_env.openspiel.register()`` (called on import) registers each ruleset with
pyspiel under ``labyrinth_<name>`` (``labyrinth_paths_of_destiny_3e``), so OpenSpiel's
own tools load and play it::

    import pyspiel
    import labyrinth_env.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("labyrinth_team_edition", {"num_players": 2})

Game parameters are the ruleset's options whose values are ints, floats, bools or
strings (``num_players``, ``max_turns``, ``variant``, ...), plus ``seed``: the games a game
object deals, one after another, are drawn from it.

Chance is **sampled-stochastic**: the kernel throws its dice and draws its cards inside a
step, from the RNG in the game's record, so a state has no chance nodes and a clone
throws the same dice as the original. OpenSpiel's MCTS on clones therefore sees the
future dice and the hidden components (it is a perfect-information search here, as with
any sampled-stochastic game); ``resample_from_infostate`` gives a search the seat's view:
the hidden part (face-down components, deck orders, other hands, the RNG) dealt again by
the ruleset's ``determinize``, as the package's own MCTS does. Information state strings
are the seat's observation (these games' observations carry the public memory the
rulebooks allow, not a full history: imperfect recall).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np
import pyspiel
from numba import njit

import labyrinth_env
from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.spec import RulesetSpec

PREFIX = "labyrinth_"
# A bound OpenSpiel needs for its tables; every ruleset ends far sooner (max_turns, the
# kernels' own caps).
MAX_GAME_LENGTH = 1_000_000
PARAMETER_TYPES = (bool, int, float, str)


def short_name(spec: RulesetSpec) -> str:
    return PREFIX + spec.name


def _default_options(spec: RulesetSpec) -> dict[str, Any]:
    """The ruleset's options that OpenSpiel parameters can carry, with their defaults."""
    env = labyrinth_env.raw_env(spec.env_id)
    out = {}
    for field in dataclasses.fields(env.options):
        value = getattr(env.options, field.name)
        if value is None and field.name == "max_turns":
            value = 0  # OpenSpiel parameters have no None: 0 is "no limit"
        if isinstance(value, PARAMETER_TYPES):
            out[field.name] = value
    return out


class LabyrinthGame(pyspiel.Game):
    """One ruleset with fixed options, dealing a new game (seed) for each initial state."""

    spec: RulesetSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.seed = int(params.pop("seed", 0))
        defaults = _default_options(self.spec)
        unknown = sorted(set(params) - set(defaults))
        if unknown:
            raise ValueError(
                f"{short_name(self.spec)}: unknown parameter(s) {unknown}; allowed: {sorted(defaults)}, seed"
            )
        options = {**defaults, **params}
        if options.get("max_turns") == 0:
            options["max_turns"] = None
        self.options = {k: v for k, v in options.items() if defaults.get(k) != v or k == "num_players"}
        template = labyrinth_env.raw_env(self.spec.env_id, **self.options)  # validates the options
        n = template.options.num_players
        self.num_players_ = n
        cooperative = self.spec.cooperative
        game_type = _game_type(self.spec)
        info = pyspiel.GameInfo(
            num_distinct_actions=template.kernel.NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None if cooperative else 0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, {**{k: v for k, v in options.items() if v is not None}, "seed": self.seed})
        self._template = template
        self._deals = np.random.default_rng(self.seed)
        self.observation_size = template.obs_size

    def new_initial_state(self) -> LabyrinthState:
        env = copy.deepcopy(self._template)
        env.reset(seed=int(self._deals.integers(1 << 62)))
        return LabyrinthState(self, env)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LabyrinthObserver:
        return LabyrinthObserver(self.observation_size)

    def __reduce__(self) -> tuple:
        # pyspiel pickles a game as its string, which only a process that registered the
        # games can load: this module's loader registers them on unpickling
        return (_load_game, (self.get_type().short_name, self.get_parameters()))


class LabyrinthState(pyspiel.State):
    """A game in progress: the AEC env (``env``) underneath, stepped by ``apply_action``."""

    def __init__(self, game: LabyrinthGame, env: LabyrinthAECEnv) -> None:
        super().__init__(game)
        self.env = env

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.env.agent_name_mapping[self.env.agent_selection]

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.current_player():
            return []
        return self.env.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.env.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.env.action_to_str(int(action))

    def is_terminal(self) -> bool:
        env = self.env
        return int(env.record["outcome"]) != 0

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.env.options.num_players
        return [float(r) for r in self.env._returns[: self.env.options.num_players]]

    def observation_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return _observation(self.env, seat).tobytes().hex()

    def information_state_string(self, player: int | None = None) -> str:
        return self.observation_string(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """None: the bridge has no chance nodes (chance is sampled inside the steps, see the
        module docstring), so no state is one and this list is empty."""
        return []

    def __reduce__(self) -> tuple:
        # pyspiel pickles a state with serialize_game_and_state, which asks a sampled-stochastic
        # game for its RNG state, a C++ method a Python game cannot provide; the state's own
        # serialize() (its history and its env, pickled) needs none
        game = self.get_game()
        return (_load_state, (game.get_type().short_name, game.get_parameters(), self.serialize()))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LabyrinthState:
        """A state the seat cannot tell from this one: the hidden part dealt again."""
        clone = LabyrinthState(self.get_game(), copy.deepcopy(self.env))
        seed = np.uint64(int(probability_sampler() * (1 << 62)))
        _determinize(self.env.kernel.determinize, clone.env._states, int(player_id), seed)
        return clone

    def __str__(self) -> str:
        return self.env.render_text()


class LabyrinthObserver:
    """OpenSpiel's PyObserver: the seat's observation vector (no hidden information)."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: LabyrinthState, player: int) -> None:
        self.tensor[:] = _observation(state.env, player)

    def string_from(self, state: LabyrinthState, player: int) -> str:
        return state.observation_string(player)


def _load_game(name: str, params: dict[str, Any]) -> LabyrinthGame:
    """A game from its short name and parameters (pickle's way back; registers the games)."""
    register()
    return pyspiel.load_game(name, params)


def _load_state(name: str, params: dict[str, Any], text: str) -> LabyrinthState:
    """A state from its game and ``serialize()`` text (pickle's way back)."""
    return _load_game(name, params).deserialize_state(text)


def _observation(env: LabyrinthAECEnv, player: int) -> np.ndarray:
    return env.observation_of(env._states, int(player))


@njit
def _determinize_record(determinize, states, seat, seed):
    determinize(states[0], seat, seed)


def _determinize(determinize: Any, states: np.ndarray, seat: int, seed: np.uint64) -> None:
    _determinize_record(determinize, states, seat, seed)


def _game_type(spec: RulesetSpec) -> pyspiel.GameType:
    defaults = _default_options(spec)
    return pyspiel.GameType(
        short_name=short_name(spec),
        long_name=f"labyrinth-env {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.IDENTICAL if spec.cooperative else pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.players[1],
        min_num_players=spec.players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**defaults, "seed": 0},
    )


def register() -> list[str]:
    """Register every ruleset with pyspiel (again is harmless); their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for spec in labyrinth_env.specs():
        name = short_name(spec)
        names.append(name)
        if name in registered:
            continue
        game_class = type(f"{spec.name.title().replace('_', '')}Game", (LabyrinthGame,), {"spec": spec})
        pyspiel.register_game(_game_type(spec), game_class)
    return names


GAMES = register()
