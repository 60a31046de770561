"""The command line's commands, one group per module; welcome_sim/cli.py makes the app of them."""
