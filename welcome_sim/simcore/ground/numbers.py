"""House numbers as integer codes: the kernel writes 2 x n for a number n and 2 x n + 1 for n¾.

The 9¾ cards (Collector's expansion rules, p. 27) go between a 9 and a 10 and a temp worker turns
them into 7¾..11¾, so a sheet can hold numbers strictly between two whole numbers. Doubling keeps
every rule a comparison of integers: a number fits a house iff lo < code < hi, a temp worker moves
a code by up to 4 (two numbers) and keeps its parity, and an extension copies the code.
"""

from __future__ import annotations

from fractions import Fraction

STEP = 2  # codes per whole number
MAX_CODE = 34  # 17: the highest number a temp worker can make (15 + 2)
QUARTER = "¾"


def number_code(value: float | int | str) -> int:
    """The code of a house number: 9 -> 18, 9.75 (or '9¾') -> 19; other fractions are refused."""
    if isinstance(value, str):
        text = value.strip()
        frac = text.endswith(QUARTER) or text.endswith("3/4")
        base = text.removesuffix(QUARTER).removesuffix("3/4").strip() or "0"
        return STEP * int(base) + (1 if frac else 0)
    q = Fraction(value).limit_denominator(4)
    whole = q.numerator // q.denominator
    rest = q - whole
    if rest == 0:
        return STEP * whole
    if rest == Fraction(3, 4):
        return STEP * whole + 1
    raise ValueError(f"{value} is not a house number (whole numbers and n¾ only)")


def code_value(code: int) -> int | float:
    """The number a code stands for: 18 -> 9, 19 -> 9.75."""
    code = int(code)
    return code // STEP if code % STEP == 0 else code // STEP + 0.75


def number_text(code: int) -> str:
    """How a code is written on a sheet: 18 -> '9', 19 -> '9¾'."""
    code = int(code)
    return str(code // STEP) + (QUARTER if code % STEP else "")
