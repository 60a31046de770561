"""The app's usage errors: click's message for an unknown option or command, a value it cannot
parse or a missing argument, made the one 'error:' line every other error is."""

from __future__ import annotations

import sys
from typing import Any

import typer
from rich.text import Text
from typer.core import TyperGroup

from welcome_sim.commands.common import err

# click's exceptions as the installed typer uses them (typer >= 0.20 carries its own copy of click).
CX = sys.modules[typer.BadParameter.__module__]


def _given_values(args: list[str], opts: list[str]) -> list[str]:
    """The values given on the command line to an option spelled any of `opts`."""
    found = []
    for i, a in enumerate(args):
        for o in opts:
            if a == o and i + 1 < len(args):
                found.append(args[i + 1])
            elif o.startswith("--") and a.startswith(o + "="):
                found.append(a[len(o) + 1 :])
            elif not o.startswith("--") and a.startswith(o) and not a.startswith("--") and len(a) > len(o):
                found.append(a[len(o) :])
    return found


def _usage_line(e: Exception, args: list[str]) -> str:
    """click's usage error as the one line every other error is: option, value, what is valid."""
    ctx = getattr(e, "ctx", None)
    where = ctx.command_path if ctx is not None else "welcome-sim"
    hint = f" (try '{where} --help')"
    param = getattr(e, "param", None)
    if isinstance(e, CX.BadOptionUsage) and not isinstance(e, CX.NoSuchOption):
        said = " ".join(e.format_message().split())
        return f"{e.option_name}: {'needs a value' if 'requires an argument' in said else said}{hint}"
    if isinstance(e, CX.NoSuchOption):
        near = f"; did you mean {', '.join(e.possibilities)}?" if e.possibilities else ""
        return f"{e.option_name}: no such option of {where}{near}{hint}"
    if param is not None:
        opts = [o for o in param.opts if o.startswith("--")] or list(param.opts)
        option = getattr(param, "param_type_name", "") == "option"
        name = opts[0] if option else str(param.name).upper()
        if isinstance(e, CX.MissingParameter):
            return f"{name}: missing; it is required (give a value){hint}"
        message = e.message.rstrip(".")
        if "valid integer" in message:
            message = "is not a whole number"
        elif "valid number" in message or "valid float" in message:
            message = "is not a number"
        values = _given_values(args, list(param.opts)) if option else []
        value = f"{values[-1]!r} " if len(values) == 1 else ""
        return f"{name}: {value}{message}{hint}"
    message = " ".join(e.format_message().split())
    if message.startswith("No such command") and ctx is not None and hasattr(ctx.command, "list_commands"):
        valid = ", ".join(ctx.command.list_commands(ctx))
        return f"{message.removeprefix('No such command ').rstrip('.')}: no such command; commands: {valid}{hint}"
    return f"{message}{hint}"


class Group(TyperGroup):
    """The app: a usage error (an unknown option or command, a value click cannot parse, a missing
    argument) is one 'error:' line on stderr, as every other error, not a box."""

    def main(self, args: Any = None, *a: Any, standalone_mode: bool = True, **k: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode:
            return super().main(argv, *a, standalone_mode=False, **k)
        try:
            rv = super().main(argv, *a, standalone_mode=False, **k)
        except CX.NoArgsIsHelpError as e:
            if not (getattr(typer.core, "HAS_RICH", False) and self.rich_markup_mode is not None):
                e.show()  # Rich has printed the help already
            sys.exit(e.exit_code)
        except CX.ClickException as e:
            err.print(Text.assemble(("error:", "bold red"), " ", _usage_line(e, argv)), highlight=False)
            sys.exit(e.exit_code)
        except typer.Abort:
            err.print("Aborted.", highlight=False)
            sys.exit(1)
        # Not standalone, click returns an Exit's code (or the command's value: always None here).
        sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)
