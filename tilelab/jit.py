"""Optional numba compilation with a pure-Python fallback.

The fast engines (2048 bitboard AI, sliding-puzzle IDA* and pattern databases) decorate their
inner loops with :func:`njit`. With numba installed the loops compile to machine code (cached on
disk); without it, or with the environment variable ``TILELAB_NO_JIT=1``, the very same functions
run as plain Python -- slower, same answers. Tests run both ways.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, TypeVar, overload

try:  # pragma: no cover - exercised by whichever way the environment is set up
    if os.environ.get("TILELAB_NO_JIT", "") not in ("", "0"):
        raise ImportError("TILELAB_NO_JIT is set")
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False


F = TypeVar("F", bound=Callable[..., Any])
PACKAGE = Path(__file__).resolve().parent  #: the tilelab package's folder


def source_digest(py_file: str | os.PathLike[str]) -> str:
    """A hash of every module a compiled function in ``py_file`` may call: the ``.py`` files of its own game
    (the subpackage under ``tilelab``, its ``fast/`` and ``learning/`` parts included) and the package's
    top-level modules (``jit`` and friends), names and contents.

    numba reuses a disk-cached function while *its own* file is unchanged, but the functions it calls are
    compiled into it: after an edit to a helper in another file it would run the old helper (a fast twin
    compiles its readable rule's constants and functions in). tilelab's compiled functions call only their own
    game and the top-level modules, so this digest, added to numba's freshness stamp (see
    :func:`install_cache_stamp`), makes any such edit compile afresh.

    >>> a = source_digest(PACKAGE / "game2048" / "fast" / "kernels.py")
    >>> a == source_digest(PACKAGE / "game2048" / "chance.py"), a == source_digest(PACKAGE / "sliding" / "pdb.py"), len(a)
    (True, False, 64)
    """
    path = Path(py_file).resolve()
    parts = path.relative_to(PACKAGE).parts if path.is_relative_to(PACKAGE) else ()
    game = PACKAGE / parts[0] if len(parts) > 1 else path.parent
    files = sorted({*game.rglob("*.py"), *PACKAGE.glob("*.py")})
    return _digest(tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files))


@functools.lru_cache(maxsize=None)
def _digest(files: tuple[tuple[str, int, int], ...]) -> str:
    """SHA-256 of these files' names (within the package) and contents; cached by their times and sizes."""
    digest = hashlib.sha256()
    for name, _, _ in files:
        path = Path(name)
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def install_cache_stamp() -> bool:
    """Make numba's disk cache of tilelab's compiled functions stale whenever :func:`source_digest` changes.

    Each of numba's cache locators gets a twin, tried first, that serves the files inside the package only
    and stamps them with (numba's own stamp of the file, :func:`source_digest`); functions elsewhere (a
    student's notebook) are cached as numba always does. Returns False, changing nothing, when numba is
    missing or its cache classes are not where this numba version was expected to keep them.
    """
    if not HAVE_NUMBA:
        return False
    try:
        from numba.core import caching
        impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
        locators: list[Any] = impl._locator_classes
    except (ImportError, AttributeError):  # pragma: no cover - a numba that keeps its caching elsewhere
        return False
    if any(getattr(cls, "_tilelab_stamp", False) for cls in locators):
        return True
    twins = [_stamped_twin(cls) for cls in locators]
    locators[:0] = twins
    return True


def _stamped_twin(base: type) -> type:
    """``base`` (a numba cache locator) for files inside the package, its stamp extended by :func:`source_digest`."""

    class Twin(base):  # type: ignore[misc, valid-type]
        _tilelab_stamp = True

        def get_source_stamp(self) -> Any:
            return (super().get_source_stamp(), source_digest(self._tilelab_file))

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not Path(py_file).resolve().is_relative_to(PACKAGE):
                return None
            locator = super().from_function(py_func, py_file)
            if locator is not None:
                locator._tilelab_file = py_file
            return locator

    Twin.__name__ = Twin.__qualname__ = f"Tilelab{base.__name__}"
    return Twin


