"""Card-game bots."""
