"""Kernels and tables shared by every ruleset: the kernel contract, RNG and dice, board
geometry, tile rotation, reachability, the fixed-width event buffer, and the templates of
numba code bound to each ruleset.

Importing this package (which every kernel does first) installs the cache locator of
``core.cache``, so every kernel compiled against labyrinth_env is cached under a stamp of
the contents of every source it compiles in, and the finder of ``core.templates``, so a
ruleset's bound templates (``<ruleset package>.loops``) are importable by name.
"""

from __future__ import annotations

from labyrinth_env.core import cache, templates

cache.install()
templates.install_finder()
