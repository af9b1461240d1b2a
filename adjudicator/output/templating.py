"""jinja2 set-up shared by every report. A game folder's own `templates/`
directory overrides the packaged templates of the same name, so a GM can
restyle reports per game without touching the code."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket
from jinja2.loaders import split_template_path

from adjudicator import __version__
from adjudicator.errors import DataFileError
from adjudicator.store.packagedata import package_folder
from adjudicator.store.usercache import cache_dir, prune

PACKAGE_TEMPLATES = package_folder("adjudicator") / "templates"


def environment(*search_dirs: Path, game_folder: Path | None = None,
                html: bool = False) -> jinja2.Environment:
    """The Environment for this search path: the game folder's `templates/`
    (if it has one), then `search_dirs`, then the packaged templates. One per
    distinct search path and process, so each template is compiled once;
    jinja2 still checks each file's modification time, so a GM's edit to an
    override shows at the next render. The compiled code is also kept between
    runs, in the user's cache directory (see cache_dir)."""
    dirs: list[str] = []
    if game_folder is not None and (game_folder / "templates").is_dir():
        dirs.append(str(game_folder / "templates"))
    dirs.extend(str(d) for d in search_dirs)
    dirs.append(str(PACKAGE_TEMPLATES))
    return _environment(tuple(dirs), html)


class _OverrideLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader whose compiled templates also go stale when a file
    of the same name appears earlier in the search path: a GM who adds an
    override sees it at the next render, even in a long-running process."""

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        contents, filename, uptodate = super().get_source(environment, template)
        pieces = split_template_path(template)
        candidates = [os.path.normpath(os.path.join(d, *pieces)) for d in self.searchpath]
        earlier = candidates[:candidates.index(filename)] if filename in candidates else []

        def still_uptodate() -> bool:
            return uptodate() and not any(os.path.isfile(f) for f in earlier)

        return contents, filename, still_uptodate


# Everything but the loader and autoescape; part of the bytecode cache's file names.
_OPTIONS: dict[str, Any] = {"undefined": jinja2.StrictUndefined, "keep_trailing_newline": True,
                            "trim_blocks": True, "lstrip_blocks": True}


@lru_cache(maxsize=64)
def _environment(dirs: tuple[str, ...], html: bool) -> jinja2.Environment:
    env = jinja2.Environment(loader=_OverrideLoader(list(dirs)), autoescape=html,
                             bytecode_cache=_bytecode_cache(html), **_OPTIONS)
    env.globals["judge_version"] = __version__       # for footers: which judge wrote the page
    return env


# --- compiled templates kept between runs -----------------------------------------------
# Compiling the three report templates took ~28 ms of every `adjudicate`. jinja2
# keeps the compiled code in the user's cache directory instead (see
# store/usercache), so a machine compiles each template once. Each cache file is
# named after the template's name and path, and holds the checksum of the source
# it was compiled from: an edited template (a game folder's override too) fails
# the check and is compiled again, into the same file. jinja2's own check
# ignores the Environment's options, so the file names also carry a tag, a
# digest of them and of jinja2's version. The cache keeps only the current
# compiled templates: when one is compiled, the files of another tag (another
# jinja2 or other options) and those whose source file is gone (a game folder
# deleted, an override removed) are removed. Each file begins with its source's
# path, so that this can be told. Where the cache cannot be used safely,
# templates are compiled as before and nothing is said.
PREFIX = "jinja2-"


def _tag(html: bool) -> str:
    """The digest of jinja2's version and the Environment's options in a cache file's name."""
    options = repr((jinja2.__version__, html, sorted((k, repr(v)) for k, v in _OPTIONS.items())))
    return hashlib.sha1(options.encode("utf-8")).hexdigest()[:12]


CURRENT_TAGS = (_tag(False), _tag(True))


class _QuietBytecodeCache(jinja2.FileSystemBytecodeCache):
    """A cache that never stops a report: a damaged file is compiled again,
    a file that cannot be written is not kept. Each file starts with the
    path of the template it was compiled from."""

    def __init__(self, directory: str, pattern: str) -> None:
        super().__init__(directory, pattern)
        self._sources: dict[str, str] = {}         # cache key -> the template file's path

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        key = super().get_cache_key(name, filename)
        self._sources[key] = filename or ""
        return key

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            with open(self._get_cache_filename(bucket), "rb") as f:
                f.readline()                    # the source's path, for keep_current
                bucket.load_bytecode(f)
        except FileNotFoundError:
            pass
        except Exception:  # noqa: BLE001 - a damaged file: pickle and marshal raise many kinds
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        name = self._get_cache_filename(bucket)
        temp = f"{name}.{os.getpid()}.tmp"
        try:
            with open(temp, "wb") as f:
                f.write(_source_line(self._sources.get(bucket.key, "")))
                bucket.write_bytecode(f)
            os.replace(temp, name)
            self.keep_current()
        except OSError:
            try:
                os.remove(temp)
            except OSError:
                pass

    def keep_current(self) -> None:
        """Remove the cache files that are not current: of another tag, or
        compiled from a file that is gone. A temporary file of a run that
        died goes when it is a month old."""
        prune(self.directory, PREFIX, (".tmp",))
        with os.scandir(self.directory) as entries:
            for entry in entries:
                if entry.name.startswith(PREFIX) and entry.name.endswith(".cache") and not _current(entry.path):
                    try:
                        os.remove(entry.path)
                    except OSError:
                        pass


def _source_line(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape") + b"\n"


def _current(cache_file: str) -> bool:
    """Is this cache file of a current tag, compiled from a file that is still there?"""
    if not os.path.basename(cache_file).startswith(tuple(PREFIX + tag for tag in CURRENT_TAGS)):
        return False
    try:
        with open(cache_file, "rb") as f:
            source = f.readline().rstrip(b"\n").decode("utf-8", "surrogateescape")
    except OSError:
        return False
    return bool(source) and os.path.isfile(source)


def _bytecode_cache(html: bool) -> jinja2.BytecodeCache | None:
    path = cache_dir()
    if path is None:
        return None
    return _QuietBytecodeCache(str(path), f"{PREFIX}{_tag(html)}-%s.cache")


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
    except UnicodeDecodeError:
        raise DataFileError("the template is not UTF-8 text", file=_source_of(env, template),
                            hint="save it as UTF-8") from None
    try:
        return loaded.render(**context)
    except jinja2.TemplateError as exc:
        raise DataFileError(f"template error: {exc}", file=loaded.filename or template,
                            hint="the template uses a name the report does not provide; "
                                 "compare it with the packaged template") from None
    except Exception as exc:  # noqa: BLE001 - a GM's template may compute anything (1/0, int('x'))
        filename = loaded.filename or template
        raise DataFileError(f"the template failed: {type(exc).__name__}: {exc}", file=filename,
                            line=_failing_line(exc, filename),
                            hint="fix the expression on that line, or delete the template to use the packaged one") \
            from None


def _source_of(env: jinja2.Environment, template: str) -> str:
    """The file a template name would load from, for an error message."""
    loader = env.loader
    if isinstance(loader, jinja2.FileSystemLoader):
        for folder in loader.searchpath:
            candidate = os.path.join(folder, *split_template_path(template))
            if os.path.isfile(candidate):
                return candidate
    return template


def _failing_line(exc: BaseException, filename: str) -> int | None:
    """The template line the error was raised on (jinja2 rewrites the traceback
    so that template frames carry the template's file and line)."""
    line = None
    trace = exc.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == filename:
            line = trace.tb_lineno
        trace = trace.tb_next
    return line
