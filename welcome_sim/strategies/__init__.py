"""Players: compiled built-in strategies (the strategy framework comes with its own issue)."""
