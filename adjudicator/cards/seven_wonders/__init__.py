"""7 Wonders (base game) as a turn-file game; see docs/games/seven-wonders.md."""
