"""A stepper's frames for the course website: the stepper steps in the page, where no kernel runs.

A stepper's stored output carries, beside the live widget and its still picture, a bounded set of its frames made
when the cell ran (:data:`FRAMES_MIME`: each frame a palette PNG and its caption). JupyterLab has no renderer for
that type, so it shows the widget (or, in an untrusted notebook, the still picture) as before; the course website
(:mod:`tilelab.teach.site`) turns it into :func:`stepper_html`, a self-contained page fragment: the frames as data
URIs, each caption shown and as the picture's alt text, first / back / play / next / last buttons (and the arrow
keys) driven by a few lines of plain JavaScript, no request leaving the page.

Rendering the frames takes seconds and about 190 MiB more at the kernel's peak, which a student's kernel never
needs: a stepper stores them only when the lessons are executed for the website, with :data:`PAGE_FRAMES_ENV` set
(``TILELAB_PAGE_FRAMES=1 jupyter nbconvert --execute --inplace ...``, docs/teaching.md).

A stepper with more frames than :data:`MAX_FRAMES` keeps evenly spaced ones, the first and last always:

>>> shown_steps(10, 4)
([0, 3, 6, 9], 3)
>>> shown_steps(5, 40)
([0, 1, 2, 3, 4], 1)
>>> data = frames_data("demo", [Sequence("BFS", 3, [Frame(0, PNG, "<b>BFS</b> step 1"), Frame(2, PNG, "end")])])
>>> html = stepper_html(data)
>>> html.count("<img "), 'alt="BFS step 1"' in html, "frame 1 of 2 (every 2nd step shown)" in html
(2, True, True)
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import os
from typing import Any, Callable, NamedTuple, Sequence as Seq

import ipywidgets as widgets
import traitlets

from tilelab.widgets.access import plain_text

__all__ = ["FRAMES_MIME", "MAX_FRAMES", "PAGE_FRAMES_ENV", "page_frames_wanted", "Frame", "Sequence", "TitledImage",
           "frame_png", "frames_data", "shown_steps", "stepper_html", "still_sequence"]

FRAMES_MIME = "application/vnd.tilelab.frames+json"  # a stepper's stored frames (JupyterLab ignores it)
MAX_FRAMES = 40  # frames kept in a stepper's stored page, over all its sequences (a bound on the lesson's size)
PAGE_FRAMES_ENV = "TILELAB_PAGE_FRAMES"  # set (not "" or "0") when the lessons are executed for the website
PLAY_MS = 900  # the page's play button: one frame per this many milliseconds
COLOURS = 128  # a frame's palette: the plots have few colours, so a palette PNG is a third of the size
PNG = b"\x89PNG\r\n\x1a\n"  # a PNG's signature (the doctest's stand-in picture)


class Frame(NamedTuple):
    """One stored frame: the stepper's step (0-based), its picture (PNG bytes) and its caption (HTML)."""

    step: int
    png: bytes
    caption: str


class Sequence(NamedTuple):
    """One thing the stepper steps through (a search, a tree): its name, its number of steps, the frames kept."""

    name: str
    total: int
    frames: list[Frame]


class TitledImage(widgets.Image):
    """An ipywidgets ``Image`` whose ``tooltip`` becomes the picture's ``title``, its text alternative.

    The browser side of ipywidgets 8 reads a widget's ``description`` before it sets the title, and ``Image`` has
    none: a plain ``Image`` given a tooltip fails to display ("Could not create a view"). This one carries an
    empty ``description``, so the title is set.

    >>> image = TitledImage(format="png")
    >>> image.tooltip = "step 1 of 3"
    >>> image.get_state()["description"], image.get_state()["tooltip"]
    ('', 'step 1 of 3')
    """

    description = traitlets.Unicode("", help="left empty: ipywidgets' browser side then sets the title").tag(sync=True)


def page_frames_wanted() -> bool:
    """True when a stepper's output should carry its frames: the lessons are being executed for the website."""
    return os.environ.get(PAGE_FRAMES_ENV, "") not in ("", "0")


