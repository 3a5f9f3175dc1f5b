"""Terminal play: a human against bots, in a plain text console."""
