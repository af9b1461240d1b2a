"""The From header of every mail the judge sends: judge_name's words and
gm_email's address alone, however the GM wrote gm_email."""

from __future__ import annotations

from email.utils import getaddresses

import pytest

from adjudicator.mail.results import gm_address, judge_from


@pytest.mark.parametrize(("meta", "sender"), [
    ({"gm_email": "judge@example.org", "judge_name": "The Judge"}, "The Judge <judge@example.org>"),
    ({"gm_email": "Judge <judge@example.org>", "judge_name": "The Judge"}, "The Judge <judge@example.org>"),
    ({"gm_email": "Old Name <judge@example.org>"}, "Judge <judge@example.org>"),
    ({}, "Judge <judge@localhost>"),
])
def test_the_sender_is_one_name_and_one_address(meta: dict[str, str], sender: str) -> None:
    assert judge_from(meta) == sender
    assert len(getaddresses([judge_from(meta)])) == 1
    assert gm_address(meta) == sender.split("<")[1].rstrip(">")
