"""A child process that loads saves for tests/test_robustness_save_props.py, under memory and CPU caps.

Run as ``python -m tests.save_worker MEGABYTES``: it warms every loader (numba compiles here, before the
cap), caps its address space at what it uses then plus MEGABYTES (``resource.setrlimit``), then reads
one request a line (``{"game": "2048", "text": "..."}``) and answers one line: the outcome
(``loaded``, ``ValueError``, ``TypeError`` or ``other``), the save the loaded game writes, whether
loading that save again gives it back, and the CPU seconds the load and the round trip took.
A crash or a hang shows as a missing answer: the test kills the child and reports the request.
"""

from __future__ import annotations

import json
import resource
import sys
import time

from tilelab import game2048, match3, sliding

GAMES = {"2048": game2048.Game, "sliding": sliding.Game, "match3": match3.Game}
CPU_SECONDS = 600  # the whole child's CPU budget, a backstop behind the per-request timeout


def _warm() -> None:
    """Load one save of each kind (plain and special match-3 too), so compiling happens before the cap."""
    saves = [game2048.Game(rng=0), sliding.Game(3, rng=0), match3.Game(5, 5, 4, rng=0),
             match3.Game(5, 5, 4, rng=0, rules="specials")]
    for game in saves:
        game.play(game.legal_moves()[0])
        type(game).from_json(game.to_json())


def _address_space() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def answer(request: dict) -> dict:
    game = GAMES[request["game"]]
    start = time.process_time()
    try:
        loaded = game.from_json(request["text"])
        save = loaded.to_json()
        result = {"outcome": "loaded", "save": save, "stable": game.from_json(save).to_json() == save}
    except (ValueError, TypeError) as exc:
        result = {"outcome": type(exc).__name__, "message": str(exc)[:500]}
    except BaseException as exc:  # noqa: BLE001 - reported to the test, which fails on it
        result = {"outcome": "other", "message": f"{type(exc).__name__}: {exc}"[:500]}
    result["cpu"] = time.process_time() - start
    return result


def main() -> None:
    _warm()
    extra = int(sys.argv[1]) * 2**20 if len(sys.argv) > 1 else 2**30
    cap = _address_space() + extra
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    print(json.dumps({"ready": True, "cap_mb": cap >> 20}), flush=True)
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
