"""Simulation: many seeded games between bots, with a progress bar, tables and JSON."""
