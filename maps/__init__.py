"""The map graphs, layouts and territory geometry the judge ships (YAML): package data."""
