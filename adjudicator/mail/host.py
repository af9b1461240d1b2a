"""A host of games behind one judge address: `adjudicator run --host DIR`.

A host folder holds game folders (any folder with a game.yaml) and
host.yaml, the judge's own settings for all of them:

    judge_address: judge@example.org     # the From of every mail; the mailbox players write to
    judge_name: Diplomacy Judge
    gm_contact: gm@example.org           # the GM's own address, for games that name none
    mail:
      source: imaps://judge@example.org@mail.example.org:993/INBOX   # or a mailbox path
      smtp: mail.example.org:587
      starttls: true
      user: judge@example.org

One tick, under the host's lock (HOST/.lock):

  1. every game folder is looked at with a few stat calls (game.yaml,
     history/, orders/, mail/); the host's index (HOST/.host/index.json)
     remembers, for each game, what they were after its last step, when it
     next needs the clock (its deadline plus grace, its next reminder), and
     whom it routes mail for. A game whose files did not change, with no
     mail and no moment due, is not read at all: nothing of it is imported
     or parsed;
  2. the mailbox is read once (one IMAP login); each new mail is routed to
     its game (mail.routing), or answered once by the host when its sender
     plays in several games and names none, or dropped (a stranger's, the
     judge's own);
  3. each game with mail, a moment due, or changed files takes the same
     locked, idempotent step as `run GAME` (mail.runner.step), with its own
     mails; its replies, results, notices and reminders go out through the
     one door every mail passes (smtp.send_files);
  4. the host's ledger (HOST/mail/ingested.txt) notes each mail once its game
     has it (a mail held unread by a password lock is not noted, so it comes
     again once the lock ends).

Each game's game.yaml gets the host's judge address and name, SMTP settings
and (if it has none) GM address, so every command run on one game by hand
(`mail`, `status`, `run GAME`) sends as the host does; a game in a host reads
no mailbox of its own. A game's failure (its lock held, a broken game.yaml) is
one line, and the other games go on; that game is looked at again next tick."""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.store import storage

HOST_FILE = "host.yaml"
INDEX = Path(".host") / "index.json"
WATCHED = ("game.yaml", "history", "orders", "mail")     # what a step or a GM's command changes
PUSHED_MAIL_KEYS = ("smtp", "starttls", "user", "dkim")  # host.yaml's mail settings each game gets


# --- host.yaml -------------------------------------------------------------------------------
def read_host(folder: Path) -> dict[str, Any]:
    path = folder / HOST_FILE
    if not path.is_file():
        raise DataFileError("no host.yaml here", file=str(path),
                            hint="make one with 'adjudicator host DIR --judge-address ... --source ... --smtp ...'")
    meta = storage.read_yaml(path)
    if not isinstance(meta, dict):
        raise DataFileError("host.yaml must be a mapping", file=str(path))
    from adjudicator.store.names import is_address
    address = meta.get("judge_address")
    if not isinstance(address, str) or not is_address(address):
        raise DataFileError("'judge_address' must be one address", file=str(path), hint="e.g. judge@example.org")
    for key in ("judge_name", "gm_contact"):
        value = meta.get(key)
        if value is not None and (not isinstance(value, str) or not value.isprintable()):
            raise DataFileError(f"'{key}' must be text on one line", file=str(path))
    if not isinstance(meta.get("mail") or {}, dict):
        raise DataFileError("'mail' must be a mapping of source, smtp, starttls, user", file=str(path))
    return meta


