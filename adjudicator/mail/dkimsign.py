"""DKIM signatures (RFC 6376) on the judge's outgoing mail, by dkimpy, when
the GM configures a key in game.yaml:

    mail:
      dkim:
        key: gm/dkim.pem          # the private key (RSA, PEM); a path relative to the game folder, or absolute
        selector: judge2026       # the DNS name is <selector>._domainkey.<domain>
        domain: example.org       # optional: the domain of gm_email

The public key goes in DNS as a TXT record at <selector>._domainkey.<domain>
(README: "Mail that arrives"). Each mail is signed as it goes out
(smtp.send_files), after its Auto-Submitted and X-Loop headers are added, with
relaxed/relaxed canonicalisation, which survives the usual rewrapping of
headers by relays."""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from adjudicator.errors import DataFileError

# Signed when present; From is required by RFC 6376.
SIGNED = [b"from", b"to", b"subject", b"date", b"message-id", b"in-reply-to", b"references",
          b"auto-submitted", b"x-loop", b"mime-version", b"content-type", b"content-transfer-encoding"]


@dataclass(frozen=True)
class DkimKey:
    key: bytes = b""
    selector: bytes = b""
    domain: bytes = b""


def from_meta(folder: Path, meta: dict[str, Any]) -> DkimKey | None:
    """The GM's DKIM settings, checked; None when there are none."""
    source = str(folder / "game.yaml")
    mail = meta.get("mail")
    settings = mail.get("dkim") if isinstance(mail, dict) else None
    if settings is None:
        return None
    if not isinstance(settings, dict) or not settings.get("key") or not settings.get("selector"):
        raise DataFileError("mail.dkim needs 'key' (the private key file) and 'selector'", file=source,
                            hint="e.g. dkim: {key: gm/dkim.pem, selector: judge, domain: example.org}")
    domain = str(settings.get("domain") or parseaddr(str(meta.get("gm_email") or ""))[1].rpartition("@")[2])
    selector = str(settings["selector"])
    for what, value in (("selector", selector), ("domain", domain)):
        if not value or not all(c.isalnum() or c in "-._" for c in value):
            raise DataFileError(f"mail.dkim.{what} {value!r} is not a DNS name", file=source,
                                hint="letters, digits, '-', '_' and '.' only")
    path = Path(str(settings["key"]))
    path = path if path.is_absolute() else folder / path
    try:
        key = path.read_bytes()
    except OSError as exc:
        raise DataFileError(f"cannot read the DKIM key: {exc.strerror}", file=str(path),
                            hint="mail.dkim.key in game.yaml names the private key file") from None
    if b"PRIVATE KEY-----" not in key:
        raise DataFileError("the DKIM key is not a PEM private key", file=str(path),
                            hint="make one with: openssl genrsa -out gm/dkim.pem 2048")
    return DkimKey(key, selector.encode("ascii"), domain.encode("ascii"))


def sign(wire: bytes, dkim_key: DkimKey) -> bytes:
    """The mail (CRLF line ends) with a DKIM-Signature header in front."""
    import dkim
    try:
        signature: bytes = dkim.sign(wire, dkim_key.selector, dkim_key.domain, dkim_key.key,
                                     canonicalize=(b"relaxed", b"relaxed"),
                                     include_headers=[h for h in SIGNED if has_header(wire, h)])
    except dkim.DKIMException as exc:
        raise DataFileError(f"cannot sign with the DKIM key: {exc}",
                            hint="check mail.dkim in game.yaml (an RSA private key in PEM)") from None
    return signature + wire


def has_header(wire: bytes, name: bytes) -> bool:
    head = wire.split(b"\r\n\r\n", 1)[0].lower()
    return head.startswith(name + b":") or b"\r\n" + name + b":" in head
