"""Names that become file names and headers, the paths the judge writes, and
names that only look alike (store/names): each rule at its edges."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.errors import AdjudicatorError
from adjudicator.store.names import check_name, inside, is_address, refuse_confusable


@pytest.mark.parametrize("name, allowed", [
    ("a", True), ("Zoë", True), ("Ana_2", True), ("x.y-z", True), ("7", True),
    ("a" * 40, True), ("a" * 41, False), ("", False), ("_a", False), (".a", False), ("-a", False),
    ("..", False), ("a/b", False), ("a b", False), ("a\n", False), ("a\0", False),
])
def test_check_name(name: str, allowed: bool) -> None:
    if allowed:
        assert check_name(name, "player") == name
    else:
        with pytest.raises(AdjudicatorError) as caught:
            check_name(name, "player")
        assert caught.value.message == f"player {name!r} is not allowed"
        assert caught.value.hint == "use 1-40 letters, digits, '_', '.' or '-', starting with a letter or digit"


def test_is_address_up_to_its_length_limit() -> None:
    """254 characters, the most a path of SMTP (RFC 5321) carries."""
    local = "a" * 64
    domain = ".".join(["b" * 63, "c" * 63, "d" * 63])
    at_limit = local + "@" + domain[:254 - len(local) - 1]
    assert len(at_limit) == 254 and is_address(at_limit)
    assert not is_address(at_limit + "e")
    assert is_address("o'brien+dip@example.org")
    assert not is_address("a b@example.org") and not is_address("a@-example.org") and not is_address("@x")


def test_inside_gives_the_resolved_path_or_refuses(tmp_path: Path) -> None:
    game = tmp_path / "game"
    (game / "reports").mkdir(parents=True)
    assert inside(game, game / "reports" / "r.txt") == (game / "reports" / "r.txt").resolve()
    assert inside(game, game) == game.resolve()
    for outside in (tmp_path / "x.txt", game / ".." / "x.txt", tmp_path / "gamex" / "y"):
        with pytest.raises(AdjudicatorError) as caught:
            inside(game, outside)
        assert caught.value.message == f"refusing to write outside the game folder: {outside}"
        assert caught.value.hint == "player, power and game names may not hold path separators"


@pytest.mark.parametrize("link", ["maps", "maps/m.svg"])
def test_inside_refuses_a_link_anywhere_below_the_folder(tmp_path: Path, link: str) -> None:
    game = tmp_path / "game"
    (game / "maps").mkdir(parents=True)
    (game / "elsewhere").mkdir()
    planted = game / link
    if planted.exists():
        planted.rmdir()
    planted.symlink_to(game / "elsewhere")
    with pytest.raises(AdjudicatorError) as caught:
        inside(game, game / "maps" / "m.svg")
    assert caught.value.message == f"refusing to write through a symbolic link: {game.resolve() / link}"


def test_inside_a_folder_reached_through_a_link(tmp_path: Path) -> None:
    """The game folder itself may be a link (a GM's own layout); only what is below it is checked."""
    (tmp_path / "real" / "orders").mkdir(parents=True)
    (tmp_path / "game").symlink_to(tmp_path / "real")
    assert inside(tmp_path / "game", tmp_path / "game" / "orders" / "f.txt") == tmp_path / "real" / "orders" / "f.txt"
    assert inside(tmp_path / "game", tmp_path / "real" / "orders" / "f.txt") == tmp_path / "real" / "orders" / "f.txt"
    (tmp_path / "real" / "orders" / "f.txt").symlink_to(tmp_path / "x")
    for written in (tmp_path / "game" / "orders" / "f.txt", tmp_path / "real" / "orders" / "f.txt"):
        with pytest.raises(AdjudicatorError, match="symbolic link"):
            inside(tmp_path / "game", written)


@pytest.mark.parametrize("name, others, message", [
    ("bob", ["alice", "bob"], "player name 'bob' is already in the game"),
    ("Bob", ["bob"], "player name 'Bob' looks like 'bob', already in the game"),
    ("bob", ["BOB"], "player name 'bob' looks like 'BOB', already in the game"),
    ("b\u043eb", ["bob"], "player name 'b\u043eb' looks like 'bob', already in the game (it is written b\\u043eb)"),
    ("caroI", ["carol"], "player name 'caroI' looks like 'carol', already in the game"),
    ("Zo\u00eb", ["Zo\u00eb"], "player name 'Zo\u00eb' is already in the game"),
])
def test_refuse_confusable(name: str, others: list[str], message: str) -> None:
    with pytest.raises(AdjudicatorError) as caught:
        refuse_confusable(name, others, "player name")
    assert caught.value.message == message
    assert caught.value.hint == ("choose a name that cannot be mistaken for another; "
                                 "mixing letters of several alphabets is the usual cause")


def test_names_that_do_not_look_alike_pass() -> None:
    refuse_confusable("bob", ["alice", "bobby", "rob"])
    refuse_confusable("bob", [])
