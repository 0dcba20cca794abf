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
decode to; a file failing any check raises ``ValueError`` saying how to rebuild it.

Two ways to load one. :meth:`CompactNetwork.load` keeps the net compact in memory too: the mask with a
running count (16 bytes for every 64 weights) and the kept 16-bit codes, each scaled when it is looked up
to exactly the float32 weight the file stands for. The shipped strong net takes 48 MiB so, not the 256 MiB
of its float32 tables: a class's hub can afford it. :func:`load_compact` expands the file to an ordinary
:class:`NTupleNetwork` (float32 tables: to train on, or to compare with the full net). Both play the same
moves with the same values (:class:`TDPlayer` and :class:`TDExpectimax` take either).

The strong player (:func:`~tilelab.game2048.learning.ntuple_players.strong_player`) is the 4 x 6-tuple net trained by
temporal coherence (``benchmarks/train_2048_td.py``), made compact by ``benchmarks/make_strong_net.py`` and
shipped as ``tilelab/data/ntuple-strong.npz`` (:data:`STRONG_NET`). Part of :mod:`tilelab.game2048.learning`.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tilelab.inputs import short_repr
from tilelab.files import DamagedFileError, header_field, one_line, read_npz
from tilelab.game2048.fast.bitboard import to_bitboard
from tilelab.game2048.board import Board
from tilelab.game2048.fast.bitrows import U64
from tilelab.game2048.learning.ntuple_kernels import CompactTables, batch_values, net_value
from tilelab.game2048.learning.ntuple_net import (
    FORMAT, CurvePoint, NTupleNetwork, check_training, check_tuples, feature_layout,
)

__all__ = ["COMPACT_FORMAT", "COMPACT_VERSION", "ENCODINGS", "STRONG_NET", "STRONG_BUILD", "CompactNetwork",
           "compact_weights", "save_compact", "load_compact", "load_network"]

COMPACT_FORMAT = "tilelab.game2048.ntuple-compact"
COMPACT_VERSION = 1
ENCODINGS = ("int16", "float16")
INT16_STEPS = 32767  # the largest |weight| of a table maps to this many steps of its scale (bits=16)

STRONG_NET = Path(__file__).resolve().parents[2] / "data" / "ntuple-strong.npz"
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


def _quantise(net: NTupleNetwork, encoding: str, bits: int = 16) -> tuple[npt.NDArray[Any], list[float]]:
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


def _decode(codes: npt.NDArray[Any], where: npt.NDArray[Any], net: NTupleNetwork, encoding: str, scales: list[float]) -> npt.NDArray[Any]:
    """float32 weights from the kept 16-bit ``codes`` and the boolean mask ``where`` (where they go)."""
    weights = np.zeros(net.weights.size, dtype=np.float32)
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


def compact_weights(net: NTupleNetwork, encoding: str = "int16", *, bits: int = 16) -> npt.NDArray[Any]:
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
def _sha256(*arrays: npt.NDArray[Any]) -> str:
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
    """Read a compact file into an :class:`NTupleNetwork` (float32 tables); ``ValueError`` (saying how to rebuild) if
    damaged. :meth:`CompactNetwork.load` reads it without expanding it.
    """
    return CompactNetwork.load(path).to_network()


def _check_format(header: dict[str, Any]) -> None:
    """DamagedFileError unless the header is a compact file's of this version (a full net file is named as such)."""
    version = header.get("format"), header.get("version")
    if header.get("format") == FORMAT:
        raise DamagedFileError(f"it is a full n-tuple network file ({FORMAT}), not a {COMPACT_FORMAT} file; "
                               "read it with load_network() or NTupleNetwork.load()")
    if version != (COMPACT_FORMAT, COMPACT_VERSION) or isinstance(version[1], bool):
        raise DamagedFileError(f"it is not a {COMPACT_FORMAT} file of version {COMPACT_VERSION} (found "
                               f"{short_repr(version[0])} version {short_repr(version[1])})")


_POPCOUNT8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)  # set bits of each byte
_CHUNK = 1 << 20  # weights decoded at a time to check the SHA-256 or to expand (4 MiB of float32)


