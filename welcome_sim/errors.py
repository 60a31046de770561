"""Errors that the CLI turns into one-line messages instead of tracebacks."""

from __future__ import annotations


class WelcomeSimError(Exception):
    """A user-facing error: bad option, bad data file, unknown name."""


class DataError(WelcomeSimError):
    """A rules data file is missing, malformed or inconsistent."""

    def __init__(self, path: str, key: str, problem: str) -> None:
        self.path, self.key, self.problem = path, key, problem
        where = f"key '{key}'" if key else "file"
        super().__init__(f"{path}: {where}: {problem}")
