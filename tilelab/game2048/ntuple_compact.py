"""A trained n-tuple net in a small file, and the strong learned player shipped with tilelab.

A trained net's float32 tables are mostly zeros: a weight training never looked up stays 0. The
compact file keeps only the others, each in 16 bits, and compresses what is left:

- ``mask``: one bit per weight, set where the quantised weight is not 0 (``np.packbits``);
- ``values``: the kept weights in table order, as 16-bit integers, stored low bytes first, then high
  bytes (two byte planes compress better than interleaved bytes);
- ``encoding="int16"``: each tuple's table has one scale, ``max |w| / 32767``, and a weight is the
  nearest multiple of it (error at most half a step); ``encoding="float16"`` stores IEEE half floats.
  ``bits=b`` (int16 only, 8..16) makes the steps coarser, ``max |w| / (2**(b-1) - 1)``: still 16-bit
  codes, but fewer distinct ones, so the file compresses smaller (each bit less saves about 1/11 of it).

The header (JSON, as in :meth:`NTupleNetwork.save`) names the format and version, the tuples, the
scales, how many weights are kept, a SHA-256 of the stored arrays and one of the float32 weights they
decode to; a file failing any check raises ``ValueError`` saying how to rebuild it. Loading returns an
ordinary :class:`NTupleNetwork`, so :class:`TDPlayer` and :class:`TDExpectimax` use it unchanged.

:func:`strong_player` is the 4 x 6-tuple net trained by temporal coherence
(``benchmarks/train_2048_td.py``), made compact by ``benchmarks/make_strong_net.py`` and shipped as
``tilelab/data/ntuple-strong.npz``, searching 3 moves deep. Part of :mod:`tilelab.game2048.ntuple`.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from tilelab._checks import short_repr
from tilelab._files import DamagedFileError, header_field, one_line, read_npz
from tilelab.game2048.ntuple_net import FORMAT, NTupleNetwork, check_training, check_tuples
from tilelab.game2048.ntuple_players import TDExpectimax

__all__ = ["COMPACT_FORMAT", "COMPACT_VERSION", "ENCODINGS", "STRONG_NET", "STRONG_BUILD", "compact_weights",
           "save_compact", "load_compact", "load_network", "strong_network", "strong_player"]

COMPACT_FORMAT = "tilelab.game2048.ntuple-compact"
COMPACT_VERSION = 1
ENCODINGS = ("int16", "float16")
INT16_STEPS = 32767  # the largest |weight| of a table maps to this many steps of its scale (bits=16)

STRONG_NET = Path(__file__).resolve().parents[1] / "data" / "ntuple-strong.npz"
STRONG_BUILD = ("make strong-net (benchmarks/strong_net_pipeline.py: python benchmarks/train_2048_td.py --net wu-yeh "
                "--method tc --games 643000 --restart-at 348000 --resume --out "
                "benchmarks/results/td_wu-yeh_tc-rebuild.npz, then python benchmarks/make_strong_net.py --full "
                "benchmarks/results/td_wu-yeh_tc-rebuild.npz --out tilelab/data/ntuple-strong.npz --bits 14 "
                "--prune small --prune-max 80; about 1.5 hours of one core)")


# ------------------------------------------------------------------------------ quantising
def _tables(net: NTupleNetwork) -> list[slice]:
    """Each tuple's stretch of ``net.weights``."""
    return [slice(int(o), int(o) + 16 ** len(t)) for o, t in zip(net.offsets, net.tuples)]


def _scales(net: NTupleNetwork, encoding: str, bits: int) -> list[float]:
    """One scale per tuple: ``max |w| / (2**(bits-1) - 1)`` for int16 (1.0 for an all-zero table), 1.0 for float16."""
    if encoding == "float16":
        return [1.0] * len(net.tuples)
    peaks = [float(np.abs(net.weights[s]).max(initial=0.0)) for s in _tables(net)]
    return [peak / (2 ** (bits - 1) - 1) if peak > 0 else 1.0 for peak in peaks]


