"""Studies of the players, built on top of them: the skill ladder and the luck/skill split
(skill.py), tournaments between strategies (tournament.py) and the weight search (tuning.py).
Nothing under simcore/ or strategies/ imports a study."""
