"""Turn-file games: card and board games played through the same CLI, game
folders, history and reports as Diplomacy, with a YAML turn file per phase."""