def judge_meta(host: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The host's settings as game.yaml spells them (for its own mails, and each game's copy)."""
    mail = {k: v for k, v in (host.get("mail") or {}).items() if k in PUSHED_MAIL_KEYS}
    dkim = mail.get("dkim")
    if isinstance(dkim, dict) and dkim.get("key") and not Path(str(dkim["key"])).is_absolute():
        mail["dkim"] = {**dkim, "key": str((folder / str(dkim["key"])).resolve())}
    meta: dict[str, Any] = {"gm_email": host["judge_address"], "mail": mail}
    if host.get("judge_name"):
        meta["judge_name"] = host["judge_name"]
    return meta


def synced(game: dict[str, Any], host: dict[str, Any], folder: Path) -> dict[str, Any]:
    """game.yaml with the host's judge settings (the game's own `mail: {svg: ...}` kept)."""
    judge = judge_meta(host, folder)
    own = {k: v for k, v in (game.get("mail") or {}).items() if k not in (*PUSHED_MAIL_KEYS, "source",
                                                                           "imap_starttls")}
    changed = {**game, **judge, "mail": {**own, **judge["mail"]}}
    if not changed["mail"]:
        changed.pop("mail")
    if not game.get("gm_contact") and host.get("gm_contact"):
        changed["gm_contact"] = host["gm_contact"]
    return changed


# --- the index: what each game looked like after its last step ---------------------------
def fingerprint(game: Path) -> list[int]:
    """A few stat calls: anything a step or a GM's command writes changes one of them."""
    marks: list[int] = []
    for name in WATCHED:
        try:
            found = os.stat(game / name)
        except OSError:
            marks += [0, 0]
            continue
        marks += [found.st_mtime_ns, found.st_size if name == "game.yaml" else found.st_ino]
    return marks


def load_index(folder: Path) -> dict[str, dict[str, Any]]:
    path = folder / INDEX
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}                         # none yet, or damaged: every game is looked at again
    return data if isinstance(data, dict) else {}


def save_index(folder: Path, index: dict[str, dict[str, Any]]) -> None:
    storage.atomic_write(folder / INDEX, json.dumps(index, sort_keys=True, separators=(",", ":")))


def game_folders(folder: Path) -> list[Path]:
    """The host's games: each folder beside host.yaml that holds a game.yaml (by name)."""
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".") and \
                    os.path.isfile(os.path.join(entry.path, "game.yaml")):
                found.append(Path(entry.path))
    return sorted(found, key=lambda p: p.name)


def routing_facts(game: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """What routing needs of a game, from its game.yaml (read only when it changed)."""
    from adjudicator.mail.routing import entry_of
    entry = entry_of(game.name, meta)
    return {"name": entry.name, "addresses": sorted(entry.addresses), "joins": entry.joins}


def wake_of(meta: dict[str, Any], now: datetime.datetime, over: bool) -> str | None:
    """The next moment the game needs the clock: its deadline plus grace, or a
    reminder's moment; None if it is over, paused or waiting for sign-up."""
    from adjudicator.folder import gmcontrol, schedule
    if over:
        return None
    if gmcontrol.held(meta) is not None:
        return None
    deadline = schedule.deadline_of(meta)
    if deadline is None:
        return now.isoformat()
    settings = schedule.schedule(meta)
    moments = [deadline + schedule.parse_duration(settings["grace"])]
    moments += [deadline - schedule.parse_duration(r) for r in settings["reminders"] or []]
    later = [m for m in moments if m > now]
    return min(later).isoformat() if later else now.isoformat()


def is_due(entry: dict[str, Any], now: datetime.datetime) -> bool:
    wake = entry.get("wake")
    if not wake:
        return False
    try:
        return datetime.datetime.fromisoformat(str(wake)) <= now
    except ValueError:
        return True


# --- one tick ---------------------------------------------------------------------------------
@dataclass
class Fetched:
    raw: Any                              # bytes, or quarantine.Oversize
    key: str                              # the ledger key
    uid: int | None = None                # the IMAP UID


@dataclass
class Tick:
    lines: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)      # games whose step failed
    stepped: list[str] = field(default_factory=list)
    idle: int = 0


