/* tilelab: what the course adds to every JupyterLite page (tilelab/teach/lite.py puts it into each page's head). */
(function () {
  "use strict";

  /* 1. Keys typed on a focused board go to the board, as in JupyterLab. JupyterLite starts JupyterLab's keyboard
     shortcuts in the capture phase (JupyterLab itself: bubbling), so a notebook shortcut bound to an arrow key took
     the key before the board saw it. A focused canvas in an output marks itself data-lm-suppress-shortcuts on its
     first key (this capture listener runs before the shortcuts'); Escape still gives the keyboard back. */
  window.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && target.tagName === "CANVAS" && target.closest &&
        target.closest(".tilelab-board, .jp-OutputArea-output") &&
        !target.hasAttribute("data-lm-suppress-shortcuts")) {
      target.setAttribute("data-lm-suppress-shortcuts", "");
    }
  }, true);

  /* 2. While the open notebook's kernel starts (Pyodide and its libraries load in the tab), a line says so: Run All
     pressed meanwhile is not met by silence. It sits in the menu bar's free space, right of the last menu (it
     covers no menu, tab or button, and shortens with an ellipsis where the window is narrow), in JupyterLab's
     own font and no glyph a font might lack, and goes as soon as the kernel is ready. */
  var STARTING = {unknown: 1, starting: 1, initializing: 1, restarting: 1, autorestarting: 1};
  var SAID = "Python is starting in this tab (the first time up to a minute); cells you run now wait for it";
  var line = null;

  function startingLine() {
    var app = window.jupyterapp;
    var widget = app && app.shell && app.shell.currentWidget;
    var session = widget && widget.context && widget.sessionContext;  // a notebook's (a narrow toolbar hides its
    var bar = document.getElementById("jp-top-panel");               // kernel indicator: ask the session itself)
    var on = !!(session && bar && STARTING[session.kernelDisplayStatus]);
    if (line && !on) {
      line.remove();
      line = null;
    }
    if (!on) {
      return;
    }
    if (!line) {
      line = document.createElement("div");
      line.className = "tilelab-kernel-starting";
      line.setAttribute("role", "status");
      line.title = SAID;
      line.textContent = SAID;
      line.style.cssText = "position:fixed;z-index:10000;box-sizing:border-box;overflow:hidden;white-space:nowrap;" +
        "text-overflow:ellipsis;padding:1px 8px;background:#fff8d6;border:1px solid #b8962e;border-radius:4px;" +
        "color:#222;font-family:var(--jp-ui-font-family);font-size:var(--jp-ui-font-size1)";
      document.body.appendChild(line);
    }
    var menus = 0;  // the right edge of the last menu: the line starts after it
    bar.querySelectorAll(".lm-MenuBar-item").forEach(function (item) {
      menus = Math.max(menus, item.getBoundingClientRect().right);
    });
    var box = bar.getBoundingClientRect();
    var left = Math.max(menus, box.left) + 16;
    line.style.left = left + "px";
    line.style.width = Math.max(0, box.right - 12 - left) + "px";
    line.style.top = (box.top + 4) + "px";
    line.style.height = Math.max(0, box.height - 8) + "px";
    line.style.lineHeight = Math.max(0, box.height - 12) + "px";
  }
  setInterval(startingLine, 300);

  /* 3. The address names the open document (?path=...), the way JupyterLite opens one: a reload (or a bookmark)
     reopens the lesson, not the Launcher. JupyterLite drops ?path= once it has opened the file; this puts the
     current document's path back whenever it differs. */
  function keepPath() {
    var app = window.jupyterapp;
    var widget = app && app.shell && app.shell.currentWidget;
    var path = widget && widget.context && widget.context.path;
    if (!path) {
      return;
    }
    var url = new URL(window.location.href);
    if (url.searchParams.get("path") !== path) {
      url.searchParams.set("path", path);
      window.history.replaceState(window.history.state, "", url.toString());
    }
  }
  setInterval(keepPath, 500);

  /* 4. After a reload, a board that was live has no model JupyterLite's widget manager can restore (the saved
     widget state is in the notebook, but this manager never falls back to it), and its output says "Loading
     widget..." for good. Once the kernel has been idle a few seconds with an output still saying so, the output
     shows the board's stored picture (every board output carries one) and how to bring the board back. */
  var LOADING = "Loading widget...";
  var WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
  var stuckSince = new WeakMap();

  function showStoredPicture(node, png) {
    node.textContent = "";
    node.setAttribute("data-tilelab-picture", "");
    var img = document.createElement("img");
    img.src = "data:image/png;base64," + png;
    img.alt = "A saved picture of the board, not connected to Python";
    var note = document.createElement("div");
    note.className = "tilelab-saved-note-lite";
    note.style.cssText = "font-family:var(--jp-ui-font-family);font-size:var(--jp-ui-font-size1);margin:4px 0";
    note.textContent = "This board is a saved picture, not connected to Python: run the lesson's parameters cell " +
      "at the top, then this cell, to play.";
    node.appendChild(img);
    node.appendChild(note);
  }

  function storedPictures() {
    var app = window.jupyterapp;
    var panel = app && app.shell && app.shell.currentWidget;
    var session = panel && panel.sessionContext;
    if (!panel || !panel.content || !panel.content.widgets || !session || session.kernelDisplayStatus !== "idle") {
      return;
    }
    var now = Date.now();
    panel.content.widgets.forEach(function (cell) {
      var area = cell.outputArea;
      if (!area || !cell.model || !cell.model.outputs) {
        return;
      }
      area.widgets.forEach(function (child, k) {
        var output = k < cell.model.outputs.length ? cell.model.outputs.get(k) : null;
        var data = output && output.data;
        var png = data && data[WIDGET_VIEW] && data["image/png"];
        if (!png) {
          return;  // not a board: its text is never read
        }
        var node = child.node.querySelector(".jp-OutputArea-output") || child.node;
        if (node.hasAttribute("data-tilelab-picture") || (node.textContent || "").trim() !== LOADING) {
          stuckSince.delete(node);
          return;
        }
        if (!stuckSince.has(node)) {
          stuckSince.set(node, now);
          return;
        }
        if (now - stuckSince.get(node) >= 3000) {
          showStoredPicture(node, Array.isArray(png) ? png.join("") : String(png));
        }
      });
    });
  }
  setInterval(storedPictures, 1000);
})();
