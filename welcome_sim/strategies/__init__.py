"""Players: the strategy registry, the context array every player reads (context.py), compiled
strategies (greedy family, simple baselines) and the pure-Python protocol. The studies of players
(skill, tournaments, tuning) live in welcome_sim/studies/."""
