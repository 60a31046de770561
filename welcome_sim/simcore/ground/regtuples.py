"""Small homogeneous tuples used as per-street or per-level locals in compiled leaves: a leaf
may not allocate, and a tuple stays in registers where an array would be a heap allocation.
Numba indexes such a tuple with a run-time index; these build the tuple with one item replaced."""

from __future__ import annotations

from welcome_sim.simcore.ground.jit import leaf


@leaf
def put3(t, i, v):
    """The three-tuple t with item i replaced by v."""
    return (v if i == 0 else t[0], v if i == 1 else t[1], v if i == 2 else t[2])


@leaf
def put5(t, i, v):
    """The five-tuple t with item i replaced by v."""
    return (
        v if i == 0 else t[0],
        v if i == 1 else t[1],
        v if i == 2 else t[2],
        v if i == 3 else t[3],
        v if i == 4 else t[4],
    )