def _check_encoding(encoding: object) -> str:
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {ENCODINGS} (16 bits per kept weight), got {encoding!r}")
    return str(encoding)


def _check_bits(bits: object, encoding: str) -> int:
    if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)) or not 8 <= bits <= 16:
        raise ValueError(f"bits must be an int from 8 to 16 (steps of max |w| / (2**(bits-1) - 1)), got {bits!r}")
    if encoding == "float16" and bits != 16:
        raise ValueError("bits applies to encoding='int16' only; float16 always keeps 16 bits")
    return int(bits)


def _quantise(net: NTupleNetwork, encoding: str, bits: int = 16) -> tuple[np.ndarray, list[float]]:
    """The weights as 16-bit codes (int16 steps of each table's scale, or float16 bits) and the scales."""
    encoding = _check_encoding(encoding)
    bits = _check_bits(bits, encoding)
    if not np.isfinite(net.weights).all():
        raise ValueError("the net has NaN or infinite weights; it cannot be made compact (train it again)")
    scales = _scales(net, encoding, bits)
    if encoding == "float16":
        peak = float(np.abs(net.weights).max(initial=0.0))
        if peak > float(np.finfo(np.float16).max):
            raise ValueError(f"a weight of size {peak:,.0f} does not fit float16 (at most 65504); use encoding='int16'")
        return net.weights.astype(np.float16).view(np.int16), scales
    codes = np.empty(net.weights.size, dtype=np.int16)
    for s, scale in zip(_tables(net), scales):
        codes[s] = np.clip(np.rint(net.weights[s].astype(np.float64) / scale), -INT16_STEPS, INT16_STEPS)
    return codes, scales


def _decode(codes: np.ndarray, where: np.ndarray, net: NTupleNetwork, encoding: str, scales: list[float],
            out: np.ndarray | None = None) -> np.ndarray:
    """float32 weights from the kept 16-bit ``codes`` and the boolean mask ``where`` (where they go), in ``out`` if given."""
    weights = np.zeros(net.weights.size, dtype=np.float32) if out is None else out
    if encoding == "float16":
        weights[where] = codes.view(np.float16).astype(np.float32)
        return weights
    start = 0
    for s, scale in zip(_tables(net), scales):
        here = where[s]
        count = int(np.count_nonzero(here))
        weights[s][here] = (codes[start:start + count].astype(np.float64) * scale).astype(np.float32)
        start += count
    return weights


def compact_weights(net: NTupleNetwork, encoding: str = "int16", *, bits: int = 16) -> np.ndarray:
    """The float32 weights a compact file of ``net`` loads as (to measure the quantisation before writing).

    >>> net = NTupleNetwork([(0, 1)])
    >>> net.weights[:3] = [0.0, 1000.0, -0.01]
    >>> compact_weights(net)[:3].tolist()   # steps of 1000 / 32767: -0.01 is 0.3 of a step, so it becomes 0
    [0.0, 1000.0, 0.0]
    """
    codes, scales = _quantise(net, encoding, bits)
    where = codes != 0
    return _decode(codes[where], where, net, encoding, scales)


# ------------------------------------------------------------------------------ files
def _sha256(*arrays: np.ndarray) -> str:
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(np.ascontiguousarray(array).view(np.uint8).ravel().data)  # the bytes, without a copy
    return digest.hexdigest()


