"""Where a phase step leaves what the mail side owes the players: the
notices of what the judge did for a player by default (a power that sent no
orders, units disbanded, builds waived, civil disorder) and the GM's line
when a power reaches the missed limit. A phase writes its notices with the
phase, as mail/notices/<phase>/<what>.yaml:

    players: {france: ["No orders came from you ..."]}
    gm: ["France has missed 2 phases in a row ..."]

so a rollback moves them with the phase; `run` mails each file once."""

from __future__ import annotations

from pathlib import Path

NOTICES = Path("mail") / "notices"
PHASE_NOTICES = "phase.yaml"            # made by an adjudication
DECLARED_NOTICES = "declared.yaml"      # made by a GM's declaration between phases (civil disorder)


def notices_path(folder: Path, slug: str, what: str = PHASE_NOTICES) -> Path:
    return folder / NOTICES / slug / what
