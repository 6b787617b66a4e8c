"""Package layout (the rest of the build is in pyproject.toml).

The repository keeps the agents and the benchmarks in the top-level folders ``agents/`` and
``benchmarks/``; they install as ``labyrinth_env.agents`` and ``labyrinth_env.benchmarks``,
so no top-level package with a generic name reaches site-packages. pyproject.toml alone
cannot map a folder into a package and also find the ruleset packages by themselves
(a new ruleset folder needs no packaging line).
"""

from setuptools import find_packages, setup

MAPPED = {"labyrinth_env.agents": "agents", "labyrinth_env.benchmarks": "benchmarks"}

setup(packages=[*find_packages(include=["labyrinth_env", "labyrinth_env.*"]), *MAPPED], package_dir=MAPPED)
