"""Greedy's option screen: a fence, bis or improvement whose gain, measured this turn on another
placement it does not touch, cannot lift it over the best move so far is not valued
(greedy_options.options); and, for a noisy player, the option's noise drawn before the screen
decides, so that the screen stays exact whatever the noise width."""

from __future__ import annotations

from welcome_sim.simcore.ground.jit import inlined, leaf, spliced
from welcome_sim.simcore.ground.layout import B_FENCE, EMPTY, ZOMBIE
from welcome_sim.simcore.ground.table import R_STREET_LEN
from welcome_sim.strategies.greedy_eval import noisy
from welcome_sim.strategies.greedy_layout import NOISE, WS_GAIN, WS_GST

# How far below the bar an option's estimated value may fall and still be valued in full: the
# estimate (its gain on another placement) misses how the option and the placement interact
# through plan progress and the expansion's value.
SCREEN_MARGIN = 1.0


@inlined
def draws_first(prm) -> bool:
    """A noisy player (noise > 0) draws each screened option's noise before the screen decides
    and screens on noiseless values (screened); without noise the tie-breaking draw comes after
    the screen, as it did before, so that noiseless greedy plays the same games."""
    return prm[NOISE] > 0.0


@leaf
def screened(ws, gi, base, bar) -> bool:
    """Option gi may be skipped: its gain was measured this turn on a placement it does not touch
    and, added to `base` (this placement's value less the AAA's cost, plus for a noisy player the
    option's own draw: screen_draw), it stays below the bar by SCREEN_MARGIN. A noisy
    player's gains and placement values are noiseless, so under the screen's premise (the gain
    adds up) a skipped option could not have cleared the bar, whatever the noise width
    (docs/findings/greedy.md, "The screen exact for the noisy levels")."""
    if ws[WS_GST + gi] < 0.0:
        return False
    return base + ws[WS_GAIN + gi] + SCREEN_MARGIN <= bar


@inlined
def screen_draw(prm, rng, early) -> float:
    """The option's noise, drawn before the screen for a noisy player (`noisy(raw)` is `raw +
    noisy(0.0)` to the bit), else 0 (drawn after, by noisy())."""
    return noisy(0.0, prm, rng) if early else 0.0


@inlined
def screen_value(raw, draw, prm, rng, early) -> float:
    """The option's value with its noise: the draw taken before the screen, or a new one."""
    return raw + draw if early else noisy(raw, prm, rng)


@inlined
def screen_place(top, c, t, early) -> float:
    """The value the screen adds gains to for combination c's placement t: noiseless for a noisy
    player (kept in top[c, t, 4] by greedy_search._placements), else its value as ranked."""
    return top[c, t, 4] if early else top[c, t, 0]


@inlined
def keep_gain(ws, gi, gain) -> None:
    """Keep option gi's gain of this turn for the screen (screened)."""
    ws[WS_GAIN + gi] = gain
    ws[WS_GST + gi] = 1.0


@spliced
def zone_of(R, cells, fences, p, s, lo, hi) -> tuple[int, int]:
    """The houses of street s whose estates a change to houses lo..hi can reach: the empty run
    around them (numbering reaches across invaded houses too), widened to the fences around it.
    Two changes whose zones do not overlap add up in the street's walk."""
    n = R[R_STREET_LEN, s]
    while lo > 0 and (cells[p, s, lo - 1] == EMPTY or cells[p, s, lo - 1] == ZOMBIE):
        lo -= 1
    while hi < n - 1 and (cells[p, s, hi + 1] == EMPTY or cells[p, s, hi + 1] == ZOMBIE):
        hi += 1
    while lo > 0 and not (fences[p, s, lo] & B_FENCE):
        lo -= 1
    while hi < n - 1 and not (fences[p, s, hi + 1] & B_FENCE):
        hi += 1
    return lo, hi
