"""Who chooses a move: computer players, generic over variants through the engine's API."""
