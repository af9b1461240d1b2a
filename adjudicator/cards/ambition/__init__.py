"""Ambition, the card game of influence, alliances and nuclear brinkmanship,
played by turn files. `engine.GAME` is the TurnGame the registry loads."""
