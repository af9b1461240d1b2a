"""File I/O shared by every game kind: safe YAML reading with located errors,
deterministic YAML writing, and atomic writes (temp file + fsync + rename)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from adjudicator.errors import DataFileError


def read_yaml(path: str | os.PathLike[str]) -> Any:
    """Load a YAML file with safe_load; any fault names the file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError("file not found", file=str(path)) from None
    except UnicodeDecodeError:
        raise DataFileError("not UTF-8 text", file=str(path)) from None
    except OSError as exc:
        raise DataFileError(f"cannot read: {exc.strerror}", file=str(path)) from None
    return parse_yaml(text, str(path))


def parse_yaml(text: str, source: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or "malformed YAML"
        raise DataFileError(f"malformed YAML: {problem}", file=source, line=line,
                            hint="fix the YAML syntax at that line") from None


def dump_yaml(data: Any) -> str:
    """Deterministic YAML text: same data, same bytes."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False,
                          width=100)


def atomic_write(path: str | os.PathLike[str], content: str | bytes) -> None:
    """Write to a temp file in the same folder, fsync, then rename over the target.
    A crash or a full disk leaves the old file (or nothing) in place, never half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
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
