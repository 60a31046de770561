"""Errors that the CLI turns into one-line messages instead of tracebacks."""

from __future__ import annotations


class WelcomeSimError(Exception):
    """A user-facing error: bad option, bad data file, unknown name."""


class DataError(WelcomeSimError):
    """A rules data file is missing, malformed or inconsistent."""

    def __init__(self, path: str, key: str, problem: str) -> None:
        self.path, self.key, self.problem = path, key, problem
        super().__init__(f"{path}: key '{key}': {problem}" if key else f"{path}: {problem}")
