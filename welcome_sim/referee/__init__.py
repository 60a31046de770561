"""An independent pure-Python referee: replays kernel game logs, rejects illegal moves, re-scores.

It is written from the rulebooks and imports nothing from `welcome_sim.simcore`; it reads the
rules data files itself. See replay.py for the log format it accepts.
"""

from welcome_sim.referee.replay import GameRecord, IllegalMove, replay
from welcome_sim.referee.rules import RefRules
from welcome_sim.referee.sheet import PlayerSheet, majority_points
from welcome_sim.referee.tables import load_rules

__all__ = ["GameRecord", "IllegalMove", "PlayerSheet", "RefRules", "load_rules", "majority_points", "replay"]
