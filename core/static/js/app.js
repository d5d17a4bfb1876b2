// Small behaviours that htmx does not cover. No inline scripts: the CSP forbids them.
(function () {
  "use strict";
  // After an htmx swap, keep keyboard users where they were: if the focused
  // element was replaced, focus its replacement (same id), else the swapped region.
  let lastFocusedId = null;
  document.addEventListener("htmx:beforeSwap", function () {
    const el = document.activeElement;
    lastFocusedId = el && el.id ? el.id : null;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!lastFocusedId) return;
    const again = document.getElementById(lastFocusedId);
    if (again && document.activeElement !== again) again.focus({ preventScroll: true });
  });
  // Buttons carrying data-confirm ask before submitting their form when JS is on.
  document.addEventListener("submit", function (event) {
    const submitter = event.submitter;
    const message = (submitter && submitter.dataset.confirm) || event.target.dataset.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
  });
})();
(function () {
  "use strict";
  // A picker's Close button empties its slot and returns focus to its Add button.
  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-close-picker]");
    if (!button) return;
    const slot = button.closest(".picker-slot");
    if (!slot) return;
    const opener = document.getElementById(slot.id.replace(/^picker-/, "add-"));
    slot.innerHTML = "";
    if (opener) opener.focus();
  });
  // A freshly loaded picker takes focus so keyboard users land in the list.
  document.addEventListener("htmx:afterSwap", function (event) {
    const target = event.detail.target;
    if (target && target.classList && target.classList.contains("picker-slot")) {
      const first = target.querySelector("button");
      if (first) first.focus();
    }
  });
})();
(function () {
  "use strict";
  // htmx requests that fail, and the polls of shared boards (hx-trigger "every ...").
  //
  // A request that fails says so: a click that silently does nothing would lose a player's move.
  // A failed poll stays quiet (the next one retries) until three in a row have failed.
  const POLL = /\bevery\b/;
  let failedPolls = 0;
  let shownForPolls = false;

  function isPoll(elt) {
    return Boolean(elt && elt.getAttribute && POLL.test(elt.getAttribute("hx-trigger") || ""));
  }
  function box() {
    return document.getElementById("request-problem");
  }
  function show(text, forPolls) {
    const slot = box();
    if (!slot) return;
    const message = document.createElement("p");
    message.className = "message message-error";
    message.setAttribute("role", "alert"); // announced as it is added
    message.append(text + " ");
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "link-button";
    dismiss.dataset.dismissProblem = "";
    dismiss.textContent = "Dismiss";
    message.append(dismiss);
    slot.replaceChildren(message);
    shownForPolls = forPolls;
  }
  function clear() {
    const slot = box();
    if (slot) slot.replaceChildren();
    shownForPolls = false;
  }
  function describe(event) {
    if (event.type === "htmx:timeout") {
      return "The server took too long to answer. Reload the page to see whether your last change was saved.";
    }
    if (event.type === "htmx:sendError") {
      return "The server could not be reached. Check your connection, then try again.";
    }
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 403) return "This page is out of date or your session has ended. Reload the page (and log in again if asked).";
    if (status === 404) return "That is no longer there. Reload the page.";
    if (status >= 500) return "Something went wrong on the server, and your last change was not saved. Reload the page and try again.";
    return "The server refused that (error " + status + "). Reload the page and try again.";
  }
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (isPoll(event.detail.elt)) {
        failedPolls += 1;
        if (failedPolls >= 3) show("Lost contact with the server: this page may be out of date. It keeps trying.", true);
        return;
      }
      show(describe(event), false);
    });
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) return;
    if (isPoll(event.detail.elt)) {
      failedPolls = 0;
      if (shownForPolls) clear();
    } else {
      clear();
    }
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-dismiss-problem]")) clear();
  });

  // A poll that redraws a shared board keeps what the player was choosing on it (ticked cards,
  // a chosen menu entry, a typed Square, an opened hand of cards): another player's move must not
  // wipe a half-made one. Choices whose control is gone from the new board (a card no longer in
  // hand) are dropped.
  let kept = null;
  let folds = null;

  // Each <details> by its id, else by its classes and its rank among those alike: the same
  // drawer on the old and the new board.
  function drawers(root) {
    const seen = {};
    return Array.from(root.querySelectorAll("details")).map(function (drawer) {
      let key = drawer.id;
      if (!key) {
        const base = "details." + drawer.className;
        seen[base] = (seen[base] || 0) + 1;
        key = base + "#" + seen[base];
      }
      return [key, drawer];
    });
  }

  function controls(root) {
    const seen = {};
    const found = [];
    root.querySelectorAll("input, select, textarea").forEach(function (control) {
      if (control.type === "hidden" || control.type === "submit") return;
      let key = control.id;
      if (!key && control.name && (control.type === "checkbox" || control.type === "radio")) {
        const base = control.name + "=" + control.value;
        seen[base] = (seen[base] || 0) + 1;
        key = base + "#" + seen[base];
      }
      if (key) found.push([key, control]);
    });
    return found;
  }
  function changed(control) {
    if (control.type === "checkbox" || control.type === "radio") return control.checked !== control.defaultChecked;
    if (control.tagName === "SELECT") {
      return Array.from(control.options).some(function (option) { return option.selected !== option.defaultSelected; });
    }
    return control.value !== control.defaultValue;
  }
  // A poll's answer, not a move's: a move's answer swaps the same board (its detail.elt), and a
  // move made (an "in melee" tick, a card played) must clear what the player chose for it.
  function pollSwap(detail) {
    const config = detail.requestConfig;
    return Boolean(config && config.verb === "get" && isPoll(config.elt || detail.elt));
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    const elt = event.detail.elt;
    kept = null;
    folds = null;
    // a 204 (nothing changed) swaps nothing: what it would keep must not reach the next swap
    if (!pollSwap(event.detail) || !event.detail.shouldSwap) return;
    folds = drawers(elt).map(function (pair) { return [pair[0], pair[1].open]; });
    kept = controls(elt).filter(function (pair) { return changed(pair[1]); }).map(function (pair) {
      const control = pair[1];
      return [pair[0], control.type === "checkbox" || control.type === "radio" ? control.checked : control.value];
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!pollSwap(event.detail)) return;
    const root = document.getElementById(event.detail.target.id) || document;
    if (folds) {
      const open = new Map(folds);
      drawers(root).forEach(function (pair) {
        if (open.has(pair[0])) pair[1].open = open.get(pair[0]);
      });
      folds = null;
    }
    if (!kept || !kept.length) return;
    const now = new Map(controls(root));
    kept.forEach(function (pair) {
      const control = now.get(pair[0]);
      if (!control || control.disabled) return;
      if (control.type === "checkbox" || control.type === "radio") {
        control.checked = pair[1];
      } else if (control.tagName !== "SELECT" || Array.from(control.options).some(function (o) { return o.value === pair[1]; })) {
        control.value = pair[1];
      }
    });
    kept = null;
  });

  // A refused move says why where the player is looking: the error is drawn at the top of the
  // swapped region (a battle's board), on a phone often a screen or two above the form that was sent.
  document.addEventListener("htmx:afterSwap", function (event) {
    // detail.elt is the new content here (a board is itself a poll): ask the element that sent the request
    const config = event.detail.requestConfig;
    if (!config || isPoll(config.elt)) return;
    const target = event.detail.target;
    const root = target.isConnected ? target : target.id && document.getElementById(target.id);
    const error = root && root.querySelector('.message-error[role="alert"]');
    if (!error) return;
    const box = error.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) error.scrollIntoView({ block: "center" });
  });
})();
