"""What every page with a board gets once: the CSS of its focus ring and hidden announcer, and the script that
lets the page scroll over a board, gives Tab and Escape back to the page and names the board for screen readers.
"""

from __future__ import annotations

import ipywidgets as widgets

__all__ = ["BOARD_SCRIPT", "BOARD_STYLE", "FOCUS_RING", "SAVED_NOTE", "page_helper"]

#: A clear focus ring on a board that has the keyboard (the browser's own is a faint 1 px line).
FOCUS_RING = "3px solid #1f70a8"
BOARD_STYLE = (
    "<style>.tilelab-board canvas:focus, .tilelab-board canvas:focus-visible"
    f"{{outline:{FOCUS_RING} !important;outline-offset:-3px}}"
    ".tilelab-saved-note{display:none;font-family:sans-serif;font-size:14px;margin:4px 0}"
    ".jupyter-widgets-disconnected .tilelab-saved-note{display:block}"
    # the move description: read by screen readers, not shown (the canvas shows it)
    ".tilelab-announce{position:absolute !important;width:1px !important;height:1px !important;overflow:hidden"
    " !important;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;margin:-1px;padding:0;border:0}"
    "</style>"
)
#: Shown under a board only when it is not connected to a kernel: JupyterLab drew it from the widget state saved
#: with the notebook (a reopened lesson), or the kernel stopped. ipywidgets marks such a view
#: ``jupyter-widgets-disconnected``; a live board never shows the line.
SAVED_NOTE = ('<div class="tilelab-saved-note">&#9654; This board is a saved picture, not connected to Python: '
              "run this cell to play (after a restart of Python, run the lesson's parameters cell at the top first)."
              "</div>")
#: Run once per page by the first board shown. ipycanvas cancels every wheel event over its canvas
#: (the notebook would stop scrolling under the pointer) and keeps every key, Escape included: a
#: capturing listener lets the wheel scroll the page over a board, and turns Escape on a board into
#: "focus the cell" (command mode, where Enter edits the cell again). Without JavaScript (a viewer
#: that does not run it) the kernel still answers Escape by parking the keyboard (release_keyboard).
#: On a board marked ``tilelab-focus-first`` (the sliding puzzle, where a click on a tile slides it) the click
#: that gives the board the keyboard only does that: the canvas never sees it, so it slides no tile.
BOARD_SCRIPT = """
(function () {
  if (window.__tilelabBoards) { return; }
  window.__tilelabBoards = true;
  var onBoard = function (e) {
    var t = e.target;
    return t && t.closest ? t.closest('.tilelab-board') : null;
  };
  window.addEventListener('wheel', function (e) {
    if (onBoard(e)) { e.stopPropagation(); }
  }, {capture: true, passive: true});
  window.addEventListener('keydown', function (e) {
    var board = e.key === 'Escape' && !e.ctrlKey && !e.metaKey ? onBoard(e) : null;
    if (!board) { return; }
    var cell = board.closest('.jp-Cell, .cell');
    if (!cell) { return; }
    e.stopPropagation();
    e.preventDefault();
    if (!cell.hasAttribute('tabindex')) { cell.setAttribute('tabindex', '-1'); }
    cell.focus();
  }, {capture: true});
  // Tab and Shift+Tab leave a board: ipycanvas keeps every key on its canvas, so the key is stopped here, before
  // the canvas sees it, and the browser moves the focus on as on any other element.
  window.addEventListener('keydown', function (e) {
    if (e.key !== 'Tab' || e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target;
    if (t && t.tagName === 'CANVAS' && onBoard(e)) { e.stopPropagation(); }
  }, {capture: true});
  // What a screen reader needs from a board: its move description (.tilelab-announce) a polite live region that
  // stays in the page while its text changes, one focusable canvas (the top layer, which gets the keys) named as
  // an application (keys go to the board) and described by the announcement.
  var boardIds = 0;
  var ready = function (board) {
    if (!board || board.__tilelabReady) { return; }
    var say = board.querySelector('.tilelab-announce');
    var canvases = board.querySelectorAll('canvas');
    if (!say || !canvases.length) { return; }
    board.__tilelabReady = true;
    say.setAttribute('role', 'status');
    say.setAttribute('aria-live', 'polite');
    say.setAttribute('aria-atomic', 'true');
    if (!say.id) { say.id = 'tilelab-announce-' + (++boardIds); }
    var top = canvases[canvases.length - 1];
    for (var i = 0; i < canvases.length - 1; i++) { canvases[i].setAttribute('tabindex', '-1'); }
    top.setAttribute('role', 'application');
    top.setAttribute('aria-roledescription', 'game board');
    top.setAttribute('aria-label', 'game board: play with the keys; Tab moves on, Escape goes back to the notebook');
    top.setAttribute('aria-describedby', say.id);
  };
  ['focusin', 'pointerdown', 'keydown'].forEach(function (name) {
    window.addEventListener(name, function (e) { ready(onBoard(e)); }, {capture: true});
  });
  var readyAll = function () { document.querySelectorAll('.tilelab-board').forEach(ready); };
  readyAll();
  if (window.MutationObserver) {
    var pending = false;
    new MutationObserver(function () {
      if (pending) { return; }
      pending = true;
      setTimeout(function () { pending = false; readyAll(); }, 300);
    }).observe(document.body, {childList: true, subtree: true});
  }
  window.addEventListener('mousedown', function (e) {
    var board = onBoard(e);
    if (!board || !board.classList.contains('tilelab-focus-first') || e.target.tagName !== 'CANVAS') { return; }
    var active = document.activeElement;
    if (active && active.tagName === 'CANVAS' && board.contains(active)) { return; }
    e.stopPropagation();
    e.preventDefault();
    (board.querySelector('canvas[tabindex]') || e.target).focus();
  }, {capture: true});
})();
"""


def page_helper() -> widgets.Widget:
    """An invisible widget carrying :data:`BOARD_STYLE` and :data:`BOARD_SCRIPT` to the page."""
    style = widgets.HTML(value=BOARD_STYLE, layout=widgets.Layout(height="0px", margin="0", overflow="hidden"))
    script = widgets.Output(layout=widgets.Layout(height="0px", margin="0", overflow="hidden"))
    script.outputs = ({"output_type": "display_data", "metadata": {},
                       "data": {"application/javascript": BOARD_SCRIPT, "text/plain": ""}},)
    return widgets.Box([style, script], layout=widgets.Layout(height="0px", margin="0", overflow="hidden"))