def tick(folder: Path, now: datetime.datetime, *, mail: bool = True) -> Tick:
    """One tick of every game in the host (see the module docstring)."""
    host = read_host(folder)
    index = load_index(folder)
    games = game_folders(folder)
    done = Tick()
    prints = {game.name: fingerprint(game) for game in games}
    changed = {game.name for game in games if index.get(game.name, {}).get("print") != prints[game.name]}
    for name in list(index):
        if name not in prints:
            del index[name]                   # a game moved out of the host
    for game in games:
        if game.name in changed:
            from adjudicator.folder.folders import game_meta
            try:
                index[game.name] = {**routing_facts(game, game_meta(game)), "wake": now.isoformat()}
            except AdjudicatorError as exc:
                done.lines.append(f"[{game.name}] error: {exc}")
                done.failed.append(game.name)
                # Its mail still routes to it by what was known (and waits there: its step fails too).
                known = {k: v for k, v in index.get(game.name, {}).items() if k != "print"}
                if known:
                    index[game.name] = {**known, "wake": now.isoformat()}
                else:
                    index.pop(game.name, None)
    settings = host.get("mail") or {}
    routed: dict[str, list[Fetched]] = {}
    box = None
    if mail and settings.get("source"):
        box = HostMailbox(folder, host, str(settings["source"]), bool(settings.get("imap_starttls")))
    try:
        if box is not None:
            fetched = box.fetch(now)
            routed = route_all(folder, host, index, fetched, now, done, box)
        by_name = {game.name: game for game in games}
        due = sorted({*routed, *(g for g in changed if g in index),
                      *(name for name, entry in index.items() if is_due(entry, now))})
        server = smtp_server(host) if mail and due else None
        for name in due:
            step_game(folder, host, by_name[name], routed.get(name, []), server, now, index, done, box)
        done.idle = len(games) - len(done.stepped) - len([g for g in done.failed if g not in done.stepped])
        if box is not None:
            box.finish()
    finally:
        if box is not None:
            box.close()
        save_index(folder, index)
    return done


def step_game(folder: Path, host: dict[str, Any], game: Path, mails: list[Fetched], server: Any,
              now: datetime.datetime, index: dict[str, dict[str, Any]], done: Tick, box: HostMailbox | None) -> None:
    """The game's step under its lock; its index entry and the host's ledger after it."""
    from adjudicator.folder.folders import game_meta
    from adjudicator.mail import ledger
    from adjudicator.mail.mailer import RoutedMailer
    from adjudicator.mail.runner import step
    from adjudicator.store import folderlock, phasecommit
    done.stepped.append(game.name)
    try:
        with folderlock.hold(game) as recovered:
            done.lines += [f"[{game.name}] {note}" for note in recovered]
            meta = game_meta(game)
            wanted = synced(meta, host, folder)
            if wanted != meta:
                phasecommit.commit(game, [(game / "game.yaml", storage.dump_yaml(wanted))])
            mailer = RoutedMailer(None, False, server, [m.raw for m in mails])
            result = step(game, now, mailer)
            done.lines += [f"[{game.name}] {line}" for line in result.lines]
            after = game_meta(game)
            index[game.name] = {**routing_facts(game, after), "wake": wake_of(after, now, result.over),
                                "over": result.over, "print": fingerprint(game)}
            if box is not None and mails:
                taken = ledger.read(game)
                box.taken += [m for m in mails if result.over or ledger.is_seen(m.key, taken)]
    except AdjudicatorError as exc:
        done.lines.append(f"[{game.name}] error: {exc}")
        done.failed.append(game.name)
        index.get(game.name, {}).pop("print", None)        # looked at again next tick
    except Exception as exc:  # noqa: BLE001 - one game's fault must not stop a host's other games
        done.lines.append(f"[{game.name}] error: internal error ({type(exc).__name__}: {exc}); this game's "
                          "step was stopped, the others went on. This is a bug in adjudicator: please report it.")
        done.failed.append(game.name)
        index.get(game.name, {}).pop("print", None)


