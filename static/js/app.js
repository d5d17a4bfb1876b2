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
