"""A ruleset: edition + sheet + deck + plans, loaded from data and compiled into kernel arrays."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.datafiles import (
    DATA_DIR,
    Deck,
    Edition,
    Opponent,
    OpponentSet,
    PlanSet,
    Sheet,
    available,
    is_builtin_label,
    load_deck,
    load_edition,
    load_extra_cards,
    load_opponents,
    load_plans,
    load_sheet,
)
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_EXPERT,
    DEAL_SOLO_CARD,
    DEAL_STACKS,
    P_DEAL,
    P_MAX_REFUSALS,
    P_NEXTRA,
    P_TOTAL_HOUSES,
    P_X_SPECIALS,
)
from welcome_sim.simcore.ground.tomlread import display_path
from welcome_sim.simcore.rules.expansions import load_expansion
from welcome_sim.simcore.rules.expansions.compile import (
    no_advanced,
    own_plans,
)
from welcome_sim.simcore.rules.overrides import Overrides, Varied
from welcome_sim.simcore.rules.rulestable import compile_rules

# Game modes: how cards are dealt (table.DEAL_*), and whether Advanced mode (roundabouts, advanced
# plans) is on.
MODES = {
    "standard": (DEAL_STACKS, False),
    "advanced": (DEAL_STACKS, True),
    "expert": (DEAL_EXPERT, False),
    "expert-advanced": (DEAL_EXPERT, True),
    "solo": (-1, False),  # the edition says which solo: AAA (Collector's) or the solo card (first)
    "solo-advanced": (-1, True),
}
MODE_HELP = (
    "standard | advanced (roundabouts, advanced plans) | expert (hands of 3, pass the third) | "
    "expert-advanced | solo (Collector's: AAA solo mode; first edition: solo variant) | solo-advanced"
)


@dataclass(frozen=True)
class Ruleset:
    """Everything one game configuration needs, as data and as compiled arrays."""

    edition: Edition
    sheet: Sheet
    deck: Deck
    plans: PlanSet
    kernel: np.ndarray
    mode: str = "standard"
    sources: tuple = ()  # every data file in use (plans may come from two files)
    opponent: Opponent | None = None
    expansion: Any = None  # expansions.Expansion, or None for the base game
    nine: bool = False  # the three 9¾ cards are in the deck
    overrides: tuple = ()  # the --vary values applied to its files (overrides.Override)

    @property
    def deal(self) -> int:
        """DEAL_* code of this mode."""
        return int(self.kernel[0, P_DEAL])

    @property
    def sheet_label(self) -> str:
        """The sheet's name, with its content hash when it is a file of one's own."""
        return data_label(self.sheet)

    @property
    def deck_label(self) -> str:
        """The construction deck's name (without the 9¾ cards), hashed when it is one's own file."""
        return data_label(next((x for x in self.sources if isinstance(x, Deck)), self.deck))

    @property
    def plans_label(self) -> str:
        """The standard plan set's name (not the advanced or expansion cards mixed in), hashed when
        it is one's own file."""
        return data_label(next((x for x in self.sources if isinstance(x, PlanSet)), self.plans))

    @property
    def expansion_label(self) -> str:
        """The expansion's name ('none' without one), hashed when it is a copy of one's own."""
        return "none" if self.expansion is None else data_label(self.expansion)

    @property
    def reconstructed(self) -> list[str]:
        """Paths of the data files in use whose provenance is `reconstructed`."""
        items = self.sources or (self.edition, self.sheet, self.deck, self.plans)
        return [display_path(x.path) for x in items if x.provenance == "reconstructed"]

    def describe(self) -> str:
        """One line naming edition, mode, sheet, deck and plans (and the AAA opponent); a file of
        one's own shows its label (name and hash) beside its title."""

        def own(label: str, title: str) -> str:
            return title if is_builtin_label(label) else f"{label} ({title})"

        text = (
            f"{self.edition.title}; mode {self.mode}; sheet {own(self.sheet_label, self.sheet.title)}; "
            f"deck {own(self.deck_label, self.deck.title)}; plans {own(self.plans_label, self.plans.title)}"
        )
        if self.opponent is not None:
            text += f"; AAA opponent level {self.opponent.level} ({self.opponent.name})"
        if self.expansion is not None:
            text += f"; expansion {own(self.expansion_label, self.expansion.title)}"
        if self.nine:
            text += "; with the 9¾ cards"
        if self.overrides:
            text += "; varied " + ", ".join(o.label for o in self.overrides)
        return text


