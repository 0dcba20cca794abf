"""tilelab.jit.njit's options, with numba and without it."""

from __future__ import annotations

import numpy as np
import pytest

from tilelab import jit

SOURCE = '''
def head(a):
    return a[:2]


def total(a):
    return a.sum() + first(a)


def first(a):
    return a[0]
'''


def compiled(**options):
    """``head``, ``total`` (calling ``first``, compiled the same way) compiled by ``jit.njit(**options)``; defined
    in a "<test>" file, so numba caches nothing on disk."""
    namespace: dict = {}
    exec(compile(SOURCE, "<test>", "exec"), namespace)
    for name in ("head", "first", "total"):
        namespace[name] = jit.njit(**options)(namespace[name])
    return namespace["head"], namespace["total"]


def test_by_default_a_compiled_function_may_hand_back_a_view():
    head, total = compiled()
    a = np.arange(5.0)
    assert head(a).tolist() == [0.0, 1.0] and total(a) == 10.0


@pytest.mark.skipif(not jit.HAVE_NUMBA, reason="numba's runtime exists only with numba")
def test_refcounts_false_compiles_without_numbas_runtime():
    """Without the runtime, arrays passed between compiled functions are not counted: the same answers, but a
    function can no longer hand an array it made (here a view) back to its caller."""
    head, total = compiled(refcounts=False)
    a = np.arange(5.0)
    assert total(a) == 10.0
    assert head.targetoptions["_nrt"] is False and "refcounts" not in head.targetoptions
    with pytest.raises(Exception, match="returning of array"):
        head(a)


@pytest.mark.skipif(jit.HAVE_NUMBA, reason="the plain-Python fallback")
def test_without_numba_refcounts_is_ignored():
    head, total = compiled(refcounts=False)
    assert head(np.arange(5.0)).tolist() == [0.0, 1.0] and total(np.arange(5.0)) == 10.0


def test_prefetch_changes_nothing_and_never_faults():
    numba = pytest.importorskip("numba")
    if not jit.HAVE_NUMBA:
        pytest.skip("TILELAB_NO_JIT is set")

    @numba.njit
    def summed(a, far):
        total = 0.0
        for i in range(a.size):
            jit.prefetch(a, i + 8)
            total += a[i]
        jit.prefetch(a, far)  # past the end: a hint is no load, so nothing faults
        return total

    a = np.arange(100, dtype=np.float32)
    assert summed(a, a.size + 10**6) == a.sum() == summed.py_func(a, 3)
    llvm = next(iter(summed.inspect_llvm().values()))
    assert "llvm.prefetch" in llvm  # a real prefetch instruction, not a call that does nothing