def save_compact(net: NTupleNetwork, path: str | os.PathLike[str], *, encoding: str = "int16",
                 bits: int = 16) -> Path:
    """Write ``net`` as a compact file (atomically); returns the path. The training record goes along.

    >>> import tempfile
    >>> net = NTupleNetwork([(0, 1, 2)], name="tiny")
    >>> net.weights[[5, 70]] = [12.5, -3.0]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     back = load_compact(save_compact(net, Path(folder) / "tiny.npz"))
    >>> back.name, np.flatnonzero(back.weights).tolist(), bool(abs(back.weights[70] + 3) <= 12.5 / 32767 / 2)
    ('tiny', [5, 70], True)
    """
    if not isinstance(net, NTupleNetwork):
        raise TypeError(f"save_compact needs an NTupleNetwork, got {type(net).__name__}")
    codes, scales = _quantise(net, encoding, bits)
    where = codes != 0
    kept = codes[where]
    mask = np.packbits(where)
    values = np.ascontiguousarray(kept.view(np.uint8).reshape(-1, 2).T)  # (2, kept): low bytes, then high bytes
    decoded = _decode(kept, where, net, encoding, scales)
    header = {"format": COMPACT_FORMAT, "version": COMPACT_VERSION, "name": net.name,
              "tuples": [list(t) for t in net.tuples], "size": int(net.weights.size), "encoding": encoding,
              "bits": bits,
              "scales": scales, "kept": int(kept.size), "sha256": _sha256(mask, values),
              "weights_sha256": _sha256(decoded),
              "source": {"format": FORMAT, "sha256": _sha256(net.weights),
                         "max_error": float(np.abs(decoded.astype(np.float64) - net.weights).max(initial=0.0))},
              "training": net.training}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {"mask": mask, "values": values,
                              "header": np.frombuffer(json.dumps(header).encode(), np.uint8)}
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    with open(tmp, "wb") as handle:
        np.savez_compressed(handle, **arrays)
    os.replace(tmp, path)
    return path