@overload
def njit(func: F, /) -> F: ...
@overload
def njit(**options: Any) -> Callable[[F], F]: ...
def njit(*args: Any, **kwargs: Any) -> Any:  # the type checker sees the function's own signature, kept
    """``numba.njit(cache=True)`` when numba is available, else the function unchanged.

    Use bare (``@njit``) or with options (``@njit(inline="always")``). The original Python
    function is always reachable as ``f.py_func``, so tests can compare the two.

    ``refcounts=False`` compiles without numba's runtime: numba then counts no references to the arrays a
    compiled function passes to another (an atomic add and an atomic subtract per array per call, which cost
    a recursive search or a per-node helper 15-17% of its time). Only for functions that make no array to
    hand back (a view used inside is fine; returning one is refused at compile time): the caller owns every
    array for the whole call.

    >>> @njit
    ... def add(a, b):
    ...     return a + b
    >>> add(2, 3), add.py_func(2, 3)
    (5, 5)
    """
    if args and callable(args[0]) and len(args) == 1 and not kwargs:
        return njit()(args[0])

    def decorate(func: Callable) -> Callable:
        if HAVE_NUMBA:
            install_cache_stamp()
            # Cache compiled code on disk, except for functions with no source file (a notebook
            # cell, a doctest), which numba cannot cache.
            has_file = not func.__code__.co_filename.startswith("<")
            options = {"cache": has_file, **kwargs}
            if not options.pop("refcounts", True):
                options["_nrt"] = False  # numba's (long-standing) switch for its runtime
            return _numba.njit(**options)(func)
        func.py_func = func  # type: ignore[attr-defined]
        return func

    return decorate


def py_func(func: F) -> F:
    """The plain Python function behind a compiled one (the function itself when numba is off).

    >>> @njit
    ... def twice(x):
    ...     return 2 * x
    >>> py_func(twice)(4), py_func(py_func(twice)) is py_func(twice)
    (8, True)
    """
    plain: F = getattr(func, "py_func", func)
    return plain


def _monotonic_py(buffer: Any = None) -> float:
    """Seconds on the clock of :func:`time.perf_counter` (the pure-Python fallback; ``buffer`` unused)."""
    return time.perf_counter()


CLOCK_MONOTONIC = 1  # Linux's id of the clock time.perf_counter reads

if HAVE_NUMBA and sys.platform.startswith("linux"):  # pragma: no branch - one way per machine
    from numba import types as _types

    _clock_gettime = _types.ExternalFunction("clock_gettime", _types.int32(_types.int32, _types.intp))

    @_numba.njit(cache=True)
    def monotonic(buffer) -> float:  # type: ignore[misc]
        """``time.perf_counter()`` from compiled code, about 40 ns: libc's clock_gettime, no GIL, no Python.

        ``buffer`` is an int64 array of at least 2 (the C call writes seconds and nanoseconds there).
        Compiled code cannot be interrupted, so a search with a deadline must look at the clock itself.
        """
        _clock_gettime(CLOCK_MONOTONIC, buffer.ctypes.data)
        return buffer[0] + buffer[1] * 1e-9

elif HAVE_NUMBA:  # pragma: no cover - other systems: through the interpreter (about 1 us a call)

    @_numba.njit(cache=True)
    def monotonic(buffer) -> float:  # type: ignore[misc]
        """``time.perf_counter()`` from compiled code (through object mode; ``buffer`` unused)."""
        with _numba.objmode(now="float64"):
            now = time.perf_counter()
        return now

else:  # pragma: no cover
    monotonic = _monotonic_py  # type: ignore[assignment]
    monotonic.py_func = _monotonic_py  # type: ignore[attr-defined]


def prefetch(array: Any, index: int) -> None:
    """Ask the processor to start loading ``array[index]`` into its caches, and go on at once.

    A hint, not a load: it changes no value and never faults (the index is not checked). In compiled code
    it is one prefetch instruction; called from Python (or without numba) it does nothing. Training an
    n-tuple net reads up to 128 weights and 64 learning-rate sums at random in 800 MB for every move: asking
    for them all before using any lets the memory system fetch them side by side instead of one by one.

    >>> prefetch([0.5, 1.5, 2.5], 2) is None
    True
    """


