"""Competing: ratings (OpenSkill over a game's standings, and where the bot levels
start), swiss pairing and standings, arena pairing and points, and matches of
bot against bot. Pure functions of their inputs: no store, no request."""