def shown_steps(total: int, limit: int = MAX_FRAMES) -> tuple[list[int], int]:
    """``(steps, every)``: the steps (0-based) kept of ``total``, evenly spaced, first and last included."""
    if total < 1 or limit < 2:
        raise ValueError(f"need at least one step and a limit of 2 or more frames, got {total} steps, limit {limit}")
    if total <= limit:
        return list(range(total)), 1
    every = -(-(total - 1) // (limit - 1))  # ceil: never more than limit frames
    steps = list(range(0, total - 1, every))
    return steps + [total - 1], every


def frame_png(fig: object, dpi: int) -> bytes:
    """A matplotlib figure as a palette PNG (closed afterwards: it is never also shown inline)."""
    import matplotlib.pyplot as plt
    from PIL import Image

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[arg-type]
    image = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB").quantize(colors=COLOURS)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def still_sequence(name: str, total: int, limit: int, draw: Callable[[int], tuple[bytes, str]]) -> Sequence:
    """A :class:`Sequence` of at most ``limit`` frames of ``total`` steps; ``draw(step)`` gives (PNG, caption)."""
    steps, _every = shown_steps(total, limit)
    return Sequence(name, total, [Frame(step, *draw(step)) for step in steps])


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _count(k: int, sequence: Sequence) -> str:
    shown = len(sequence.frames)
    if shown == sequence.total:
        return f"frame {k + 1} of {shown}"
    steps = [f.step for f in sequence.frames]
    every = steps[1] - steps[0] if shown > 1 else sequence.total
    return f"frame {k + 1} of {shown} (every {_ordinal(every)} step shown)"


_SCRIPT = """(function () {
  var root = document.getElementById("%(id)s");
  if (!root) { return; }
  var figures = root.querySelectorAll("figure"), live = root.querySelector(".tl-live");
  var menu = root.querySelector("select"), playButton = root.querySelector("[data-act=play]");
  var seq = %(seq)d, at = 0, timer = null;
  function frames() { return root.querySelectorAll('figure[data-seq="' + seq + '"]'); }
  function show(k) {
    var list = frames();
    at = Math.max(0, Math.min(k, list.length - 1));
    for (var i = 0; i < figures.length; i++) { figures[i].hidden = true; }
    list[at].hidden = false;
    live.textContent = list[at].getAttribute("data-say");
    root.setAttribute("data-frame", String(at));
    if (at === list.length - 1) { stop(); }
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    playButton.lastChild.textContent = " play"; playButton.firstChild.textContent = "\\u25B6";
    playButton.setAttribute("aria-pressed", "false");
  }
  function play() {
    if (timer !== null) { stop(); return; }
    if (at === frames().length - 1) { show(0); }
    playButton.lastChild.textContent = " pause"; playButton.firstChild.textContent = "\\u25A0";
    playButton.setAttribute("aria-pressed", "true");
    timer = setInterval(function () { show(at + 1); }, %(ms)d);
  }
  var acts = {first: function () { stop(); show(0); }, back: function () { stop(); show(at - 1); },
              next: function () { stop(); show(at + 1); }, last: function () { stop(); show(frames().length - 1); },
              play: play};
  root.querySelectorAll("button[data-act]").forEach(function (b) {
    b.disabled = false;
    b.addEventListener("click", function () { acts[b.getAttribute("data-act")](); });
  });
  if (menu) {
    menu.disabled = false;
    menu.addEventListener("change", function () { stop(); seq = Number(menu.value); show(0); });
  }
  root.addEventListener("keydown", function (e) {
    if (e.target === menu) { return; }
    var key = {ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last"}[e.key];
    if (key) { acts[key](); e.preventDefault(); }
  });
  show(%(at)d);
})();"""

_STYLE = """<style>
.tl-stepper .tl-controls{display:flex;flex-wrap:wrap;gap:.4em;align-items:center;margin:.3em 0}
.tl-stepper button{padding:.25em .8em;border:1px solid #555;border-radius:4px;background:#f4f4f4;color:#111;
 cursor:pointer;font:inherit}
.tl-stepper button:focus-visible,.tl-stepper select:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
.tl-stepper figure{margin:.3em 0}.tl-stepper img{max-width:100%;height:auto}
.tl-stepper figcaption{margin:.2em 0}.tl-stepper .tl-count{color:#333;font-size:.9em}
.tl-stepper .tl-live{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
</style>"""


def frames_data(title: str, sequences: Seq[Sequence], menu_label: str = "search", *, sequence: int = 0,
                step: int = 0) -> dict[str, Any]:
    """The stepper's frames as the JSON stored under :data:`FRAMES_MIME` (pictures in base64); the page opens on
    sequence ``sequence`` at the kept frame nearest to ``step`` (where the widget was when the cell ran)."""
    if not sequences or not all(s.frames for s in sequences):
        raise ValueError("a stepper page needs at least one sequence, each with at least one frame")
    if not 0 <= sequence < len(sequences):
        raise ValueError(f"sequence is an index into the {len(sequences)} sequences, got {sequence}")
    frames = sequences[sequence].frames
    start = min(range(len(frames)), key=lambda k: (abs(frames[k].step - step), k))
    return {"title": title, "menu": menu_label, "start": [sequence, start],
            "sequences": [{"name": s.name, "total": s.total,
                           "frames": [{"step": f.step, "caption": f.caption,
                                       "png": base64.b64encode(f.png).decode("ascii")} for f in s.frames]}
                          for s in sequences]}


def stepper_html(data: dict[str, Any]) -> str:
    """The stepper page fragment from :func:`frames_data`'s JSON: a menu when there are several sequences, the
    buttons, the frames, the script. Deterministic (the same frames give the same text).
    """
    try:
        title, menu_label = str(data["title"]), str(data["menu"])
        first = tuple(int(i) for i in data.get("start", (0, 0)))
        sequences = [Sequence(s["name"], int(s["total"]),
                              [Frame(int(f["step"]), base64.b64decode(f["png"]), f["caption"]) for f in s["frames"]])
                     for s in data["sequences"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a stepper's stored frames ({FRAMES_MIME}): {exc!r}; re-run the stepper's cell") from exc
    if not sequences or not all(s.frames for s in sequences):
        raise ValueError("a stepper page needs at least one sequence, each with at least one frame")
    figures = []
    for s, sequence in enumerate(sequences):
        for k, frame in enumerate(sequence.frames):
            count = _count(k, sequence)
            alt = plain_text(frame.caption)
            data = base64.b64encode(frame.png).decode("ascii")
            hidden = "" if (s, k) == first else " hidden"
            figures.append(
                f'<figure data-seq="{s}" data-say="{html.escape(count + ": " + alt)}"{hidden}>'
                f'<figcaption><span class="tl-count">{html.escape(count)}</span> &middot; {frame.caption}'
                f'</figcaption><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}"></figure>')
    body = "".join(figures)
    uid = "tl-stepper-" + hashlib.sha1(body.encode("utf-8")).hexdigest()[:12]
    menu = ""
    if len(sequences) > 1:
        options = "".join(f'<option value="{i}"{" selected" if i == first[0] else ""}>{html.escape(s.name)}</option>'
                          for i, s in enumerate(sequences))
        menu = f'<label>{html.escape(menu_label)} <select disabled>{options}</select></label>'

    def pressed(act: str) -> str:
        return ' aria-pressed="false"' if act == "play" else ""

    buttons = "".join(f'<button type="button" data-act="{act}"{pressed(act)} disabled>{text}</button>'
                      for act, text in (("first", '<span aria-hidden="true">&laquo;</span> first'),
                                        ("back", '<span aria-hidden="true">&#x25C0;</span> back'),
                                        ("play", '<span aria-hidden="true">&#x25B6;</span> play'),
                                        ("next", 'next <span aria-hidden="true">&#x25B6;</span>'),
                                        ("last", 'last <span aria-hidden="true">&raquo;</span>')))
    return (f'{_STYLE}<div class="tl-stepper" id="{uid}" role="group" aria-label="{html.escape(title)}">'
            f'<div class="tl-controls">{menu}{buttons}</div>{body}'
            f'<p class="tl-live" aria-live="polite"></p></div>'
            f'<script>{_SCRIPT % {"id": uid, "ms": PLAY_MS, "seq": first[0], "at": first[1]}}</script>')
