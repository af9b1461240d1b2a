"""Age of Artisans: Architects of the West Kingdom as played on Board Game Arena,
with the two Age of Artisans rules, as a sequential turn-file game.

`engine.GAME` is the TurnGame; the other modules hold one concept each."""