def is_builtin(path: str) -> bool:
    """Whether a data file is one of the shipped files under simcore/data."""
    return Path(path).resolve().is_relative_to(DATA_DIR.resolve())


def file_sha256(path: str) -> str:
    """Full sha256 (hex) of a data file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def data_label(item: Any) -> str:
    """A data file's name in every output: a built-in file's name, or for a file of one's own its
    name plus the first 8 hex digits of its content's sha256 ('classic.1a2b3c4d'), so a copy that
    keeps its built-in name never passes for it (nor two versions of one file for each other)."""
    if is_builtin(item.path):
        return item.name
    # The hash of the bytes the item was parsed from, not of the file as it is now: a file edited
    # since would otherwise lend its new label to the old values.
    return f"{item.name}.{(getattr(item, 'sha256', '') or file_sha256(item.path))[:8]}"


def mode_deal(ed: Edition, mode: str) -> tuple[int, bool]:
    """(DEAL_*, advanced) of a mode in an edition: solo means the AAA where the edition has
    Opponent cards' solo mode, the solo card in the first edition."""
    deal, advanced = MODES[mode]
    if deal < 0:
        deal = DEAL_AAA if ed.solo == "aaa" else DEAL_SOLO_CARD
    return deal, advanced


def check_edition(edition: str) -> None:
    """Reject an unknown edition name, listing the valid ones."""
    from welcome_sim.simcore.ground.userinput import nearest

    if edition not in available("editions"):
        valid = ", ".join(available("editions"))
        raise WelcomeSimError(
            f"--edition: unknown edition '{edition}'{nearest(edition, available('editions'))}; valid: {valid}"
        )


def check_mode(mode: str) -> None:
    """Reject an unknown mode name, listing the valid ones."""
    from welcome_sim.simcore.ground.userinput import nearest

    if mode not in MODES:
        raise WelcomeSimError(
            f"--mode: unknown mode '{mode}'{nearest(mode, MODES)}; valid: {', '.join(MODES)}"
        )


