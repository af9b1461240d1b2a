"""The modes of the files a phase writes (store/phasecommit): reports and maps
may be published (0644); everything else in a game folder is its owner's
alone (0600), whatever the umask, and a file that was readable before is not
after the judge rewrites it."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.store import phasecommit

MODES = {                        # path in the game folder -> its mode once committed
    "game.yaml": 0o600,
    "history/1901-spring-movement.yaml": 0o600,
    "orders/1901-spring-movement/france.txt": 0o600,
    "private/france/1901-spring-movement.txt": 0o600,
    "mail/outbox/0001.eml": 0o600,
    "reports/1901-spring-movement.txt": 0o644,
    "maps/1901-spring-movement.svg": 0o644,
}


@pytest.fixture(params=[0o000, 0o022, 0o077], ids=["umask-000", "umask-022", "umask-077"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def test_committed_files_have_their_modes_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    game = tmp_path / "game"
    game.mkdir()
    (game / "game.yaml").write_text("old\n", encoding="utf-8")
    (game / "game.yaml").chmod(0o666)          # readable by all before: the rewrite closes it
    phasecommit.commit(game, [(game / path, f"{path}\n") for path in MODES])
    found = {path: stat.S_IMODE((game / path).stat().st_mode) for path in MODES}
    assert found == MODES
    assert not (game / phasecommit.STAGING).exists()
