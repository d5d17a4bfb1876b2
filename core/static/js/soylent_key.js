// Soylent Ghoul game: "Hold to see my key". The key is not in the page: pressing the button fetches it
// from the server (which answers only its owner) and letting go removes it again, so it is on screen
// only while the owner holds it, with a mouse, a finger or the keyboard (Space or Enter).
(function () {
  "use strict";

  var held = null;        // the button being held
  var generation = 0;     // answers to an older press are dropped
  var controller = null;  // aborts the fetch of a press let go too soon

  function holdButton(target) {
    return target && target.closest ? target.closest("[data-key-url]") : null;
  }

  function panelOf(button) {
    return document.getElementById(button.getAttribute("aria-controls"));
  }

  function hide() {
    generation += 1;
    if (controller) {
      controller.abort();
      controller = null;
    }
    document.querySelectorAll("[data-key-url]").forEach(function (button) {
      button.setAttribute("aria-pressed", "false");
      var panel = panelOf(button);
      if (panel) {
        panel.replaceChildren();
        panel.hidden = true;
      }
    });
    held = null;
  }

  function show(button) {
    hide();
    held = button;
    var mine = generation;
    button.setAttribute("aria-pressed", "true");
    controller = new AbortController();
    fetch(button.dataset.keyUrl, {
      headers: { "HX-Request": "true" },
      credentials: "same-origin",
      cache: "no-store",
      signal: controller.signal,
    })
      .then(function (response) {
        return response.ok ? response.text() : Promise.reject(new Error(String(response.status)));
      })
      .then(function (html) {
        if (mine !== generation || held !== button) return; // let go meanwhile
        var panel = panelOf(button);
        if (!panel) return;
        panel.innerHTML = html;
        panel.hidden = false;
      })
      .catch(function () {});
  }

  document.addEventListener("pointerdown", function (event) {
    var button = holdButton(event.target);
    if (!button || event.button > 0) return;
    event.preventDefault();
    if (button.setPointerCapture) {
      try { button.setPointerCapture(event.pointerId); } catch (e) { /* not capturable: still held */ }
    }
    show(button);
  });
  ["pointerup", "pointercancel", "lostpointercapture"].forEach(function (type) {
    document.addEventListener(type, function () {
      if (held) hide();
    });
  });
  // a long press must not open the link's menu, and a click must not follow the link (it is the no-JS page)
  document.addEventListener("contextmenu", function (event) {
    if (holdButton(event.target)) event.preventDefault();
  });
  document.addEventListener("click", function (event) {
    if (holdButton(event.target)) event.preventDefault();
  });
  document.addEventListener("keydown", function (event) {
    var button = holdButton(event.target);
    if (!button || (event.key !== " " && event.key !== "Enter")) return;
    event.preventDefault();
    if (!event.repeat) show(button);
  });
  document.addEventListener("keyup", function (event) {
    if (held && (event.key === " " || event.key === "Enter")) hide();
  });
  window.addEventListener("blur", hide);
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) hide();
  });
  // a redraw of the board replaces the button: the key goes with it
  document.addEventListener("htmx:afterSwap", function () {
    if (held && !document.body.contains(held)) hide();
  });
})();
