"""Module and function sizes of the package, and functions with many parameters (issue 39's
tables): `scripts/code_sizes.py [ROOT]` (default: welcome_sim beside this script)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

MODULE_LIMIT, FUNCTION_LIMIT, PARAM_LIMIT = 600, 150, 10


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "welcome_sim"
    big_modules, big_functions, many_params = [], [], []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + 1
        rel = path.relative_to(root.parent)
        if lines > MODULE_LIMIT:
            big_modules.append((lines, str(rel)))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = node.end_lineno - node.lineno + 1
                if size > FUNCTION_LIMIT:
                    big_functions.append((size, f"{rel}:{node.name}"))
                a = node.args
                n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg) + bool(a.kwarg)
                if n >= PARAM_LIMIT:
                    many_params.append((n, f"{rel}:{node.name}"))
    print(f"modules over {MODULE_LIMIT} lines: {len(big_modules)}")
    for n, name in sorted(big_modules, reverse=True):
        print(f"  {n:5d}  {name}")
    print(f"functions over {FUNCTION_LIMIT} lines: {len(big_functions)}")
    for n, name in sorted(big_functions, reverse=True):
        print(f"  {n:5d}  {name}")
    print(f"functions with {PARAM_LIMIT}+ parameters: {len(many_params)}")
    for n, name in sorted(many_params, reverse=True):
        print(f"  {n:5d}  {name}")


if __name__ == "__main__":
    main()
