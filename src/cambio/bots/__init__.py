"""Bots for both games. Bots see a player's view, never the state."""
