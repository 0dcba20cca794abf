"""Reading tilelab's ``.npz`` files (arrays + a JSON header) so that a damaged file is one clear ValueError.

A bit flipped on disk can surface as almost any exception inside numpy, zipfile, zlib, json or
the ``.npy`` header parser (``zlib.error``, ``NotImplementedError``, ``tokenize.TokenError``,
``SyntaxError``, ``IndexError``, ``MemoryError`` ...). :func:`read_npz` converts every one of them
into :class:`DamagedFileError` (a ValueError) with a one-line message, closes the file whatever
happens, refuses members larger than the caller expects before reading them (no huge allocation
from a forged header), and returns plain, already-read arrays. Standard library and numpy only.
"""

from __future__ import annotations

import json
import os
import tokenize
import zipfile
import zlib
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np
import numpy.typing as npt

__all__ = ["DamagedFileError", "FORMAT_ERRORS", "header_field", "one_line", "read_npz"]

#: numpy's .npy reader (untyped in numpy 2.2's stubs, typed later: one name for every version)
_read_array: Callable[..., npt.NDArray[Any]] = np.lib.format.read_array

MAX_HEADER_BYTES = 1 << 20  # a header is a few kB; a megabyte is already absurd
NPY_HEADER_SLACK = 4096  # bytes a .npy member may take beyond its array data (magic + header)

#: Everything a damaged or foreign file has been seen to raise while being read.
FORMAT_ERRORS: tuple[type[BaseException], ...] = (
    OSError, EOFError, ValueError, TypeError, KeyError, IndexError, AttributeError, LookupError,
    zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, NotImplementedError, tokenize.TokenError,
    SyntaxError, UnicodeDecodeError, MemoryError, OverflowError, RecursionError, AssertionError,
)


class DamagedFileError(ValueError):
    """A file tilelab wrote cannot be read back: damaged, truncated, foreign or of another version."""


def one_line(text: object, limit: int = 300) -> str:
    """``str(text)`` on one line, cut to ``limit`` characters (error messages from damaged bytes can be long)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _member_name(name: str) -> str:
    return name if name.endswith(".npy") else name + ".npy"


def read_npz(
    path: str | os.PathLike[str],
    what: str,
    sizes: Callable[[dict[str, Any]], Mapping[str, int]],
    *,
    optional: tuple[str, ...] = (),
) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """Read ``path``'s JSON ``header`` and the arrays ``sizes(header)`` names (name -> most bytes allowed).

    Raises :class:`DamagedFileError` naming ``what`` and ``path`` for anything wrong with the file;
    names in ``optional`` may be missing (they are then absent from the result).
    """
    path = Path(path)
    try:
        with open(path, "rb") as handle:  # we own the handle: it is closed even when numpy fails half-way
            with zipfile.ZipFile(handle) as archive:
                members = {info.filename: info for info in archive.infolist()}
                header = _read_header(archive, members)
                wanted = dict(sizes(header))
                arrays = {}
                for name, limit in wanted.items():
                    info = members.get(_member_name(name))
                    if info is None:
                        if name in optional:
                            continue
                        raise DamagedFileError(f"the array {name!r} is missing")
                    if info.file_size > int(limit) + NPY_HEADER_SLACK:
                        raise DamagedFileError(f"the array {name!r} takes {info.file_size:,} bytes, "
                                               f"expected at most {int(limit):,}")
                    with archive.open(info) as member:
                        array = _read_array(member, allow_pickle=False)
                    if array.nbytes > int(limit):
                        raise DamagedFileError(f"the array {name!r} has {array.nbytes:,} bytes, expected at most {int(limit):,}")
                    arrays[name] = np.ascontiguousarray(array)
    except FileNotFoundError:
        raise
    except DamagedFileError as exc:
        raise DamagedFileError(f"{what} {path} is damaged or not a tilelab file: {one_line(exc)}") from None
    except FORMAT_ERRORS as exc:
        raise DamagedFileError(
            f"{what} {path} is damaged or not a tilelab file ({type(exc).__name__}: {one_line(exc)})"
        ) from None
    return header, arrays


def _read_header(archive: zipfile.ZipFile, members: Mapping[str, zipfile.ZipInfo]) -> dict[str, Any]:
    info = members.get("header.npy")
    if info is None:
        raise DamagedFileError("it has no header")
    if info.file_size > MAX_HEADER_BYTES:
        raise DamagedFileError(f"its header takes {info.file_size:,} bytes")
    with archive.open(info) as member:
        raw = _read_array(member, allow_pickle=False)
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise DamagedFileError(f"its header is {raw.dtype} {raw.shape}, not bytes")
    header = json.loads(raw.tobytes().decode("utf-8"))
    if not isinstance(header, dict):
        raise DamagedFileError(f"its header is a JSON {type(header).__name__}, not an object")
    return header


def header_field(header: Mapping[str, Any], name: str, kind: type | tuple[type, ...], what: str = "") -> Any:
    """``header[name]`` if present and of ``kind`` (bool never counts as int), else DamagedFileError."""
    if name not in header:
        raise DamagedFileError(f"the header has no {name!r}{what}")
    value = header[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise DamagedFileError(f"the header's {name!r} is {type(value).__name__}, expected "
                               + "/".join(k.__name__ for k in kinds))
    return value
