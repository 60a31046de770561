"""Players: the strategy registry, compiled strategies (greedy family, simple baselines), the
pure-Python protocol, tournaments and weight tuning."""
