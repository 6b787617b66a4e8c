"""labyrinth-env: PettingZoo environments for labyrinth board games, on numba kernels.

>>> import labyrinth_env
>>> env = labyrinth_env.make("team_edition_v0", num_players=2)

Importing the package also registers every env with Gymnasium (``gymnasium.make`` /
``make_vec("labyrinth_env/team_edition-v0")``) and PettingZoo (``pettingzoo.make("aec",
"labyrinth_env/team_edition-v0")``); see ``registry.register_envs``.
"""

from labyrinth_env.registry import list_envs, load_replay, make, raw_env, register_envs

register_envs()

__all__ = ["list_envs", "load_replay", "make", "raw_env"]
__version__ = "0.1.0"
