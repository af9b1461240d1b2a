"""jinja2 set-up shared by every report. A game folder's own `templates/`
directory overrides the packaged templates of the same name, so a GM can
restyle reports per game without touching the code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from adjudicator.errors import DataFileError

PACKAGE_TEMPLATES = Path(__file__).parent / "templates"


def environment(*search_dirs: Path, game_folder: Path | None = None,
                html: bool = False) -> jinja2.Environment:
    dirs: list[str] = []
    if game_folder is not None and (game_folder / "templates").is_dir():
        dirs.append(str(game_folder / "templates"))
    dirs.extend(str(d) for d in search_dirs)
    dirs.append(str(PACKAGE_TEMPLATES))
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(dirs),
        autoescape=html,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, context: dict[str, Any], *search_dirs: Path,
           game_folder: Path | None = None) -> str:
    """The rendered text. A broken template (most likely a GM's override) is a
    DataFileError naming the template file and line, not a jinja2 traceback;
    the caller has written nothing yet, so nothing is lost."""
    env = environment(*search_dirs, game_folder=game_folder, html=template.endswith(".html.j2"))
    try:
        loaded = env.get_template(template)
    except jinja2.TemplateSyntaxError as exc:
        raise DataFileError(f"template syntax error: {exc.message}", file=exc.filename or template,
                            line=exc.lineno, hint="fix the template, or delete it to use the packaged one") from None
    except jinja2.TemplateNotFound as exc:
        raise DataFileError(f"no report template {exc.name}", file=template,
                            hint="the package is incomplete: reinstall it") from None
    try:
        return loaded.render(**context)
    except jinja2.TemplateError as exc:
        raise DataFileError(f"template error: {exc}", file=loaded.filename or template,
                            hint="the template uses a name the report does not provide; "
                                 "compare it with the packaged template") from None
