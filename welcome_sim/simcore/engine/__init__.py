"""The engine: the compiled game loop and its phases, kernel variants, parallel play, warm-up and the compiled cache."""
