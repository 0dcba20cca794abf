/* tilelab course website: "Play this board here" starts Python in the page only when the reader asks.
   The button's box carries the lite site's REPL address with the board's code (data-src); a click puts that
   page in an iframe under the button, hides the stored picture above it, and moves the keyboard to the frame. */
(function () {
  function start(box) {
    var button = box.querySelector("button.tl-live-start");
    var frame = document.createElement("iframe");
    frame.className = "tl-live-frame";
    frame.src = box.getAttribute("data-src");
    frame.title = "Live board: Python runs in this page. Click the board, then play with the keys or the mouse.";
    frame.setAttribute("loading", "eager");
    box.appendChild(frame);
    button.disabled = true;
    var say = box.querySelector(".tl-live-say");
    if (say) { say.textContent = "Python is starting in this page (about 20 seconds the first time)..."; }
    var output = box.closest(".output");
    var above = output && output.previousElementSibling;
    while (above && !above.querySelector("img")) { above = above.previousElementSibling; }
    if (above) { above.hidden = true; }
    frame.addEventListener("load", function () {
      if (say) { say.textContent = "Python runs in the frame below: click the board, then play."; }
    });
    frame.focus();
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button.tl-live-start");
    if (button && !button.disabled) { start(button.closest(".tl-live")); }
  });
})();
