"""labyrinth-env: PettingZoo environments for labyrinth board games, on numba kernels.

>>> import labyrinth_env
>>> env = labyrinth_env.make("team_edition_v0", num_players=2)
"""

from labyrinth_env.registry import list_envs, load_replay, make, raw_env

__all__ = ["list_envs", "load_replay", "make", "raw_env"]
__version__ = "0.1.0"
