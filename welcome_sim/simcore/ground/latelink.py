"""Large callees linked after a library's optimization, not before.

Numba compiles each function into a library of its own; `CPUCodeLibrary.finalize` links every
callee's whole module (the callee and everything below it) into the caller's module and runs the
full module pass pipeline over the lot. Greedy's evaluation was optimized in its own library and
again in each library above it that is not inlined (combine, best_moves, choose_greedy,
_x_decisions, play_batch): LLVM does not inline a callee of that size, so the repeats only cost
compile time (docs/findings/kernel-phases.md, "cold6").

Here a library of this package is optimized with its own code and its small callees (which LLVM
may still inline), and the large callees' modules are linked in after the optimization, so the
library's machine code and the cache file hold everything, as before. Each library keeps a lean
copy of its optimized module (the large callees only declared) for its callers, and the list of
the large libraries below it, which its callers link in after their own optimization.

A library is large when its lean module holds more than `LARGE` instructions and no function
LLVM must inline (`alwaysinline`: `spliced`). A library loaded from the cache has no lean copy:
it is linked whole, before or after by the same rule. Only Numba 0.68 is patched (the finalize
below is a copy of its own with the linking split); on another version Numba is left as it is.
WELCOME_SIM_PLAIN_LINK=1 leaves it alone too (to compare); WELCOME_SIM_LARGE=N sets the threshold.
"""

from __future__ import annotations

import os

import llvmlite.binding as ll
import numba
from numba.core import codegen, config
from numba.core.codegen import CPUCodeLibrary

LARGE = int(os.environ.get("WELCOME_SIM_LARGE", "2000"))
_OURS = "welcome_sim"


def _size(module) -> tuple[int, bool]:
    """Instructions in the module's defined functions but Python's wrappers (callers never
    link those), counted up to LARGE + 1 (counting is slow in Python: only the threshold matters),
    and whether one of them must be inlined."""
    functions = [
        f
        for f in module.functions
        if not f.is_declaration and not f.name.startswith(("_ZN7cpython", "cfunc."))
    ]
    if any(b"alwaysinline" in a for f in functions for a in f.attributes):
        return 0, True
    count = 0
    for fn in functions:
        for block in fn.blocks:
            for _ in block.instructions:
                count += 1
            if count > LARGE:
                return count, False
    return count, False


def _linkable(module):
    """A copy of the module as Numba's _get_module_for_linking makes it: exported definitions
    linkonce_odr (the copy: the library's own module goes on to take the large callees in)."""
    names = [f.name for f in module.functions if not f.is_declaration and f.linkage == ll.Linkage.external]
    module = module.clone()
    for name in names:
        module.get_function(name).linkage = "linkonce_odr"
    return module


def _is_large(library) -> bool:
    """Large: linked into a caller after the caller's optimization (cached on the library)."""
    large = getattr(library, "_ws_large", None)
    if large is None:
        module = getattr(library, "_ws_lean", None) or library._get_module_for_linking()
        ours = any(_OURS in f.name for f in module.functions if not f.is_declaration)
        count, must = _size(module)
        large = library._ws_large = ours and not must and count > LARGE
    return large


def _finalize(self) -> None:
    """CPUCodeLibrary.finalize (Numba 0.68.1), the large callees linked after optimization."""
    codegen.require_global_compiler_lock()
    self._codegen._check_llvm_bugs()
    self._raise_if_finalized()
    if config.DUMP_FUNC_OPT:
        codegen.dump(f"FUNCTION OPTIMIZED DUMP {self.name}", self.get_llvm_str(), "llvm")
    late: dict = {}  # libraries to link after optimizing, in order, once each
    seen = set()
    for library in self._linking_libraries:
        if library in seen:
            continue
        seen.add(library)
        self._reload_init.update(library._reload_init)
        if _is_large(library):
            late[library] = None
            continue
        lean = getattr(library, "_ws_lean", None)
        self._final_module.link_in(
            lean if lean is not None else library._get_module_for_linking(), preserve=True
        )
        for below in getattr(library, "_ws_late", ()):
            late[below] = None
    self._optimize_final_module()
    if late:
        self._ws_lean = _linkable(self._final_module)
        self._ws_late = tuple(late)
        for library in late:
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
    self._final_module.verify()
    self._finalize_final_module()


def install() -> bool:
    """Patch CPUCodeLibrary.finalize on Numba 0.68.1, whose finalize _finalize copies (True), else
    leave it (False)."""
    if os.environ.get("WELCOME_SIM_PLAIN_LINK"):
        return False
    if numba.__version__ != "0.68.1" or CPUCodeLibrary.finalize.__qualname__ != "CPUCodeLibrary.finalize":
        return False
    needed = ("_optimize_final_module", "_finalize_final_module", "_get_module_for_linking")
    if not all(hasattr(CPUCodeLibrary, n) for n in needed):
        return False
    CPUCodeLibrary.finalize = _finalize
    return True


INSTALLED = install()
