"""Sweeps: grids of game settings played in chunks into a Hive-partitioned Parquet dataset."""
