"""`data`: the shipped rules data files listed, one copied to start a variant, a file upgraded to
positions that count from 1."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from welcome_sim.commands.common import console, fail
from welcome_sim.errors import WelcomeSimError
from welcome_sim.termtables import print_table

data_app = typer.Typer(
    help="Rules data files: list the shipped ones (`welcome-sim data`), copy one to start a variant, or "
    "upgrade a file whose positions count from 0.",
    invoke_without_command=True,
    add_completion=False,
)


@data_app.callback()
def data(ctx: typer.Context) -> None:
    """List every shipped rules data file with its provenance and source, then every plan card.

    The list is the folder simcore/data itself, so a new file shows up without a code change.
    Plan cards carry their own provenance: a reconstructed card says why, an invented one (made up
    to fill a set) is marked. `welcome-sim data copy NAME [DEST]` starts a variant from one of them;
    `welcome-sim data upgrade FILE` converts a file whose positions count from 0 (they count from 1).
    """
    if ctx.invoked_subcommand is None:
        try:
            _list_data()
        except WelcomeSimError as exc:
            fail(exc)


def data_copy(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="A built-in sheet, deck, plan set or expansion (e.g. classic, collector_standard, zombies), "
            "or KIND/NAME (sheets/classic).",
        ),
    ],
    dest: Annotated[
        str | None,
        typer.Argument(
            metavar="DEST", help="The copy's path, or a folder for NAME.toml; default ./NAME.toml."
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Overwrite DEST if it exists.")] = False,
) -> None:
    """Copy a built-in data file to start a variant of one's own: change its values, then sweep
    it against the original.

    The copy keeps the file's comments, names the built-in it came from (based_on) and gets its
    own title, which the report uses to name the variant.

    Examples:
      welcome-sim data copy collector_standard mine.toml
      welcome-sim data copy zombies
      welcome-sim data copy sheets/classic my-sheets/
    """
    from welcome_sim.datacopy import copy

    done = copy(name, dest, force)
    console.print(
        f"wrote {done.path}: a copy of {done.kind}/{done.name}.toml. Change its values, then compare it "
        f"with the original: welcome-sim sweep {done.option} {done.name} {done.option} {done.path} --out runs/mine "
        "&& welcome-sim report runs/mine",
        highlight=False,
        soft_wrap=True,
    )


def data_upgrade(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="A sheet, plan set or expansion file of one's own written when positions counted from 0.",
        ),
    ],
) -> None:
    """Rewrite a data file whose street and house positions count from 0 (files written before
    they counted from 1) so they count from 1, as `sheet show` draws them.

    Adds 1 to every street, house and column position (a plan's `street = -1`, any street, is
    left out instead), keeps the comments, adds the line positions = "from 1", and keeps the
    original as FILE.bak. Check the result with `welcome-sim sheet show` or a short `play`.

    Examples:
      welcome-sim data upgrade my_sheet.toml
      welcome-sim data upgrade my_plans.toml && welcome-sim play --plans-file my_plans.toml
    """
    from welcome_sim.dataupgrade import upgrade

    done = upgrade(file)
    console.print(
        f"rewrote {done.path} ({done.kind}): {done.moved} position{'s' if done.moved != 1 else ''} now "
        f"count from 1 (its comments are as they were: check any that count from 0); the original is "
        f"{done.backup}",
        highlight=False,
        soft_wrap=True,
    )


def _list_data() -> None:
    """The `data` listing: every shipped data file, then every plan card."""
    from welcome_sim.catalogue import describe_file, shipped_files
    from welcome_sim.plantext import plan_label, requirement
    from welcome_sim.simcore.rules.ruleset import display_path

    try:
        files = [describe_file(p) for p in shipped_files()]
    except WelcomeSimError as exc:
        fail(exc)

    def tag(prov: str, extra: str = "") -> Text:
        return Text.assemble((prov, "yellow" if prov == "reconstructed" else "green"), extra)

    cols = ["kind", "name", "title", "provenance", "source", "path"]
    print_table(
        console,
        cols,
        [[f.kind, f.name, f.title, tag(f.provenance), f.source, display_path(str(f.path))] for f in files],
        title=f"rules data: {len(files)} files (simcore/data)",
        keys=["kind", "name"],
        words=cols,
        left=cols,
        drop_constant=False,  # every file's provenance stays on its own row
    )
    cols = ["file", "plan", "requirement", "first", "later", "provenance", "note"]
    cards = [
        [
            display_path(str(f.path)),
            plan_label(p),
            requirement(p),
            str(p.first),
            str(p.later),
            tag(p.provenance, " (invented)" if p.invented else ""),
            p.note,
        ]
        for f in files
        for p in f.plans
    ]
    print_table(
        console,
        cols,
        cards,
        title="plan cards (per card: provenance, and what is reconstructed)",
        keys=["file", "plan"],
        words=["file", "plan", "requirement", "provenance", "note"],
        left=cols,
        drop_constant=False,
    )
