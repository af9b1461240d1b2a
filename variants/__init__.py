"""The variant and game data the judge ships (YAML): package data."""