def _from_arrays(header: dict[str, Any], arrays: dict[str, npt.NDArray[Any]]) -> "CompactNetwork":
    """The net a compact file's checked header and arrays describe (DamagedFileError on any mismatch)."""
    _check_format(header)
    encoding = header_field(header, "encoding", str)
    if encoding not in ENCODINGS:
        raise DamagedFileError(f"its encoding {short_repr(encoding)} is not one of {ENCODINGS}")
    tuples = check_tuples(header["tuples"])
    size = sum(16 ** len(t) for t in tuples)
    scales = header_field(header, "scales", list)
    if len(scales) != len(tuples) or not all(
            isinstance(s, (int, float)) and not isinstance(s, bool) and np.isfinite(s) and s > 0 for s in scales):
        raise DamagedFileError(f"its scales are not {len(tuples)} positive numbers")
    kept = header_field(header, "kept", int)
    mask, values = arrays["mask"], arrays["values"]
    if mask.dtype != np.uint8 or mask.shape != ((size + 7) // 8,):
        raise DamagedFileError(f"its mask is {mask.dtype} {mask.shape}, expected uint8 ({(size + 7) // 8},)")
    if values.dtype != np.uint8 or values.shape != (2, kept):
        raise DamagedFileError(f"its values are {values.dtype} {values.shape}, expected uint8 (2, {kept})")
    if _sha256(mask, values) != header_field(header, "sha256", str):
        raise DamagedFileError("the stored weights fail their SHA-256 checksum")
    blocks = _blocks(mask)
    marked = int(blocks[-1, 1]) + int(_POPCOUNT8[mask[8 * (len(blocks) - 1):]].sum(dtype=np.int64))
    if marked != kept:
        raise DamagedFileError(f"its mask marks {marked:,} weights, the header says {kept:,}")
    codes = np.empty(kept, dtype=np.int16)
    codes.view(np.uint8)[0::2], codes.view(np.uint8)[1::2] = values[0], values[1]  # low bytes, high bytes
    del arrays["values"], values
    kept_values: npt.NDArray[Any] = codes.view(np.float16).astype(np.float32) if encoding == "float16" else codes
    training = check_training(header_field(header, "training", dict)) if "training" in header else None
    net = CompactNetwork(tuples, blocks, kept_values, [float(s) for s in scales],
                         name=header_field(header, "name", str), training=training)
    if net.sha256 != header_field(header, "weights_sha256", str):
        raise DamagedFileError("the decoded weights fail their SHA-256 checksum (written by another tilelab version?)")
    return net


def _blocks(mask: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``(words, 2)`` uint64 from a packed mask: each 64 weights' mask bits (weight ``64 w + j`` at bit ``63 - j``)
    and how many weights before them are kept.

    >>> _blocks(np.packbits([1, 0, 1] + [0] * 61 + [1])).tolist()
    [[11529215046068469760, 0], [9223372036854775808, 2]]
    """
    padded = np.zeros(-(-mask.size // 8) * 8, dtype=np.uint8)
    padded[:mask.size] = mask
    blocks = np.empty((padded.size // 8, 2), dtype=np.uint64)
    blocks[:, 0] = padded.view(">u8")
    counts = _POPCOUNT8[padded].reshape(-1, 8).sum(axis=1, dtype=np.uint64)
    blocks[0, 1] = 0
    np.cumsum(counts[:-1], out=blocks[1:, 1])
    return blocks


class CompactNetwork:
    """A trained n-tuple net kept compact in memory: its kept weights' 16-bit codes and where they go.

    Reads as an :class:`NTupleNetwork` does (``value``, ``tuples``, ``training``, ``curve``) and plays with
    :class:`~tilelab.game2048.learning.ntuple_players.TDPlayer` and :class:`~tilelab.game2048.learning.ntuple_players.TDExpectimax`: each look-up
    is the float32 weight :func:`load_compact` would hold, so the moves and values are the same. It does not
    train; :meth:`to_network` gives the float32 tables (to train on, or to compare).

    >>> import tempfile
    >>> net = NTupleNetwork([(0, 1, 2)], name="tiny")
    >>> net.weights[[5, 70]] = [12.5, -3.0]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     small = CompactNetwork.load(save_compact(net, Path(folder) / "tiny.npz"))
    >>> small.kept, np.array_equal(small.to_network().weights, compact_weights(net))
    (2, True)
    """

    def __init__(self, tuples: Any, blocks: npt.NDArray[Any], values: npt.NDArray[Any], scales: list[float], *, name: str = "",
                 training: dict[str, Any] | None = None) -> None:
        self.tuples = check_tuples(tuples)
        self.name = name or "custom"
        self.size = sum(16 ** len(t) for t in self.tuples)
        if blocks.dtype != np.uint64 or blocks.shape != (-(-self.size // 64), 2):
            raise ValueError(f"blocks must be uint64 of shape ({-(-self.size // 64)}, 2), got {blocks.dtype} "
                             f"{blocks.shape}")
        if len(scales) != len(self.tuples):
            raise ValueError(f"give one scale per tuple ({len(self.tuples)}), got {len(scales)}")
        self.blocks, self.values, self.scales = blocks, values, [float(s) for s in scales]
        self.layout = feature_layout(self.tuples)  #: the features' (cells, lens, offs), as every kernel takes them
        self.offsets = self.layout[2][::8].copy()
        self._feature_scales = np.repeat(np.array(self.scales, dtype=np.float64), 8)
        self.training: dict[str, Any] = training or {"games": 0, "state": None, "seed": None, "alpha": None,
                                                     "method": None, "seconds": 0.0, "curve": []}
        self.sha256 = _sha256_of_chunks(self._chunks())  #: SHA-256 of the float32 weights it stands for

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "CompactNetwork":
        """Read a compact file, kept compact; ``ValueError`` (saying how to rebuild) if damaged."""
        path = Path(path)
        try:
            header, arrays = read_npz(path, "compact n-tuple network", _compact_sizes)
        except DamagedFileError as exc:
            raise DamagedFileError(f"{one_line(exc)}; {_rebuild_advice(path)}") from None
        try:
            return _from_arrays(header, arrays)
        except DamagedFileError as exc:
            raise DamagedFileError(f"compact n-tuple network {path} is damaged or not a tilelab file: "
                                   f"{one_line(exc)}; {_rebuild_advice(path)}") from None
        except (TypeError, ValueError, KeyError) as exc:
            raise DamagedFileError(f"compact n-tuple network {path} has a damaged header ({type(exc).__name__}: "
                                   f"{one_line(exc)}); {_rebuild_advice(path)}") from None

    def __repr__(self) -> str:
        return (f"CompactNetwork({self.name!r}, tuples={len(self.tuples)}, weights={self.size:,} ({self.kept:,} kept), "
                f"memory={self.memory_bytes / 2**20:.2f} MiB, trained games={self.training['games']:,})")

    @property
    def kept(self) -> int:
        """How many weights are not 0."""
        return int(self.values.size)

    @property
    def memory_bytes(self) -> int:
        """Bytes taken by the tables (the mask with its counts, and the kept codes)."""
        return int(self.blocks.nbytes + self.values.nbytes)

    @property
    def features(self) -> int:
        """Weights looked up per evaluation: tuples x 8 symmetries."""
        return int(self.layout[0].shape[0])

    @property
    def tables(self) -> CompactTables:
        """What the kernels read in place of float32 weights: ``(blocks, values, scale of each feature)``."""
        return self.blocks.reshape(-1), self.values, self._feature_scales

    @property
    def curve(self) -> list[CurvePoint]:
        """The learning curve of its training (one point per block)."""
        return [CurvePoint(**p) for p in self.training["curve"]]

    def value_bits(self, bits: int) -> float:
        """``V`` of a bitboard."""
        return float(net_value(U64(bits), self.tables, *self.layout))

    def value(self, board: Board | int) -> float:
        """``V`` of a board (a :class:`Board` or a bitboard)."""
        return self.value_bits(board if isinstance(board, (int, np.integer)) else to_bitboard(board))

    def values_bits(self, boards: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """``V`` of many bitboards at once."""
        boards = np.ascontiguousarray(boards, dtype=np.uint64)
        out = np.zeros(boards.size, dtype=np.float64)
        batch_values(boards.ravel(), self.tables, *self.layout, out)
        return out

    def _chunks(self) -> Any:
        """The float32 weights it stands for, in order, a chunk at a time: ``(start, weights)``."""
        rank = 0
        for t, (offset, cells) in enumerate(zip(self.offsets, self.tuples)):
            end = int(offset) + 16 ** len(cells)
            for start in range(int(offset), end, _CHUNK):
                stop = min(start + _CHUNK, end)
                where = _unpack(self.blocks, start, stop)
                count = int(np.count_nonzero(where))
                chunk = np.zeros(stop - start, dtype=np.float32)
                chunk[where] = (self.values[rank:rank + count].astype(np.float64) * self.scales[t]).astype(np.float32)
                rank += count
                yield start, chunk

    def to_network(self) -> NTupleNetwork:
        """The same net with float32 tables (``4 * 16**n`` bytes a tuple: 256 MiB for the strong net)."""
        net = NTupleNetwork(self.tuples, name=self.name)
        for start, chunk in self._chunks():
            net.weights[start:start + chunk.size] = chunk
        net.training = self.training
        return net


def _unpack(blocks: npt.NDArray[Any], start: int, stop: int) -> npt.NDArray[Any]:
    """The mask bits of weights ``start .. stop - 1`` as booleans."""
    words = blocks[start // 64:-(-stop // 64), 0].astype(">u8")
    skip = start % 64
    return np.unpackbits(words.view(np.uint8), count=skip + stop - start)[skip:].view(bool)


def _sha256_of_chunks(chunks: Any) -> str:
    digest = hashlib.sha256()
    for _, chunk in chunks:
        digest.update(chunk.data)
    return digest.hexdigest()


def load_network(path: str | os.PathLike[str]) -> NTupleNetwork:
    """Load either kind of net file: a full one (:meth:`NTupleNetwork.load`) or a compact one (by its header)."""
    header, _ = read_npz(path, "n-tuple network", lambda header: {})
    if header.get("format") == COMPACT_FORMAT:
        return load_compact(path)
    return NTupleNetwork.load(path)
