// The dice assistant redraws its whole set-up on every change (so a picked
// character fills the fields in); keep the name pickers the player had open.
(function () {
  let open = [];
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target.id !== "dice-attack") return;
    open = Array.from(event.detail.target.querySelectorAll("details[data-picker][open]"), (d) => d.dataset.picker);
  });
  document.addEventListener("htmx:afterSettle", () => {
    const panel = document.getElementById("dice-attack");
    if (!panel) return;
    open.forEach((name) => {
      const picker = panel.querySelector(`details[data-picker="${name}"]`);
      if (picker) picker.open = true;
    });
  });
})();
