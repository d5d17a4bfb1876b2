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
