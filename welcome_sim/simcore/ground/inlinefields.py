"""A bundle handed to an inlined function: its field reads become the caller's own variables.

simcore/ground/jit.py makes an inlined function's parameters the caller's variables (no copy, no
reference count). A bundle (a NamedTuple or tuple of arrays) passed that way costs nothing to pass,
but each read of a field inside the inlined body (`sh.cells`, `sh[0]`, `cells, flags, _, sc = sh`)
makes a new variable holding the array: an atomic increment and decrement per read, which in the
game's phases cost more than their work (docs/findings/kernel-phases.md). Where the caller built
the bundle from variables of its own (`sh = Sheets(cells, flags, fences, sc)`), the field read is
that variable: `forward_fields` renames it so, and the bundle's phases read their arrays as freely
as when they took them one by one.

It renames only what provably holds the same value: the bundle variable and each field variable
are assigned once in the caller, the fields in the bundle's own block before it (or as the
caller's parameters), so at the call they still hold what went into the bundle; a read in the
inlined body whose target is assigned once. Anything else keeps Numba's own reading.
"""

from __future__ import annotations

from numba.core import inline_closurecall, ir


def _single_def(caller_ir: ir.FunctionIR, name: str):
    """The one value assigned to caller variable `name`, or None (none, or more than one)."""
    defs = caller_ir._definitions.get(name, ())
    return defs[0] if len(defs) == 1 else None


def _bundle_fields(caller_ir: ir.FunctionIR, var: ir.Var) -> tuple[list[ir.Var], tuple[str, ...]] | None:
    """The caller variables a bundle variable was built from, and the field names (a NamedTuple
    class called with variables, or a tuple written out), when it provably still holds them."""
    value = _single_def(caller_ir, var.name)
    if isinstance(value, ir.Expr) and value.op == "build_tuple":
        items, names = list(value.items), ()
    elif isinstance(value, ir.Expr) and value.op == "call" and not value.kws and value.vararg is None:
        cls = _single_def(caller_ir, value.func.name)
        cls = getattr(cls, "value", None) if isinstance(cls, ir.Global | ir.FreeVar) else None
        fields = getattr(cls, "_fields", None)
        if not (
            isinstance(cls, type) and issubclass(cls, tuple) and fields and len(fields) == len(value.args)
        ):
            return None
        items, names = list(value.args), tuple(fields)
    else:
        return None
    if not all(isinstance(v, ir.Var) for v in items):
        return None
    # The block building the bundle: each field assigned once, there before it, or a parameter.
    for block in caller_ir.blocks.values():
        for k, stmt in enumerate(block.body):
            if isinstance(stmt, ir.Assign) and stmt.value is value:
                before = {s.target.name for s in block.body[:k] if isinstance(s, ir.Assign)}
                for v in items:
                    one = _single_def(caller_ir, v.name)
                    if one is None or not (v.name in before or isinstance(one, ir.Arg)):
                        return None
                return items, names
    return None


def _field_read(value, bundles: dict, rename: dict, param_names: set[str]) -> ir.Var | None:
    """The caller variable an inlined body's value is, or None: a field read off a bundle, a
    variable renamed already (`cells = $getattr`), or a bundle parameter copied."""
    if isinstance(value, ir.Var):
        if value.name in rename:
            return rename[value.name]
        return value if value.name in bundles and value.name in param_names else None
    if not isinstance(value, ir.Expr) or value.op not in ("getattr", "static_getitem"):
        return None
    if value.value.name not in bundles:
        return None
    items, names = bundles[value.value.name]
    if value.op == "getattr":
        return items[names.index(value.attr)] if value.attr in names else None
    if isinstance(value.index, int) and -len(items) <= value.index < len(items):
        return items[value.index]
    return None


def forward_fields(blocks: dict, caller_ir: ir.FunctionIR, params: list[ir.Var]) -> None:
    """In an inlined body (blocks), rename each read of a field of a bundle parameter (already the
    caller's variable, params) to the caller variable it was built from."""
    bundles = {}
    for var in {v.name: v for v in params}.values():
        found = _bundle_fields(caller_ir, var)
        if found is not None:
            bundles[var.name] = found
    if not bundles:
        return
    assigns = [stmt for block in blocks.values() for stmt in block.find_insts(ir.Assign)]
    defined: dict[str, int] = {}
    for stmt in assigns:
        defined[stmt.target.name] = defined.get(stmt.target.name, 0) + 1
    param_names = {v.name for v in params}
    rename: dict[str, ir.Var] = {}
    unpacked: set[str] = set()
    changed = True
    while changed:
        # Until nothing changes: a field that is a bundle itself (`state.xdec[0]`) is read the same way.
        changed = False
        for stmt in assigns:
            value, target = stmt.value, stmt.target.name
            if target in rename or target in bundles or defined[target] != 1:
                continue
            if isinstance(value, ir.Expr) and value.op == "exhaust_iter" and value.value.name in bundles:
                if value.count == len(bundles[value.value.name][0]):
                    # `a, b, c = bundle`: the fields are read off this copy by static_getitem.
                    bundles[target] = bundles[value.value.name]
                    unpacked.add(target)
                    changed = True
                continue
            field = _field_read(value, bundles, rename, param_names)
            if field is not None:
                rename[target] = field
                inner = _bundle_fields(caller_ir, field)
                if inner is not None:
                    bundles[target] = inner
                changed = True
    if not rename:
        return
    for block in blocks.values():
        block.body = [s for s in block.body if not (isinstance(s, ir.Assign) and s.target.name in rename)]
    inline_closurecall.replace_vars(blocks, rename)
    # An unpacking copy of the bundle read only by renamed reads is gone with them.
    read = set()
    for block in blocks.values():
        for s in block.body:
            if not isinstance(s, ir.Assign):
                read.update(v.name for v in s.list_vars())
            elif isinstance(s.value, ir.Var):
                read.add(s.value.name)
            elif isinstance(s.value, ir.Expr):
                read.update(v.name for v in s.value.list_vars())
    for block in blocks.values():
        block.body = [
            s for s in block.body if not (isinstance(s, ir.Assign) and s.target.name in unpacked - read)
        ]
