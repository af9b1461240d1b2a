"""The GM by mail. The GM mails from game.yaml's `gm_contact` (their own
address, `mailbox --gm-address`; never the judge's) with the GM password
(`adjudicator gm-password GAME`, kept hashed as `gm_password_hash`), and the
mail is read as a player's is, gate and all: the sender and the password are
checked first, wrong passwords are counted and locked out, replies capped.
Its lines are the GM's commands (mail/commands/gm.py). Without a GM password,
or where the GM's address is also a player's, the GM's mail is a stranger's:
no reply."""

from __future__ import annotations

from typing import Any

from adjudicator.store.names import is_address

SEAT = "gm"
HASH_KEY = "gm_password_hash"


def gm_entry(meta: dict[str, Any], players: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """{address: the GM's roster-like entry} for the mail intake, or {}."""
    contact = str(meta.get("gm_contact") or "").strip()
    password = meta.get(HASH_KEY)
    if not contact or not is_address(contact) or not isinstance(password, str) or not password:
        return {}
    if contact.lower() in players or any(str(p.get("power") or "").lower() == SEAT for p in players.values()):
        return {}
    return {contact.lower(): {"power": SEAT, "name": "GM", "email": contact, "password_hash": password, "gm": True}}