def load_ruleset(
    edition: str = "collector",
    sheet: str | None = None,
    plans: str | None = None,
    mode: str = "standard",
    opponent: str | None = None,
    expansion: str | None = None,
    nine: bool = False,
    deck: str | None = None,
    overrides: Overrides = (),
) -> Ruleset:
    """Load an edition (by name) with a sheet, a mode, optionally another standard plan set and
    another construction deck (names or paths: they replace the edition's), in the AAA solo mode
    an opponent card (level or name; default level 0), an expansion sheet (easter, icecream,
    christmas, zombies, or a path to a copy of one) and the 9¾ cards; `overrides` (--vary values)
    change the files' values as read, each file then checked as ever."""
    v = Varied(overrides)
    check_edition(edition)
    check_mode(mode)
    for option, value, kind in (
        ("--sheet", sheet, "sheets"),
        ("--deck", deck, "decks"),
        ("--plans-file", plans, "plans"),
    ):
        if value is not None and not value.strip():
            raise WelcomeSimError(
                f"{option}: empty value {value!r}; give a built-in {kind[:-1]} ({', '.join(available(kind))}) "
                "or a path to a .toml file"
            )
    ed = load_edition(edition)
    x = None
    if expansion is not None and expansion != "none":
        x = v.load(
            ("expansion", "plans"),
            load_expansion,
            expansion,
            ed.expansion_section,
            section=ed.expansion_section,
        )
        if plans is not None and own_plans(x):
            # Before the plan file's own checks: whatever they would ask for, it would not be played.
            raise WelcomeSimError(
                f"--plans-file {plans}: the {x.title} plays only its own Plan cards (Collector's expansion "
                'rules: "You must play only with the American Dream Expansion Plan cards"); leave '
                "--plans-file out, or change the plans in a copy of its data file (--expansion ./my_copy.toml)"
            )
        if sheet is not None and sheet != x.sheet:
            raise WelcomeSimError(
                f"--sheet: the {x.title} is played on its own sheet (the {x.sheet} layout), not '{sheet}'"
            )
        sheet = x.sheet
    sh = v.load(("sheet",), load_sheet, sheet or ed.default_sheet)
    if sh.expansion and (x is None or x.name != sh.expansion):
        raise WelcomeSimError(
            f"--sheet {sheet}: sheet '{sh.name}' is the {sh.expansion} expansion's own sheet; play it with "
            f"--expansion {sh.expansion} (its rules, actions and plans are the expansion's)"
        )
    dk = v.load(("deck",), load_deck, deck or ed.deck)
    sources: list = [ed, sh, dk]
    if nine:
        extra = load_extra_cards("nine_three_quarters")
        sources.append(extra)
        dk = Deck(
            dk.name + "+" + extra.name,
            f"{dk.title} + {extra.title}",
            dk.path,
            merged_provenance(dk, extra),
            dk.cards + extra.cards,
            sha256=dk.sha256,
        )
    pl = v.load(("plans",), load_plans, plans or ed.plans)
    if pl.advanced:
        raise WelcomeSimError(
            f"--plans-file: {display_path(pl.path)} is a set of advanced plans (advanced = true); give a "
            "standard set, which Advanced mode mixes with the edition's advanced plans"
        )
    deal, advanced = mode_deal(ed, mode)
    std_letters = load_plans(ed.plans).letters if plans else pl.letters
    if pl.letters != std_letters and (
        deal == DEAL_AAA or (x is not None and (ed.expansion_plans or x.section))
    ):
        # Checked before the expansion's cards join: they name their letter (Plan C).
        what = "AAA validation cards" if deal == DEAL_AAA else f"{x.title}'s plans"
        raise WelcomeSimError(
            f"{display_path(pl.path)}: key 'letters': {list(pl.letters)}, but the {what} name the "
            f"{ed.title}'s letters {list(std_letters)}; use those letters"
        )
    sources.append(pl)
    if x is not None and advanced and no_advanced(x):
        raise WelcomeSimError(
            f"--mode {mode}: the {x.title} cannot be played with the Advanced Mode (Collector's expansion "
            "rules, 'Before Starting': \"except for the American Dream expansion, which cannot be played "
            'with the Advanced Mode"); use standard, expert or solo'
        )
    if x is not None and own_plans(x):
        # Its own cards replace every plan set ("You must play only with the American Dream
        # Expansion Plan cards"): its A, B and C cards in the edition's three slots, named by the
        # expansion's file (the edition's standard set is not in use: not among the sources).
        sources.remove(pl)
        sources.append(x)
        pl = replace(x.plans, letters=pl.letters, advanced=False)
    elif x is not None:
        sources.append(x)
        if ed.expansion_plans or x.section:
            pl = _with_expansion_plans(pl, x.plans)
            if x.section:
                pl = replace(pl, title=f"{pl.title}, n°3 replaced by the {x.plans.title}")
    if advanced:
        if not ed.advanced_plans:
            raise WelcomeSimError(f"--mode {mode}: the {ed.title} has no advanced plans")
        adv = v.load(("plans",), load_plans, ed.advanced_plans)
        if adv.letters != pl.letters:
            raise WelcomeSimError(
                f"{display_path(pl.path)}: key 'letters': {list(pl.letters)}, but mode {mode} mixes in the "
                f"{ed.title}'s advanced plans ({display_path(adv.path)}) of letters {list(adv.letters)}; use those letters"
            )
        sources.append(adv)
        if x is not None and (ed.expansion_plans or x.section):
            adv = _with_expansion_plans(adv, x.plans, keep_other=False)
        pl = PlanSet(
            pl.name + "+" + adv.name,
            f"{pl.title} + {adv.title}",
            pl.path,
            merged_provenance(pl, adv),
            pl.letters,
            pl.plans + adv.plans,
            True,
            sha256=pl.sha256,
        )
    opp = None
    if deal == DEAL_AAA:
        if not ed.opponents:
            raise WelcomeSimError(f"--mode {mode}: the {ed.title} has no AAA opponent cards")
        opps = v.load(("opponents",), load_opponents, ed.opponents)
        sources.append(opps)
        opp = opps.find(opponent if opponent is not None else "0")
    elif opponent is not None:
        raise WelcomeSimError(
            f"--opponent: only the AAA solo mode has an opponent, not mode '{mode}' of the {ed.title}"
        )
    R = compile_rules(ed, sh, dk, pl, deal=deal, advanced=advanced, opponent=opp, expansion=x)
    if nine:
        R[0, P_NEXTRA] = len(extra.cards)  # appended after the deck's own cards (above)
    check_playable(R, sh, dk, pl)
    v.check({p.id for p in pl.plans}, x.name if x else "", (str(opp.level), opp.name) if opp else ())
    return Ruleset(ed, sh, dk, pl, R, mode, tuple(sources), opp, x, nine, overrides)


