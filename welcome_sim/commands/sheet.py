"""`sheet show`: a score sheet's layout and score tracks drawn, with provenance and sha256."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from welcome_sim.commands import names
from welcome_sim.commands.common import console, named
from welcome_sim.simcore.ground import userinput as U

sheet_app = typer.Typer(
    help="Score sheets: draw one's layout and score tracks.", no_args_is_help=True, add_completion=False
)


def sheet_show(
    sheet: Annotated[
        str,
        typer.Argument(
            metavar="NAME|PATH",
            help="A built-in sheet (classic, blueprint, american_dream) or a path to a sheet .toml file.",
            callback=named("SHEET", names.builtin("sheets")),
        ),
    ],
) -> None:
    """Draw a sheet: streets, houses, pools and every score track, with provenance and sha256.

    Streets and houses are numbered from 1 as in the file: its `pools = [3, 7, 8]` are the
    houses drawn 3, 7 and 8. The first 8 hex digits of the sha256 label a sheet file of one's own
    in every output.

    Examples:
      welcome-sim sheet show blueprint
      welcome-sim sheet show my_sheet.toml
    """
    from welcome_sim.simcore.ground.datafiles import load_sheet
    from welcome_sim.simcore.rules.ruleset import data_label, display_path, file_sha256, is_builtin
    from welcome_sim.textview import render_layout

    U.check_nonempty("NAME|PATH", sheet, "a built-in sheet name or a path to a sheet .toml file")
    sh = load_sheet(sheet)
    prov_style = "yellow" if sh.provenance == "reconstructed" else "green"
    console.print(
        Text.assemble(
            (f"sheet {data_label(sh)}", "bold"), f": {sh.title}; provenance ", (sh.provenance, prov_style)
        ),
        highlight=False,
    )
    where = "built-in" if is_builtin(sh.path) else "a file of one's own"
    console.print(f"file: {display_path(sh.path)} ({where}); sha256 {file_sha256(sh.path)}", highlight=False)
    if sh.based_on:
        console.print(f"based on: the built-in sheet {sh.based_on}", highlight=False)
    offsets = families = None
    if sh.expansion:
        # An expansion's own sheet (the American Dream's): its data file places the streets under
        # columns and gives each house a family.
        from welcome_sim.simcore.rules.expansions import load_expansion

        x = load_expansion(sh.expansion)
        if "column_offsets" in x.data:
            houses = x.data["houses"]
            if [len(row) for row in houses] != [st.houses for st in sh.streets]:
                console.print(
                    f"(the {sh.expansion} expansion's columns are laid out for its own sheet, not this "
                    "one's streets: drawn without them)",
                    highlight=False,
                )
            else:
                offsets = x.data["column_offsets"]
                families = [[x.data["families"][c] for c in row] for row in houses]
                console.print(
                    Text.assemble(
                        f"columns and families: {display_path(x.path)}; provenance ",
                        (x.provenance, "yellow" if x.provenance == "reconstructed" else "green"),
                        f" ({x.data['source']})" if "source" in x.data else "",
                    ),
                    highlight=False,
                )
    console.print()
    for line in render_layout(sh, offsets, families):
        console.print(line, highlight=False)
