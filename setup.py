"""Package layout (the rest of the build is in pyproject.toml).

The repository keeps the agents and the benchmarks in the top-level folders ``agents/`` and
``benchmarks/``; they install as ``labyrinth_env.agents`` and ``labyrinth_env.benchmarks``,
so no top-level package with a generic name reaches site-packages. pyproject.toml alone
cannot map a folder into a package and also find the ruleset packages by themselves
(a new ruleset folder needs no packaging line).
"""

from setuptools import find_packages, setup

MAPPED = {"labyrinth_env.agents": "agents", "labyrinth_env.benchmarks": "benchmarks"}

# the shipped self-play networks are data in a folder of their own (no __init__.py): named
# here, or setuptools warns that it would leave out a folder Python can import
DATA_PACKAGES = ["labyrinth_env.agents.checkpoints"]

setup(
    packages=[*find_packages(include=["labyrinth_env", "labyrinth_env.*"]), *MAPPED, *DATA_PACKAGES],
    package_dir=MAPPED,
)
