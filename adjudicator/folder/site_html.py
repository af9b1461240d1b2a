"""A phase's HTML report (reports/<phase>.html), made safe to set into a site page.

The report is the judge's own output, but the game folder is a file tree
anyone with the GM's access can edit, so the page does not trust it: only the
body's plain structural tags are kept (headings, paragraphs, lists, tables,
emphasis), without attributes; everything else is dropped and all text is
escaped again. The report's own <h1> is dropped: the page has its heading."""

from __future__ import annotations

from html import escape
from html.parser import HTMLParser

KEPT = {"h2", "h3", "p", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "em", "strong", "br"}
VOID = {"br"}
DROPPED_WITH_TEXT = {"script", "style", "title", "head", "h1"}


class _Cleaner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skipping: list[str] = []
        self.open: list[str] = []          # kept tags not yet closed, so the output is balanced

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in DROPPED_WITH_TEXT:
            self.skipping.append(tag)
        elif not self.skipping and tag in KEPT:
            # Tables scroll inside their own box on a narrow screen.
            self.out.append('<div class="scroll" tabindex="0"><table>' if tag == "table" else f"<{tag}>")
            if tag not in VOID:
                self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.pop()
        elif tag in self.open:
            while self.open:
                closing = self.open.pop()
                self.out.append(_end(closing))
                if closing == tag:
                    break

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.out.append(escape(data, quote=False))


def _end(tag: str) -> str:
    return "</table></div>" if tag == "table" else f"</{tag}>"


def clean_report(html: str) -> str:
    """The report's body as safe HTML: kept tags bare and balanced, text escaped."""
    cleaner = _Cleaner()
    cleaner.feed(html)
    cleaner.close()
    cleaner.out.extend(_end(tag) for tag in reversed(cleaner.open))
    return "".join(cleaner.out).strip()
