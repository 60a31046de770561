"""Parquet -> polars tables -> matplotlib charts. Empty until the sweep and analysis issues land."""
