"""Real mail servers on 127.0.0.1 for the tests.

* `smtp_inbox`: aiosmtpd, storing every mail it accepts per recipient.
* `dovecot`: Debian's Dovecot (package dovecot-imapd), started as
  `dovecot -F -c <conf>` with a throw-away configuration, user list and
  Maildir store, listening on free ports: plain IMAP (which offers STARTTLS)
  and IMAPS, with a self-signed certificate for 127.0.0.1 that the tests
  trust through SSL_CERT_FILE. Where dovecot or openssl is not installed,
  the tests that need it are skipped and say why (ADJUDICATOR_DOVECOT names
  another dovecot binary).

Where CI installed the servers, it sets ADJUDICATOR_REQUIRE_SERVERS=1: then a
missing server fails its test instead of skipping it (`missing_server`), so
CI cannot go green by skipping.

Run as root (as in CI), Dovecot's login and mail processes need their own
users (dovenull, dovecot, nobody), so the store lives in a fresh folder under
the system's temp directory that those users can reach; otherwise everything
runs as the current user inside tmp_path. Every wait is bounded."""

from __future__ import annotations

import errno
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any, NoReturn

import pytest
from aiosmtpd.controller import Controller

START_TIMEOUT = 15.0
STOP_TIMEOUT = 10.0
PASSWORD = "imap-secret-1"         # every test user's IMAP password
REQUIRE_SERVERS = "ADJUDICATOR_REQUIRE_SERVERS"


