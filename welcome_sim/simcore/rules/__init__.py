"""The rules: sheet operations, plans, scoring, the AAA, the ruleset compiler; the expansions, one declared module each."""
