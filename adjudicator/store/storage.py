"""File I/O shared by every game kind: safe YAML reading with located errors,
deterministic YAML writing, atomic writes (temp file + fsync + rename), and
state files sealed with a checksum so a cut file is refused, not loaded smaller.

Every YAML file the judge reads may have come from a player or a careless
editor, so the loader is strict:
  * `yaml.safe_load` semantics only (no Python objects);
  * anchors and aliases are refused (an alias bomb hangs any loader that
    expands it);
  * a key given twice in one mapping is an error naming both lines;
  * a file over `max_bytes`, or a line over `MAX_LINE`, is refused unread;
  * a UTF-8 byte-order mark is accepted.

A big data file of the package's own (a map, its geometry) is parsed once per
machine and its data kept in the user's cache directory (see _parse_kept)."""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

import yaml

from adjudicator.errors import DataFileError
from adjudicator.store.usercache import cache_dir, prune

# The C loader (libyaml) is 3-7x faster; the pure-Python one is the fallback
# where PyYAML was built without libyaml. (The dumper is the pure-Python one:
# see dump_yaml.)
_BaseLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_BYTES = 8 * 1024 * 1024       # a state, turn or game file; map data may ask for more
MAX_LINE = 20_000                 # characters on one line
SEAL_PREFIX = "# adjudicator end sha256="


