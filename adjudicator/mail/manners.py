"""The judge's manners as a mail service (RFC 3834, "Recommendations for
Automatic Responses to Electronic Mail"): when not to answer, and how its own
mail says that it is automatic.

No answer goes to a mail that is itself automatic or addressed to many:
  * the null sender (Return-Path: <>), the usual sender of bounces;
  * a bounce or other report (MAILER-DAEMON, postmaster, multipart/report);
  * an automatic reply or automatic mail (Auto-Submitted other than "no";
    X-Autoreply, X-Autorespond);
  * list or bulk mail (Precedence: bulk, list or junk; any List-* header);
  * the judge's own mail come back (its X-Loop header, or a Message-ID it sent).
Such a mail is still read (a player's scripted orders may carry
Auto-Submitted), but never answered, so the judge can neither be made to mail
a third party nor loop with an auto-responder.

Every mail the judge sends carries `Auto-Submitted: auto-replied` (an answer
to a person's mail) or `auto-generated` (results, reminders, notices), and
`X-Loop: <the judge's address>`; `stamp` adds them as the mail goes out
(smtp.send_files is the one door every mail passes)."""

from __future__ import annotations

from email.utils import getaddresses

LOOP_HEADER = "X-Loop"
AUTO_HEADER = "Auto-Submitted"
BOUNCE_SENDERS = ("mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon")
LIST_HEADERS = ("list-id", "list-unsubscribe", "list-post", "list-help", "list-owner", "list-archive")


def address_of(values: list[str]) -> str:
    found = [addr for _, addr in getaddresses(values) if addr]
    return found[0].lower() if found else ""


def why_no_answer(headers: dict[str, list[str]], judge: str, sent: set[str]) -> str | None:
    """Why this mail must not be answered (one line), or None if it may be.
    `headers` maps lower-case names to raw values; `judge` is the judge's own
    address, `sent` the Message-IDs it has sent."""
    path = headers.get("return-path")
    if path is not None and path[0].strip() in ("<>", ""):
        return "it has the null sender (Return-Path: <>), as bounces do"
    sender = address_of(headers.get("from", []))
    local = sender.split("@", 1)[0]
    if local in BOUNCE_SENDERS or local.startswith("owner-") or local.endswith("-request"):
        return f"it comes from {sender}, a mail system or list address"
    content = " ".join(headers.get("content-type", [])).lower()
    if content.startswith("multipart/report"):
        return "it is a delivery or read report"
    auto = " ".join(headers.get("auto-submitted", [])).strip().lower()
    if auto and not auto.startswith("no"):
        return f"it is automatic mail (Auto-Submitted: {auto[:40]})"
    if "x-autoreply" in headers or "x-autorespond" in headers:
        return "it is an automatic reply"
    precedence = " ".join(headers.get("precedence", [])).strip().lower()
    if precedence in ("bulk", "list", "junk"):
        return f"it is {precedence} mail (Precedence: {precedence})"
    if any(name in headers for name in LIST_HEADERS):
        return "it comes through a mailing list"
    if is_own(headers, judge, sent):
        return "it is the judge's own mail"
    return None


def is_own(headers: dict[str, list[str]], judge: str, sent: set[str]) -> bool:
    """The judge's own mail, come back: its loop header, a Message-ID it sent, or its own From."""
    if any(judge and value.strip().lower() == judge for value in headers.get(LOOP_HEADER.lower(), [])):
        return True
    if any(value.strip() in sent for value in headers.get("message-id", [])):
        return True
    return bool(judge) and address_of(headers.get("from", [])) == judge


def stamp(raw: bytes, judge: str, answers_a_person: bool) -> bytes:
    """The mail with Auto-Submitted and X-Loop added at the top (if it lacks them)."""
    head = raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0].lower()
    lines = []
    if not head.startswith(b"auto-submitted:") and b"\nauto-submitted:" not in head:
        lines.append(f"{AUTO_HEADER}: {'auto-replied' if answers_a_person else 'auto-generated'}")
    if judge and not head.startswith(b"x-loop:") and b"\nx-loop:" not in head:
        lines.append(f"{LOOP_HEADER}: {judge}")
    newline = b"\r\n" if b"\r\n" in raw[:2000] else b"\n"
    return b"".join(line.encode("ascii") + newline for line in lines) + raw
