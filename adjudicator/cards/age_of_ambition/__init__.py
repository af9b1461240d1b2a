"""Age of Ambition as a turn-file game: sequential turns of up to two actions
on an economy board and six districts. `engine.GAME` is the entry point."""
