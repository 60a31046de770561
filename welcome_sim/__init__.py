"""welcome-sim: Monte Carlo balance analysis for Welcome To... Your Perfect Home."""

__version__ = "0.1.0"
