// FilterCast page, what each picture is: in studio mode "Preview" on the large picture and "On
// air" on the program; in the compare view "Before" and "After" on the two sides (the wipe's
// left and right of the divider, side by side's two halves) — in studio mode the program is
// "Before" and the preview "After". Labels over the stage (style.css places them), never drawn
// into the pictures (the tests read those).
import { byId } from "./helpers.js";
import { player } from "./player.js";

const ui = {
  preview: byId("preview-label"), program: byId("program-label"),
  before: byId("before-label"), after: byId("after-label"),
};

/// Shows the labels of what the stage shows now.
export function renderLabels() {
  const studio = player.studio.on, compare = player.compare.on;
  ui.preview.hidden = ui.program.hidden = !studio || compare;
  ui.before.hidden = ui.after.hidden = !compare;
  ui.before.textContent = studio ? "Before · on air" : "Before";
  ui.after.textContent = studio ? "After · preview" : "After";
}

for (const event of ["studio", "compare", "hello", "disconnected"]) player.on(event, renderLabels);
renderLabels();