class _StrictLoader(_BaseLoader):  # type: ignore[misc]
    """Safe loader that refuses a key given twice in one mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:      # an unhashable key: the base class reports it
                continue
            line = key_node.start_mark.line + 1
            if first is not None:
                raise DataFileError(f"the key {key!r} is given twice (lines {first} and {line})",
                                    line=line, hint="keep one of them")
            seen[key] = line
        result: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return result


_StrictLoader.add_constructor("tag:yaml.org,2002:map", _StrictLoader.construct_yaml_map)


def read_text(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES, what: str = "file") -> str:
    """A UTF-8 text file, refused whole if it is too big or not text."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise DataFileError(f"{what} is too large ({size} bytes; the limit is {max_bytes})",
                                file=str(path), hint="is this the right file?")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataFileError(f"{what} not found", file=str(path)) from None
    except IsADirectoryError:
        raise DataFileError(f"{what} is a folder, not a file", file=str(path)) from None
    except OSError as exc:
        raise DataFileError(f"cannot read: {exc.strerror}", file=str(path)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise DataFileError(f"{what} is not UTF-8 text", file=str(path), line=line,
                            hint="save it as UTF-8") from None
    return text.removeprefix("\ufeff")


def read_yaml(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES, keep: bool = False) -> Any:
    """Load a YAML file strictly (see the module docstring); any fault names the
    file and line. With `keep` (map, layout, geometry and variant files: the
    package's or the GM's own, never a game folder's file or a mail), a file
    of KEEP_MIN_CHARS or more is parsed once per machine (see _parse_kept)."""
    text = read_text(path, max_bytes=max_bytes)
    if keep and len(text) >= KEEP_MIN_CHARS:
        return _parse_kept(text, str(path))
    return parse_yaml(text, str(path))


def _check_lines(text: str, source: str) -> None:
    start = 0
    number = 1
    while True:
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start > MAX_LINE:
            raise DataFileError(f"line is too long ({stop - start} characters; the limit is {MAX_LINE})",
                                file=source, line=number, hint="split the value over several lines")
        if end < 0:
            return
        start, number = end + 1, number + 1


def _refuse_aliases(text: str, source: str) -> None:
    """Anchors and aliases, found by the scanner before anything is built."""
    try:
        for token in yaml.scan(text, Loader=_BaseLoader):
            if isinstance(token, (yaml.AnchorToken, yaml.AliasToken)):
                raise DataFileError("YAML anchors and aliases (&name, *name) are not allowed",
                                    file=source, line=token.start_mark.line + 1,
                                    hint="write the value out in full")
    except yaml.YAMLError:
        return     # the loader reports syntax errors with their line


def parse_yaml(text: str, source: str) -> Any:
    text = text.removeprefix("\ufeff")
    _check_lines(text, source)
    if "&" in text or "*" in text:
        _refuse_aliases(text, source)
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except DataFileError as exc:
        raise exc.located(source) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or "malformed YAML"
        raise DataFileError(f"malformed YAML: {problem}", file=source, line=line,
                            hint="fix the YAML syntax at that line") from None
    except RecursionError:
        raise DataFileError("YAML is nested too deeply", file=source) from None


# --- parsed YAML kept between runs ----------------------------------------------------
# Parsing the map and its geometry took ~8-10 ms each of every run. A file the
# caller asks to keep (map and variant data: a game folder's files and mail
# never are, so nothing a player sends fills the cache) of KEEP_MIN_CHARS
# or more (smaller ones parse faster than a cache file is read) is parsed once
# per machine: its data is kept in the user's cache directory
# (store/usercache) as marshal of plain data (dicts, lists, strings, numbers,
# booleans, None: never pickle), in a file named after the SHA-256 of its text
# and of the loader's versions, which the file repeats and is checked against.
# Data of any other type (a date, say) is not kept. A damaged or missing file,
# or an unusable directory: the text is parsed as before, and nothing is said.
KEEP_MIN_CHARS = 4096
# Change "yaml-kept-1" when _StrictLoader builds data differently.
_KEEP_TAG = hashlib.sha256(repr(("yaml-kept-1", yaml.__version__, _BaseLoader.__name__, marshal.version,
                                 sys.version_info[:2])).encode("utf-8")).hexdigest()[:12]
_PLAIN = (str, int, float, bool, type(None))


def _parse_kept(text: str, source: str) -> Any:
    """parse_yaml(text, source), from the user's cache when it holds it."""
    folder = cache_dir()
    if folder is None:
        return parse_yaml(text, source)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    path = folder / f"yaml-{_KEEP_TAG}-{digest}.marshal"
    try:
        kept_digest, data = marshal.loads(path.read_bytes())
        if kept_digest == digest:
            os.utime(path)                 # its modification time is when it was last used
            return data
    except (OSError, EOFError, ValueError, TypeError):
        pass
    data = parse_yaml(text, source)
    try:
        blob = marshal.dumps((digest, data)) if _is_plain(data) else None
    except (RecursionError, ValueError):    # nested too deeply to check or keep
        blob = None
    if blob is not None:
        _keep(path, blob)
    return data


def _is_plain(data: Any) -> bool:
    if isinstance(data, dict):
        return all(isinstance(k, _PLAIN) and _is_plain(v) for k, v in data.items())
    if isinstance(data, list):
        return all(_is_plain(v) for v in data)
    return isinstance(data, _PLAIN)


def _keep(path: Path, blob: bytes) -> None:
    """Write the cache file whole (a temp file renamed over it), then prune old ones."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(blob)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return
    prune(path.parent, "yaml-", (".marshal", ".tmp"))


class _PlainDumper(yaml.SafeDumper):
    """Writes a shared object out in full each time: the loader refuses aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump_yaml(data: Any) -> str:
    """Deterministic YAML text: same data, same bytes, no anchors or aliases."""
    # The pure-Python dumper on purpose: libyaml's (~5x faster) writes some
    # strings differently (a character beyond U+FFFF as \U escape, long quoted
    # strings folded at other places), and state files must keep their bytes.
    text: str = yaml.dump(data, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True,
                          default_flow_style=False, width=100)
    return text


# --- sealed state files ----------------------------------------------------------
def seal(text: str) -> str:
    """The text with a last line holding its checksum. A file cut anywhere,
    even at a line boundary, loses or breaks that line and is refused."""
    return text + SEAL_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest() + "\n"


def unseal(text: str, source: str) -> str:
    """The sealed text without its seal, or a clear error if the seal is missing or wrong."""
    body, sep, last = text.rstrip("\n").rpartition("\n")
    body += sep
    hint = "the file was cut short or edited by hand; restore it from the game folder or the GM's mail"
    if not last.startswith(SEAL_PREFIX):
        raise DataFileError("state file has no end line: it is incomplete", file=source, hint=hint)
    if hashlib.sha256(body.encode("utf-8")).hexdigest() != last[len(SEAL_PREFIX):].strip():
        raise DataFileError("state file does not match its checksum", file=source,
                            line=body.count("\n") + 1, hint=hint)
    return body


def dump_state(data: Any) -> str:
    return seal(dump_yaml(data))


def read_state(path: str | os.PathLike[str]) -> Any:
    """A sealed state file (history/*.yaml, or a state file from a results mail).
    A game's own history file must also match the game's keyed seal (store.seal)."""
    text = read_text(path, what="state file")
    body = unseal(text, str(path))
    from adjudicator.store import seal
    seal.check_history(Path(path), text)
    return parse_yaml(body, str(path))


# --- writing ------------------------------------------------------------------------
def atomic_write(path: str | os.PathLike[str], content: str | bytes, *, mode: int = 0o600) -> None:
    """Write to a temp file in the same folder, fsync, then rename over the target.
    A crash or a full disk leaves the old file (or nothing) in place, never half a file.
    The file is the owner's alone unless `mode` says otherwise (0o644 for what
    is published: a site, a map), whatever the umask."""
    import tempfile  # here, not at the top: `status` and `check` never write
    path = Path(path)
    if path.is_symlink() or path.parent.is_symlink():
        link = path if path.is_symlink() else path.parent
        raise DataFileError("refusing to write through a symbolic link", file=str(link),
                            hint="a game folder holds plain files only: remove the link and run again")
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if mode != 0o600:          # mkstemp makes the file 0600
                os.fchmod(handle.fileno(), mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise DataFileError(f"cannot write: {exc.strerror}", file=str(path),
                            hint="free some disk space or fix permissions and run again") from None


def write_yaml(path: str | os.PathLike[str], data: Any) -> None:
    atomic_write(path, dump_yaml(data))


def write_new(path: str | os.PathLike[str], content: str | bytes) -> None:
    """Write a history file that must not exist yet: history is never rewritten."""
    path = Path(path)
    if path.exists():
        raise DataFileError("already exists; history is never rewritten", file=str(path))
    atomic_write(path, content)