# The kernel keeps the estates one plan uses in a table of this many rows (simcore/rules/plans.py).
MAX_PLAN_ESTATES = 16


def check_playable(R: np.ndarray, sh: Sheet, dk: Deck, pl: PlanSet) -> None:
    """Refuse data the kernel would play wrongly rather than reject: a plan letter no card has (a
    random draw from nothing), two cards with one id, a plan asking for more estates than the
    kernel records, an AAA deck that runs dry before the sheet can be filled (the AAA keeps its
    cards, and a short deck would end games by a rule the game does not have)."""
    for slot, letter in enumerate(pl.letters):
        if not any(p.slot == slot for p in pl.plans):
            raise WelcomeSimError(f"{display_path(pl.path)}: key 'plans': no plan with letter '{letter}'")
    seen: dict[str, str] = {}
    for p in pl.plans:
        where = "an advanced plan" if p.advanced else f"a card of {display_path(pl.path)}"
        if p.id in seen:
            raise WelcomeSimError(
                f"{display_path(pl.path)}: plan id '{p.id}' names two cards in play ({seen[p.id]} and {where}); "
                "give each card its own id"
            )
        seen[p.id] = where
        if len(p.estates) > MAX_PLAN_ESTATES:
            raise WelcomeSimError(
                f"{display_path(pl.path)}: plan {p.id}: key 'estates': {len(p.estates)} estates; the kernel "
                f"plays plans of at most {MAX_PLAN_ESTATES}"
            )
    P = R[0]
    if P[P_DEAL] == DEAL_AAA and P[P_X_SPECIALS] == 0:
        rounds = int(P[P_TOTAL_HOUSES] + P[P_MAX_REFUSALS])
        need = rounds + 2
        if len(dk.cards) < need:
            raise WelcomeSimError(
                f"{display_path(dk.path)}: key 'counts': {len(dk.cards)} cards; the AAA solo mode gives the AAA one "
                f"card a round and never shuffles them back, so a game of up to {rounds} rounds on sheet {sh.name} "
                f"({P[P_TOTAL_HOUSES]} houses, {P[P_MAX_REFUSALS]} refusals) needs at least {need}"
            )


def _with_expansion_plans(pl: PlanSet, xp: PlanSet, keep_other: bool = True) -> PlanSet:
    """The expansion's cards replace a plan set's cards of their letters (Plan C; n°3 on a first-edition board)."""
    letters = {p.letter for p in xp.plans}
    mine = tuple(p for p in pl.plans if p.letter not in letters)
    theirs = tuple(replace(p, slot=pl.letters.index(p.letter)) for p in xp.plans) if keep_other else ()
    return PlanSet(
        pl.name,
        pl.title,
        pl.path,
        merged_provenance(pl, xp),
        pl.letters,
        mine + theirs,
        pl.advanced,
        sha256=pl.sha256,
    )


def merged_provenance(*items) -> str:
    """A set made of several data files is reconstructed if any of them is."""
    return "reconstructed" if any(x.provenance == "reconstructed" for x in items) else "published"


def opponent_set(edition: str) -> OpponentSet | None:
    """The AAA Opponent cards of an edition (None if it has none)."""
    ed = load_edition(edition)
    return load_opponents(ed.opponents) if ed.opponents else None