def route_all(folder: Path, host: dict[str, Any], index: dict[str, dict[str, Any]], fetched: list[Fetched],
              now: datetime.datetime, done: Tick, box: HostMailbox) -> dict[str, list[Fetched]]:
    """Each new mail to its game; the host answers an ambiguous one and notes
    what no game takes (strangers', its own) in its ledger."""
    if not fetched:
        return {}
    from adjudicator.mail.routing import GameEntry, Router
    from adjudicator.mail.smtp import sent_ids
    entries = [GameEntry(name, str(e.get("name") or name), frozenset(e.get("addresses") or []), bool(e.get("joins")))
               for name, e in index.items() if not e.get("over")]
    router = Router(entries, str(host["judge_address"]).lower(), sent_ids(folder))
    routed: dict[str, list[Fetched]] = {}
    counts: dict[str, int] = {}
    for item in fetched:
        route = router.route(item.raw)
        counts[route.how] = counts.get(route.how, 0) + 1
        if route.game is not None:
            routed.setdefault(route.game, []).append(item)
            continue
        if route.how == "ambiguous":
            answer_ambiguous(folder, host, item, route.games, now, done)
        box.taken.append(item)                # no game takes it: noted now, never read again
    shown = ", ".join(f"{n} {how}" for how, n in sorted(counts.items()))
    done.lines.append(f"host: {len(fetched)} new mail(s): {shown}")
    return routed


def answer_ambiguous(folder: Path, host: dict[str, Any], item: Fetched, games: list[str],
                     now: datetime.datetime, done: Tick) -> None:
    from adjudicator.mail.hostreply import answer
    line = answer(folder, host, item.raw, item.key, games, now)
    if line:
        done.lines.append(f"host: {line}")


def smtp_server(host: dict[str, Any]) -> Any:
    settings = host.get("mail") or {}
    if not settings.get("smtp"):
        return None
    from adjudicator.mail.mailer import GameMailer
    return GameMailer.from_settings(settings, HOST_FILE).server


# --- the mailbox and the mailer of a game in a host ---------------------------------------
class HostMailbox:
    """The host's mailbox, read once a tick: IMAP (one login) or a mailbox path."""

    def __init__(self, folder: Path, host: dict[str, Any], source: str, starttls: bool) -> None:
        self.folder, self.host, self.source, self.starttls = folder, host, source, starttls
        self.client: Any = None
        self.validity = 0
        self.taken: list[Fetched] = []        # handled: noted in the ledger (and \\Seen) at the end
        self.left = 0

    def fetch(self, now: datetime.datetime) -> list[Fetched]:
        from adjudicator.mail import imap, ledger
        from adjudicator.mail.quarantine import Oversize
        seen = ledger.read(self.folder)
        if imap.is_imap(self.source):
            from adjudicator.mail.mailer import IMAP_PASSWORD, password
            box = imap.parse_url(self.source)
            self.client = imap.connect(box, password(IMAP_PASSWORD, "IMAP password"), starttls=self.starttls)
            selected = self.client.select_folder(box.folder)
            self.validity = int(selected.get(b"UIDVALIDITY") or 0)
            fresh, sizes = imap.new_uids(self.client, seen, self.validity)
            take = fresh[:imap.MAX_FETCH]
            self.left = len(fresh) - len(take)
            got = imap.fetch_bodies(self.client, take, sizes)
            items = [Fetched(raw, raw.key if isinstance(raw, Oversize) else ledger.mail_key(raw), uid)
                     for uid, raw in got]
        else:
            from adjudicator.mail.mailread import read_mailbox
            items = [Fetched(raw, raw.key if isinstance(raw, Oversize) else ledger.mail_key(raw))
                     for raw in read_mailbox(Path(self.source))]
        fresh_items, keys = [], set()
        for item in items:
            if not ledger.is_seen(item.key, seen) and item.key not in keys:
                keys.add(item.key)
                fresh_items.append(item)
        return fresh_items

    def finish(self) -> None:
        """Note what was handled in the host's ledger, and mark it \\Seen over IMAP."""
        from adjudicator.mail import imap, ledger
        seen = ledger.read(self.folder)
        handled = self.taken
        if not handled:
            return
        seen |= {item.key for item in handled}
        seen |= {imap.uid_key(self.validity, item.uid) for item in handled if item.uid is not None}
        ledger.write(self.folder, seen)
        if self.client is not None:
            from imapclient import SEEN
            uids = [item.uid for item in handled if item.uid is not None]
            if uids:
                self.client.add_flags(uids, [SEEN])

    def close(self) -> None:
        if self.client is not None:
            import imaplib
            try:
                self.client.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
            self.client = None