def compile_by_kind(func: Callable[..., Any], on_array: Callable[..., Any], on_tuple: Callable[..., Any]) -> None:
    """In compiled code, a call of ``func`` becomes ``on_array`` when its first argument is an array and
    ``on_tuple`` when it is a tuple (each compiled for the types it meets; all three take the same arguments).
    Plain Python (no numba) keeps calling ``func``, which must tell the two apart itself."""
    if HAVE_NUMBA:
        _by_kind(func, on_array, on_tuple)


def popcount(word: Any) -> int:
    """How many bits of a 64-bit word are set: one processor instruction in compiled code (LLVM's ``ctpop``).

    >>> popcount(0), popcount(0b1011), popcount(0xFFFFFFFFFFFFFFFF)
    (0, 3, 64)
    """
    return bin(int(word)).count("1")


if HAVE_NUMBA:  # pragma: no branch - one way per machine
    from llvmlite import binding as _llvm
    from llvmlite import ir as _ir
    from numba import types as _types
    from numba.core import cgutils as _cgutils
    from numba.extending import intrinsic as _intrinsic
    from numba.extending import overload as _overload

    # The intrinsic's name carries its pointer type: "p0" since LLVM 15's opaque pointers, "p0i8" before.
    _PREFETCH = "llvm.prefetch.p0" if _llvm.llvm_version_info[0] >= 15 else "llvm.prefetch.p0i8"

    @_intrinsic
    def _prefetch_instruction(typingctx: Any, array: Any, index: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array_type = signature.args[0]
            view = context.make_array(array_type)(context, builder, args[0])
            where = _cgutils.get_item_pointer(context, builder, array_type, view, [args[1]])
            byte_ptr, i32 = _ir.IntType(8).as_pointer(), _ir.IntType(32)
            hint = _cgutils.get_or_insert_function(
                builder.module, _ir.FunctionType(_ir.VoidType(), [byte_ptr, i32, i32, i32]), _PREFETCH)
            # read (0), keep in every cache level (3), data not instructions (1)
            builder.call(hint, [builder.bitcast(where, byte_ptr), _ir.Constant(i32, 0), _ir.Constant(i32, 3),
                                _ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return _types.void(array, index), codegen

    @_overload(prefetch, inline="always")
    def _prefetch_compiled(array, index):  # type: ignore[no-untyped-def]  # numba wants the lambda's bare names
        if isinstance(array, _types.Array) and isinstance(index, _types.Integer):
            return lambda array, index: _prefetch_instruction(array, index)
        return None

    @_intrinsic
    def _ctpop_instruction(typingctx: Any, word: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            i64 = _ir.IntType(64)
            count = _cgutils.get_or_insert_function(builder.module, _ir.FunctionType(i64, [i64]), "llvm.ctpop.i64")
            return builder.call(count, [args[0]])

        return _types.int64(_types.uint64), codegen

    @_overload(popcount, inline="always")
    def _popcount_compiled(word):  # type: ignore[no-untyped-def]  # numba wants the lambda's bare names
        if isinstance(word, _types.Integer):
            return lambda word: _ctpop_instruction(_numba.uint64(word))
        return None

    def _by_kind(func: Callable[..., Any], on_array: Callable[..., Any], on_tuple: Callable[..., Any]) -> None:
        def pick(first: Any) -> Any:
            if isinstance(first, _types.Array):
                return on_array
            if isinstance(first, _types.BaseTuple):
                return on_tuple
            return None

        # numba wants the typing function to name the arguments as ``func`` does
        names = ", ".join(inspect.signature(func).parameters)
        namespace: dict[str, Any] = {"pick": pick}
        exec(f"def choose({names}):\n    return pick({names.split(',')[0]})\n", namespace)
        _overload(func, inline="always")(namespace["choose"])
