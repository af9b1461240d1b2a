"""Fixtures: the variant data and the rules read from it."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.cards import driver
from adjudicator.cards.age_of_ambition.engine import GAME
from adjudicator.cards.age_of_ambition.rules import Rules, read_rules


@pytest.fixture(scope="session")
def data() -> dict[str, Any]:
    return driver.load_data(GAME)


@pytest.fixture(scope="session")
def rules(data: dict[str, Any]) -> Rules:
    return read_rules(data)