def _compact_sizes(header: dict[str, Any]) -> dict[str, int]:
    """The arrays a compact file holds and the most bytes each may take (from the header's tuples)."""
    _check_format(header)
    size = sum(16 ** len(t) for t in check_tuples(header_field(header, "tuples", list)))
    return {"mask": (size + 7) // 8, "values": 2 * size}


def _rebuild_advice(path: Path) -> str:
    if path.resolve() == STRONG_NET.resolve():
        return ("restore it (git checkout tilelab/data/ntuple-strong.npz in a clone, or pip install --force-reinstall "
                f"tilelab) or rebuild it: {STRONG_BUILD}")
    return "rebuild it with python benchmarks/make_strong_net.py --full <the trained net's file> --out " + str(path)


def load_compact(path: str | os.PathLike[str]) -> NTupleNetwork:
    """Read a compact file into an :class:`NTupleNetwork`; ``ValueError`` (saying how to rebuild) if damaged."""
    path = Path(path)
    try:
        header, arrays = read_npz(path, "compact n-tuple network", _compact_sizes)
    except DamagedFileError as exc:
        raise DamagedFileError(f"{one_line(exc)}; {_rebuild_advice(path)}") from None
    try:
        net = _from_arrays(header, arrays)
    except DamagedFileError as exc:
        raise DamagedFileError(f"compact n-tuple network {path} is damaged or not a tilelab file: "
                               f"{one_line(exc)}; {_rebuild_advice(path)}") from None
    except (TypeError, ValueError, KeyError) as exc:
        raise DamagedFileError(f"compact n-tuple network {path} has a damaged header ({type(exc).__name__}: "
                               f"{one_line(exc)}); {_rebuild_advice(path)}") from None
    return net


def _check_format(header: dict[str, Any]) -> None:
    """DamagedFileError unless the header is a compact file's of this version (a full net file is named as such)."""
    version = header.get("format"), header.get("version")
    if header.get("format") == FORMAT:
        raise DamagedFileError(f"it is a full n-tuple network file ({FORMAT}), not a {COMPACT_FORMAT} file; "
                               "read it with load_network() or NTupleNetwork.load()")
    if version != (COMPACT_FORMAT, COMPACT_VERSION) or isinstance(version[1], bool):
        raise DamagedFileError(f"it is not a {COMPACT_FORMAT} file of version {COMPACT_VERSION} (found "
                               f"{short_repr(version[0])} version {short_repr(version[1])})")


def _from_arrays(header: dict[str, Any], arrays: dict[str, np.ndarray]) -> NTupleNetwork:
    """The net a compact file's checked header and arrays describe (DamagedFileError on any mismatch)."""
    _check_format(header)
    encoding = header_field(header, "encoding", str)
    if encoding not in ENCODINGS:
        raise DamagedFileError(f"its encoding {short_repr(encoding)} is not one of {ENCODINGS}")
    net = NTupleNetwork(header["tuples"], name=header_field(header, "name", str))
    scales = header_field(header, "scales", list)
    if len(scales) != len(net.tuples) or not all(
            isinstance(s, (int, float)) and not isinstance(s, bool) and np.isfinite(s) and s > 0 for s in scales):
        raise DamagedFileError(f"its scales are not {len(net.tuples)} positive numbers")
    kept = header_field(header, "kept", int)
    mask, values = arrays["mask"], arrays["values"]
    if mask.dtype != np.uint8 or mask.shape != ((net.weights.size + 7) // 8,):
        raise DamagedFileError(f"its mask is {mask.dtype} {mask.shape}, expected uint8 ({(net.weights.size + 7) // 8},)")
    if values.dtype != np.uint8 or values.shape != (2, kept):
        raise DamagedFileError(f"its values are {values.dtype} {values.shape}, expected uint8 (2, {kept})")
    if _sha256(mask, values) != header_field(header, "sha256", str):
        raise DamagedFileError("the stored weights fail their SHA-256 checksum")
    where = np.unpackbits(mask, count=net.weights.size).view(bool)
    if int(np.count_nonzero(where)) != kept:
        raise DamagedFileError(f"its mask marks {int(np.count_nonzero(where)):,} weights, the header says {kept:,}")
    codes = np.ascontiguousarray(values.T).view(np.int16).ravel()
    weights = _decode(codes, where, net, encoding, [float(s) for s in scales], out=net.weights)
    if _sha256(weights) != header_field(header, "weights_sha256", str):
        raise DamagedFileError("the decoded weights fail their SHA-256 checksum (written by another tilelab version?)")
    if "training" in header:
        net.training = check_training(header_field(header, "training", dict))
    return net


def load_network(path: str | os.PathLike[str]) -> NTupleNetwork:
    """Load either kind of net file: a full one (:meth:`NTupleNetwork.load`) or a compact one (by its header)."""
    header, _ = read_npz(path, "n-tuple network", lambda header: {})
    if header.get("format") == COMPACT_FORMAT:
        return load_compact(path)
    return NTupleNetwork.load(path)


# ------------------------------------------------------------------------------ the shipped strong player
def strong_network(path: str | os.PathLike[str] | None = None) -> NTupleNetwork:
    """The strong net shipped with tilelab (``tilelab/data/ntuple-strong.npz``, checked on load).

    A missing or damaged file raises ``ValueError`` naming the commands that build it.
    """
    where = Path(path) if path is not None else STRONG_NET
    try:
        return load_compact(where)
    except FileNotFoundError:
        raise ValueError(f"the strong net {where} is missing: in a clone, git pull (or git checkout "
                         "tilelab/data/ntuple-strong.npz); else build it (about 3 hours of one core): "
                         f"{STRONG_BUILD}") from None


def strong_player(depth: int = 3, *, net: NTupleNetwork | None = None, **options: Any) -> TDExpectimax:
    """The strong learned player: expectimax ``depth`` moves deep on the shipped 4 x 6-tuple net.

    ``options`` go to :class:`TDExpectimax` (e.g. ``ms_per_move=50`` instead of a fixed depth, which
    then is ignored); ``net`` replaces the shipped net (a net already loaded).
    """
    net = strong_network() if net is None else net
    if "ms_per_move" in options or "nodes_per_move" in options:
        return TDExpectimax(net, **options)
    return TDExpectimax(net, depth=depth, **options)
