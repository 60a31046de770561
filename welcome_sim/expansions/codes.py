"""Integer codes of the expansions, their estate features and goals (compile-time constants)."""

from __future__ import annotations

EXPANSION_NAMES = (
    "easter",
    "icecream",
    "christmas",
    "zombies",
    "doomsday",
    "roswell",
    "halloween",
    "quack",
    "american-dream",
)
X_NONE, X_EASTER, X_ICECREAM, X_CHRISTMAS, X_ZOMBIES, X_DOOMSDAY = 0, 1, 2, 3, 4, 5
X_ROSWELL = EXPANSION_NAMES.index("roswell") + 1
X_HALLOWEEN = EXPANSION_NAMES.index("halloween") + 1
X_QUACK = EXPANSION_NAMES.index("quack") + 1
X_AMERICAN = EXPANSION_NAMES.index("american-dream") + 1
# The expansions' titles, for help texts (the data files' `title` is what outputs print).
EXPANSION_TITLES = (
    "Easter Egg Hunt",
    "Ice Cream Truck",
    "Christmas Lights",
    "Zombie Outbreak",
    "Doomsday",
    "Roswell",
    "Halloween",
    "Quack",
    "The American Dream",
)

# Estate features a plan can bound (R_PLAN_XFEAT), by expansion.
# "lit": houses of the estate a string touches, strings across its fences included (first-edition
# Christmas "no light").
# "barricades": barricades the player built in front of the estate's houses (Zombie Outbreak).
# "shelters": houses of the estate with a fallout shelter (Doomsday; in a complete estate all built).
# "zoorgs": Zoorgs infiltrated in the estate's houses (Roswell).
# "ducklings": circled ducklings entirely inside the estate (Quack: between two of its houses).
FEATURES = ("eggs", "cones", "gaps", "links", "lit", "barricades", "shelters", "zoorgs", "ducklings")
FT_NONE, FT_EGGS, FT_CONES, FT_GAPS, FT_LINKS, FT_LIT, FT_BARRICADES, FT_SHELTERS = range(8)
FT_ZOORGS = FEATURES.index("zoorgs") + 1
FT_DUCKLINGS = FEATURES.index("ducklings") + 1
# Goals of kind "expansion" plans (R_PLAN_XGOAL).
GOALS = (
    "all_eggs_of_colours",
    "colours_each_street",
    "all_eggs_of_street",
    "cones_of_scoops",
    "all_cones_of_street",
    "street_string",
    "street_string_parks",
    "barricades_built",
    "street_barricades",
    "ammunition_used",
    "houses_invaded",
    "all_shelters_built",
    "shelter_capacity",
    "two_streets_capacity",
    "street_zoorgs",
    "columns_zoorgs",
    "candies_circled",
    "ghosts_and_candies",
    "marked_numbered",
    "street_ghosts",
    "street_candies",
    "ducklings_circled",
    "street_ducklings",
    "edge_ducklings",
    "between_ducklings",
    "colours_perfect",
    "colours_numbered",
    "perfect_columns",
    "complete_columns",
    "adjacent_columns",
    "perfect_streets",
    "complete_streets",
    "perfect_square",
)
(
    GL_NONE,
    GL_EGG_COLOURS,
    GL_COLOURS_EACH_STREET,
    GL_EGGS_STREET,
    GL_CONES_SCOOPS,
    GL_CONES_STREET,
    GL_STRING_STREET,
    GL_STRING_PARKS,
    GL_BARRICADES,  # Zombie Outbreak: at least `count` barricades built
    GL_STREET_BARRICADES,  # ... every house of one street without a printed barricade barricaded
    GL_AMMO_USED,  # ... at least `count` ammunition used
    GL_INVADED,  # ... at least `count` houses invaded
    GL_ALL_SHELTERS,  # Doomsday: every fallout shelter of the sheet built
    GL_CAPACITY,  # ... total capacity of the shelters at least `count`
    GL_TWO_STREETS,  # ... in 2 different streets, a capacity of at least `count` each
) = range(15)
# Roswell: every Zoorg of one street infiltrated; at least `count` columns of houses with two
# Zoorgs infiltrated each.
GL_STREET_ZOORGS = GOALS.index("street_zoorgs") + 1
GL_COLUMNS_ZOORGS = GOALS.index("columns_zoorgs") + 1
# Halloween: at least `count` candies circled; at least `count` ghosts and `count` candies circled;
# every house with a ghost and a candy numbered; in `count` streets, every ghost circled; in the
# card's street, every candy circled.
GL_CANDIES = GOALS.index("candies_circled") + 1
GL_GHOSTS_CANDIES = GOALS.index("ghosts_and_candies") + 1
GL_MARKED_ALL = GOALS.index("marked_numbered") + 1
GL_STREET_GHOSTS = GOALS.index("street_ghosts") + 1
GL_STREET_CANDIES = GOALS.index("street_candies") + 1
# Quack: at least `count` yellow and `count` black ducklings circled; in `count` streets, every
# duckling of the street circled; the yellow ducklings of the bottom street and the black ones of
# the top street circled; every duckling between the streets circled.
GL_DUCKLINGS = GOALS.index("ducklings_circled") + 1
GL_STREET_DUCKLINGS = GOALS.index("street_ducklings") + 1
GL_EDGE_DUCKLINGS = GOALS.index("edge_ducklings") + 1
GL_BETWEEN_DUCKLINGS = GOALS.index("between_ducklings") + 1
# American Dream: every house of the card's colours perfect; every house of its colours numbered;
# at least `count` complete columns of perfect houses only; at least `count` complete columns;
# `count` complete columns side by side; at least `count` complete streets of perfect houses only;
# at least `count` complete streets.
GL_COLOURS_PERFECT = GOALS.index("colours_perfect") + 1
GL_COLOURS_NUMBERED = GOALS.index("colours_numbered") + 1
GL_PERFECT_COLUMNS = GOALS.index("perfect_columns") + 1
GL_COMPLETE_COLUMNS = GOALS.index("complete_columns") + 1
GL_ADJACENT_COLUMNS = GOALS.index("adjacent_columns") + 1
GL_PERFECT_STREETS = GOALS.index("perfect_streets") + 1
GL_COMPLETE_STREETS = GOALS.index("complete_streets") + 1
# American Dream: `count` x `count` perfect houses side by side in `count` consecutive streets and
# as many consecutive columns ("9 perfect adjacent houses forming a 3x3 square").
GL_PERFECT_SQUARE = GOALS.index("perfect_square") + 1
