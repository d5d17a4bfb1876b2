// The crew editor's keyboard pickers, its one-open-character accordion and drag reordering.
// Everything here is an extra: without JavaScript the same forms post and the pages still work.
(function () {
  "use strict";

  // --- pickers: type to filter, arrow keys, Enter, Escape -----------------------------------

  function visibleButtons(picker) {
    return Array.from(picker.querySelectorAll("[data-picker-add]")).filter(function (button) {
      return !button.closest("li").hidden;
    });
  }

  function filter(input) {
    const picker = input.closest("[data-picker]");
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    picker.querySelectorAll("[data-picker-group]").forEach(function (group) {
      let inGroup = 0;
      group.querySelectorAll("li[data-name]").forEach(function (option) {
        const match = words.every(function (word) { return option.dataset.name.indexOf(word) !== -1; });
        option.hidden = !match;
        if (match) inGroup += 1;
      });
      group.hidden = inGroup === 0;
      shown += inGroup;
    });
    const none = picker.querySelector("[data-picker-none]");
    if (none) none.hidden = shown > 0;
    const count = picker.querySelector("[data-picker-count]");  // read out by screen readers
    if (count) count.textContent = words.length ? shown + (shown === 1 ? " match" : " matches") : "";
  }

  function opener(picker) {
    const slot = picker.closest(".picker-slot");
    return slot ? document.getElementById(slot.id.replace(/^picker-/, "add-")) : null;
  }

  function close(picker) {
    const slot = picker.closest(".picker-slot");
    if (!slot) return false;
    const back = opener(picker);
    slot.innerHTML = "";
    if (back) back.focus();
    return true;
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches("[data-picker-filter]")) filter(event.target);
  });

  document.addEventListener("keydown", function (event) {
    const picker = event.target.closest && event.target.closest("[data-picker]");
    if (!picker) return;
    const input = picker.querySelector("[data-picker-filter]");
    const buttons = visibleButtons(picker);
    const at = buttons.indexOf(event.target);
    if (event.key === "ArrowDown") {
      event.preventDefault();
      const next = event.target === input ? buttons[0] : buttons[Math.min(at + 1, buttons.length - 1)];
      if (next) next.focus();
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      if (at > 0) buttons[at - 1].focus();
      else if (input) input.focus();
    } else if (event.key === "Enter" && event.target === input) {
      // Enter in the box goes to the first match; a second Enter adds it (no accidental purchase).
      event.preventDefault();
      filter(input);
      if (buttons.length) visibleButtons(picker)[0].focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (!close(picker) && input) {
        input.value = "";
        filter(input);
        input.focus();
      }
    }
  });

  // With JavaScript the list filters as one types: the GET button is only for pages without it.
  function enhance(root) {
    root.querySelectorAll("[data-filter-submit]").forEach(function (button) { button.hidden = true; });
    root.querySelectorAll("[data-picker-filter]").forEach(function (input) { if (input.value) filter(input); });
  }
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });

  // A freshly loaded picker puts the keyboard in its filter box. After settling: app.js gives focus
  // back to the element that had it before a swap (here the opener) when htmx settles.
  let focusFilter = null;
  document.addEventListener("htmx:afterSwap", function (event) {
    const target = event.detail.target;
    if (!target || !target.classList || !target.classList.contains("picker-slot")) return;
    enhance(target);
    focusFilter = target.querySelector("[data-picker-filter]");
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (focusFilter && document.contains(focusFilter)) focusFilter.focus();
    focusFilter = null;
  });

  // A change refused because the crew changed elsewhere: its notice is drawn in the pinned summary bar, in view
  // wherever the player tapped. The keyboard goes to its Reload link (every further change would be refused too),
  // without scrolling, and not back to a picker's opener below (see returnTo).
  let returnTo = null;
  document.addEventListener("htmx:afterSettle", function (event) {
    const target = event.detail.target;
    if (!target || target.id !== "conflict") return;
    returnTo = null;
    const reload = target.querySelector("a[href]");
    if (reload) reload.focus({ preventScroll: true });
  });

  // After adding from a picker, focus goes back to the button that opened it.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const picker = event.detail.elt.closest && event.detail.elt.closest("[data-picker]");
    const back = picker && opener(picker);
    returnTo = back ? back.id : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!returnTo) return;
    const back = document.getElementById(returnTo);
    returnTo = null;
    if (back) back.focus({ preventScroll: false });
  });

  // --- one character open at a time: remember which, so a redraw keeps it open --------------------

  // htmx puts the new card in before it takes the old one out; two open cards sharing a name would
  // close the new one (exclusive details). The old ones leave the group first.
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    if (!target || !target.querySelectorAll) return;
    target.querySelectorAll("details.character-fold[name]").forEach(function (fold) { fold.removeAttribute("name"); });
  });

  document.addEventListener("toggle", function (event) {
    const fold = event.target;
    if (!fold.classList || !fold.classList.contains("character-fold")) return;
    const field = document.getElementById("open-character");
    if (!field) return;
    const card = fold.closest("[data-character]");
    if (fold.open) field.value = card.dataset.character;
    else if (field.value === card.dataset.character) field.value = "";
  }, true);

  // A link to something inside a folded character (the summary's error count) unfolds it first.
  document.addEventListener("click", function (event) {
    const link = event.target.closest && event.target.closest('a[href^="#"]');
    if (!link || link.getAttribute("href").length < 2) return;
    const target = document.getElementById(link.getAttribute("href").slice(1));
    const fold = target && target.closest("details.character-fold");
    if (fold && !fold.open) fold.open = true;
  });

  // --- drag a character's handle to reorder (the ↑ ↓ buttons do the same without a pointer) --------

  let drag = null;
  let justDragged = false;
  document.addEventListener("click", function (event) {
    if (justDragged) { event.preventDefault(); event.stopPropagation(); }
  }, true);

  function cards() {
    return Array.from(document.querySelectorAll("#characters > li[data-character]"));
  }
  function placeFor(dragged, y) {
    // The place among the other characters: before the first whose middle is below the pointer.
    const others = cards().filter(function (card) { return card !== dragged; });
    let place = others.length;
    for (let i = 0; i < others.length; i += 1) {
      const box = others[i].getBoundingClientRect();
      if (y < box.top + box.height / 2) { place = i; break; }
    }
    return { place: place, others: others };
  }
  function mark(found) {
    cards().forEach(function (card) { card.classList.remove("drop-before", "drop-after"); });
    if (!found.others.length) return;
    if (found.place < found.others.length) found.others[found.place].classList.add("drop-before");
    else found.others[found.others.length - 1].classList.add("drop-after");
  }

  document.addEventListener("pointerdown", function (event) {
    const handle = event.target.closest && event.target.closest(".drag-handle");
    if (!handle || event.button !== 0) return;
    const card = handle.closest("li[data-character]");
    drag = { card: card, handle: handle, startY: event.clientY, moved: false, pointer: event.pointerId };
    handle.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.moved && Math.abs(event.clientY - drag.startY) < 6) return;
    drag.moved = true;
    drag.card.classList.add("dragging");
    mark(placeFor(drag.card, event.clientY));
  });
  function finish(event, cancelled) {
    if (!drag || event.pointerId !== drag.pointer) return;
    const done = drag;
    drag = null;
    cards().forEach(function (card) { card.classList.remove("drop-before", "drop-after", "dragging"); });
    if (cancelled || !done.moved) return;
    // The click that ends a drag must not also open or close the card.
    justDragged = true;
    setTimeout(function () { justDragged = false; }, 0);
    const found = placeFor(done.card, event.clientY);
    if (found.place === Number(done.card.dataset.index)) return;
    const list = document.getElementById("characters");
    const editor = document.getElementById("editor");
    window.htmx.ajax("POST", list.dataset.placeUrl, {
      source: editor,
      target: "#editor",
      swap: "outerHTML",
      values: {
        character: done.card.dataset.character,
        place: String(found.place),
        current_version: document.getElementById("crew-version").value,
        open: document.getElementById("open-character").value,
      },
    });
  }
  document.addEventListener("pointerup", function (event) { finish(event, false); });
  document.addEventListener("pointercancel", function (event) { finish(event, true); });
})();
