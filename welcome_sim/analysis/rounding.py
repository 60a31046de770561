"""An estimate and its interval as text, rounded so that the reader sees the estimate inside its
interval: the bounds are rounded outward (the shown interval holds the computed one), and a decimal
is added while the rounded estimate would sit on a bound it does not truly touch ("+0.37 [+0.32,
+0.37]" becomes "+0.368 [+0.32, +0.372]" ... or, outward, "+0.37 [+0.32, +0.38]")."""

from __future__ import annotations

import math

EXTRA = 2  # decimals that may be added to show the estimate inside its interval
_EPS = 1e-9  # float noise: 0.3 * 100 is 30.000000000000004, which must not ceil to 31


def _down(x: float, d: int) -> float:
    return math.floor(x * 10**d + _EPS) / 10**d


def _up(x: float, d: int) -> float:
    return math.ceil(x * 10**d - _EPS) / 10**d


def interval_digits(v: float, lo: float, hi: float, digits: int) -> int:
    """The fewest decimals, from digits up to digits + EXTRA, at which the rounded estimate lies
    strictly between the outward-rounded bounds, except on a side the interval truly touches."""
    for d in range(digits, digits + EXTRA + 1):
        rv = round(v, d)
        inside_lo = lo >= v or _down(lo, d) < rv
        inside_hi = hi <= v or rv < _up(hi, d)
        if inside_lo and inside_hi:
            return d
    return digits + EXTRA


def interval_parts(
    v: float, lo: float, hi: float, digits: int = 2, sign: bool = False, pct: bool = False
) -> tuple[str, str]:
    """(estimate, '[low, high]') as text: rates (pct) in % of 0..1 bounds clipped to [0, 1];
    sign puts + before positive numbers; the rounding as the module says."""
    scale = 100.0 if pct else 1.0
    if pct:
        lo, hi = max(lo, 0.0), min(hi, 1.0)
    # An estimate outside its own interval (a clipped rate, a skewed bootstrap) stays shown as it is.
    lo, hi = min(lo, v), max(hi, v)
    v, lo, hi = v * scale, lo * scale, hi * scale
    d = interval_digits(v, lo, hi, digits)
    unit = "%" if pct else ""
    fmt = f"{{:{'+' if sign else ''}.{d}f}}"

    def text(x: float) -> str:
        return fmt.format(x) + unit

    return text(round(v, d) + 0.0), f"[{text(_down(lo, d) + 0.0)}, {text(_up(hi, d) + 0.0)}]"


def interval_text(
    v: float, lo: float, hi: float, digits: int = 2, sign: bool = False, pct: bool = False
) -> str:
    """'estimate [low, high]' on one line (see interval_parts)."""
    value, bounds = interval_parts(v, lo, hi, digits, sign, pct)
    return f"{value} {bounds}"
