"""The test suite (a regular package: Pgx installs a top-level ``tests`` package of its own,
which would otherwise shadow this namespace package)."""
