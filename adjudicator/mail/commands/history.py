"""`history [PHASE]`: a past public report mailed again, with its map (a
Diplomacy game's; a card game's report has none). Without PHASE: the list of
phases with a report, and the newest report. Only public reports: what any
player had in their results mail, and nothing private. At most
MAX_PER_MAIL a mail: each map is drawn again."""

from __future__ import annotations

from adjudicator.mail.commands.base import Asked, Command, Refused, is_card_game

MAX_PER_MAIL = 2
MAX_LISTED = 60                  # phases named in the list (the newest)


def label(slug: str, card_game: bool) -> str:
    if card_game:
        return slug.split("-", 1)[1] if "-" in slug else slug
    from adjudicator.diplomacy.model import Phase
    return str(Phase.from_slug(slug))


def run(asked: Asked, command: Command) -> str:
    if asked.count("history") >= MAX_PER_MAIL:
        raise Refused(f"at most {MAX_PER_MAIL} reports a mail")
    ctx = asked.ctx
    card = is_card_game(ctx)
    from adjudicator.mail.results import reported_slugs
    slugs = reported_slugs(ctx.folder, ctx.meta)
    if not slugs:
        raise Refused("no phase has been reported yet")
    head: list[str] = []
    if command.args:
        slug = find(asked, " ".join(command.args), slugs, card)
    else:
        slug = slugs[-1]
        shown = [label(s, card) for s in slugs[-MAX_LISTED:]]
        head = ["Phases with a report: " + ", ".join(shown) + ". Send 'history PHASE' for one of them.", ""]
    text = (ctx.folder / "reports" / f"{slug}.txt").read_text(encoding="utf-8")
    note = attach_map(asked, slug, "its picture of the table" if card else "its map")
    return "\n".join(head) + f"HISTORY OF {label(slug, card).upper()}{note}\n\n" + text.rstrip("\n")


def find(asked: Asked, text: str, slugs: list[str], card: bool) -> str:
    wanted = text.strip().lower()
    if card:
        found = [s for s in slugs if wanted in (s, s.split("-", 1)[-1])]
    else:
        named = asked.ctx.phase_named(text)
        found = [s for s in slugs if s == (named or wanted)]
    if not found:
        listed = ", ".join(label(s, card) for s in slugs[-10:])
        raise Refused(f"no report for {text[:40]!r}; the phases with one include {listed}")
    return found[-1]


def attach_map(asked: Asked, slug: str, what: str) -> str:
    """The phase's map (a card game's public picture of the table) as PNG, or
    its SVG where none can be drawn, attached to the reply."""
    svg = asked.folder / "maps" / f"{slug}.svg"
    if not svg.is_file():
        return ""
    from adjudicator.mail import results
    data = svg.read_bytes()
    png, _ = results.map_png(data)
    picture = results.Attachment(png, "image", "png", f"history-{slug}.png") if png is not None else \
        results.Attachment(data, "image", "svg+xml", f"history-{slug}.svg")
    asked.verdict.attachments.append(results.attachment_part(picture))
    return f" ({what} is attached)"
