"""Shared fixtures; the `slow` marker runs only with --runslow (CI passes it)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from welcome_sim.referee import load_rules
from welcome_sim.simcore.rules.ruleset import load_ruleset

DATA = Path(__file__).parent / "data"

# Tuned sets and anything else welcome-sim keeps for a user go to a throwaway folder, never into
# the real user data folder (subprocesses inherit it).
os.environ["WELCOME_SIM_DATA_DIR"] = tempfile.mkdtemp(prefix="welcome-sim-test-data-")


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """Run `welcome-sim ARGS` as a user would (a real process); capture its output."""
    # pytest exports COLUMNS=80 to its children; a user's piped output has none (tables 240 wide).
    # The 80- and 100-column layouts have tests of their own (test_termtables.py).
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run(
        [sys.executable, "-m", "welcome_sim.cli", *args], capture_output=True, text=True, timeout=600, env=env
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow statistical test: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def collector():
    """The default ruleset: Collector's Edition on the Classic sheet."""
    return load_ruleset("collector")


@pytest.fixture(scope="session")
def first():
    """The first edition (2018) on the Classic sheet."""
    return load_ruleset("first")


@pytest.fixture(scope="session")
def ref_collector():
    """The referee's reading of the Collector's rules."""
    return load_rules("collector")


@pytest.fixture(scope="session")
def ref_first():
    """The referee's reading of the first edition's rules."""
    return load_rules("first")