def missing_server(reason: str) -> NoReturn:
    """A real server (or its tool) is missing: skip the test, saying why;
    fail it where CI says it installed the servers."""
    if os.environ.get(REQUIRE_SERVERS) == "1":
        pytest.fail(f"{reason}, but {REQUIRE_SERVERS}=1 says the servers were installed: "
                    "a server test may not skip", pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def strict_parse(raw: bytes) -> EmailMessage:
    """The standard library's parser, refusing any defect."""
    msg = BytesParser(policy=policy.default.clone(raise_on_defect=True)).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    return msg


def body_of(msg: EmailMessage) -> str:
    """The plain-text body, with the line ends the judge wrote."""
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


# --- SMTP ----------------------------------------------------------------------------------
@dataclass
class SmtpInbox:
    host: str
    port: int
    mails: dict[str, list[bytes]] = field(default_factory=dict)     # recipient -> raw mails, in order
    parsed: dict[str, list[EmailMessage]] = field(default_factory=dict)   # the same, parsed by `of` so far

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        for rcpt in envelope.rcpt_tos:
            self.mails.setdefault(rcpt.lower(), []).append(bytes(raw))
        return "250 OK"

    def count(self) -> int:
        return sum(len(v) for v in self.mails.values())

    def wait_for(self, total: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while self.count() < total and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.count() >= total, f"{self.count()} of {total} mails arrived"

    def of(self, address: str) -> list[EmailMessage]:
        """Every mail to the address, each parsed strictly once: a whole game
        asks again after every phase, and parsing mails with maps attached
        again each time would cost seconds."""
        raws = self.mails.get(address.lower(), [])
        done = self.parsed.setdefault(address.lower(), [])
        done.extend(strict_parse(raw) for raw in raws[len(done):])
        return list(done)


@pytest.fixture
def smtp_inbox() -> Iterator[SmtpInbox]:
    for attempt in range(3):
        inbox = SmtpInbox("127.0.0.1", free_port())
        controller = Controller(inbox, hostname=inbox.host, port=inbox.port)
        try:
            controller.start()
            break
        except OSError as error:
            # Another process (another xdist worker) took the port between free_port() and the bind.
            if error.errno != errno.EADDRINUSE or attempt == 2:
                raise
    try:
        yield inbox
    finally:
        controller.stop()


# --- Dovecot -----------------------------------------------------------------------------------
def dovecot_binary() -> str | None:
    chosen = os.environ.get("ADJUDICATOR_DOVECOT")
    if chosen is not None:
        return chosen if os.path.exists(chosen) else None
    return shutil.which("dovecot") or next((p for p in ("/usr/sbin/dovecot",) if os.path.exists(p)), None)


@dataclass
class Dovecot:
    host: str
    port: int                      # plain IMAP, STARTTLS offered
    tls_port: int                  # IMAPS
    cert: Path
    users: list[str]

    def client(self, user: str, tls: bool = False) -> Any:
        import ssl

        from imapclient import IMAPClient
        context = ssl.create_default_context(cafile=str(self.cert))
        client = IMAPClient(self.host, port=self.tls_port if tls else self.port, ssl=tls, ssl_context=context,
                            timeout=10)
        client.login(user, PASSWORD)
        return client

    def append(self, user: str, raws: list[bytes], folder: str = "INBOX") -> None:
        client = self.client(user)
        try:
            for raw in raws:
                client.append(folder, raw)
        finally:
            client.logout()

    def flags(self, user: str, folder: str = "INBOX") -> dict[int, tuple[bytes, ...]]:
        client = self.client(user)
        try:
            client.select_folder(folder, readonly=True)
            uids = client.search(["ALL"])
            return {int(uid): tuple(data[b"FLAGS"]) for uid, data in client.fetch(uids, ["FLAGS"]).items()}
        finally:
            client.logout()

    def url(self, user: str, tls: bool = False) -> str:
        return f"{'imaps' if tls else 'imap'}://{user}@{self.host}:{self.tls_port if tls else self.port}/INBOX"


CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
disable_plaintext_auth = no
# a wrong password is refused at once (the default waits 2 s)
auth_failure_delay = 0
auth_mechanisms = plain login
default_login_user = {login_user}
default_internal_user = {internal_user}
default_internal_group = {internal_group}
first_valid_uid = 1
mail_location = maildir:{root}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  {chroot}
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
  }}
}}
{extra}
"""


# The certificate and key made by this test process, copied into every
# server's folder: an RSA key takes openssl up to a second of CPU to make, and
# every test that starts Dovecot would otherwise make its own.
_CERT: list[tuple[bytes, bytes]] = []


def make_cert(root: Path) -> None:
    """cert.pem and key.pem for 127.0.0.1 in `root`, made once per test process."""
    if not _CERT:
        if shutil.which("openssl") is None:
            missing_server("openssl is not installed (it makes the test server's certificate)")
        with tempfile.TemporaryDirectory() as made:
            key, cert = Path(made) / "key.pem", Path(made) / "cert.pem"
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                            "-keyout", str(key), "-out", str(cert),
                            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                           check=True, capture_output=True, timeout=60)
            _CERT.append((cert.read_bytes(), key.read_bytes()))
    cert_bytes, key_bytes = _CERT[0]
    (root / "cert.pem").write_bytes(cert_bytes)
    (root / "key.pem").write_bytes(key_bytes)
    (root / "key.pem").chmod(0o600)


def wait_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    why = log.read_text(errors="replace") if log.exists() else ""
    raise RuntimeError(f"dovecot did not start within {START_TIMEOUT}s: {why[-2000:]}")


@pytest.fixture
def dovecot(tmp_path: Path) -> Iterator[Dovecot]:
    binary = dovecot_binary()
    if binary is None:
        missing_server("dovecot is not installed (apt-get install dovecot-imapd)")
    as_root = os.geteuid() == 0
    root = Path(tempfile.mkdtemp(prefix="adjudicator-dovecot-")) if as_root else tmp_path / "dovecot"
    root.mkdir(exist_ok=True)
    process: subprocess.Popen[bytes] | None = None
    try:
        for sub in ("run", "state", "mail", "home"):
            (root / sub).mkdir()
        make_cert(root)
        users = ["judge@localhost", "other@localhost"]
        (root / "passwd").write_text("".join(f"{u}:{{PLAIN}}{PASSWORD}\n" for u in users), encoding="utf-8")
        if as_root:
            try:
                mail_user = pwd.getpwnam("nobody")
                pwd.getpwnam("dovenull")
                pwd.getpwnam("dovecot")
            except KeyError:
                missing_server("the users dovenull, dovecot and nobody are needed to run dovecot as root")
            root.chmod(0o755)
            for sub in ("mail", "home"):
                shutil.chown(root / sub, mail_user.pw_uid, mail_user.pw_gid)
            settings = {"login_user": "dovenull", "internal_user": "dovecot", "internal_group": "dovecot",
                        "uid": mail_user.pw_uid, "gid": mail_user.pw_gid, "chroot": "", "extra": ""}
        else:
            me = pwd.getpwuid(os.getuid())
            settings = {"login_user": me.pw_name, "internal_user": me.pw_name, "internal_group": str(os.getgid()),
                        "uid": os.getuid(), "gid": os.getgid(), "chroot": "chroot =",
                        "extra": "service anvil {\n  chroot =\n}\n"}
        for attempt in range(3):
            port, tls_port = free_port(), free_port()
            (root / "dovecot.conf").write_text(CONFIG.format(root=root, port=port, tls_port=tls_port, **settings),
                                               encoding="utf-8")
            process = subprocess.Popen([binary, "-F", "-c", str(root / "dovecot.conf")],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                wait_listening(port, process, root / "dovecot.log")
                break
            except RuntimeError:
                # Dovecot exits at once when a port was taken (by another xdist
                # worker, say) between free_port() and its bind: new ports.
                if process.poll() is None or attempt == 2:
                    raise
        yield Dovecot("127.0.0.1", port, tls_port, root / "cert.pem", users)
    finally:
        stop_in_background(process, root if as_root else None)


def stop_in_background(process: subprocess.Popen[bytes] | None, remove: Path | None) -> None:
    """Stop dovecot, then remove its folder (if given). Dovecot's master
    sleeps a second on its way out, so the wait goes on in a thread while the
    next test runs; it is not a daemon thread, so the test process waits for
    it before it exits."""
    if process is not None:
        process.terminate()

    def finish() -> None:
        if process is not None:
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=STOP_TIMEOUT)
        if remove is not None:
            shutil.rmtree(remove, ignore_errors=True)

    threading.Thread(target=finish, name="dovecot-stop").start()
