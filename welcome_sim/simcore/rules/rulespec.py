"""A ruleset's spec: the eight choices that name one, as every command and sweep cell gives them,
the values varied in its files (--vary), and the one call that loads it."""

from __future__ import annotations

from dataclasses import dataclass

from welcome_sim.simcore.rules.overrides import Overrides
from welcome_sim.simcore.rules.ruleset import Ruleset, load_ruleset


@dataclass(frozen=True)
class RulesetSpec:
    """The eight choices that name a ruleset (edition, sheet, standard plan set, mode, AAA opponent,
    expansion, the 9¾ cards, deck), as given: every command and sweep cell names its ruleset with
    one, and load() is the one call that turns it into a Ruleset. None (or 'none' for the
    expansion) is the edition's own choice."""

    edition: str = "collector"
    sheet: str | None = None
    plans: str | None = None  # a standard plan set (name or path) replacing the edition's
    mode: str = "standard"
    opponent: str | None = None
    expansion: str | None = None
    nine: bool = False
    deck: str | None = None
    # --vary values applied to the files as read (overrides.Override, in the order given).
    overrides: Overrides = ()

    @classmethod
    def given(
        cls,
        edition: str = "collector",
        sheet: str | None = None,
        plans: str | None = None,
        mode: str = "standard",
        opponent: str | None = None,
        expansion: str | None = None,
        nine: bool = False,
        deck: str | None = None,
        overrides: Overrides = (),
    ) -> RulesetSpec:
        """A spec from values where '' (a sweep cell's 'the edition's own') and the expansion
        'none' mean None, so one ruleset has one spec whichever way it was named."""
        return cls(
            edition,
            sheet or None,
            plans or None,
            mode,
            opponent or None,
            None if expansion in (None, "", "none") else expansion,
            bool(nine),
            deck or None,
            tuple(overrides),
        )

    def load(self) -> Ruleset:
        """Load and compile the ruleset (load_ruleset: every value checked, every file validated)."""
        return load_ruleset(
            self.edition,
            self.sheet,
            self.plans,
            mode=self.mode,
            opponent=self.opponent,
            expansion=self.expansion,
            nine=self.nine,
            deck=self.deck,
            overrides=self.overrides,
        )

    def files(self) -> tuple[str, ...]:
        """The values that may name a file of one's own (sheet, deck, plan set, expansion)."""
        return tuple(v for v in (self.sheet, self.deck, self.plans, self.expansion) if v)
