// FilterCast page, the toast: one short message at a time — the server's errors and the page's own.
import { byId } from "./helpers.js";
import { player } from "./player.js";

const TOAST_MS = 4000;
const element = byId("toast");

/// Shows `text` for a few seconds, or `ms` (a click hides it sooner).
export function toast(text, ms = TOAST_MS) {
  element.textContent = text;
  element.hidden = false;
  clearTimeout(player.toastTimer);
  player.toastTimer = setTimeout(() => { element.hidden = true; }, ms);
}

element.addEventListener("click", () => { element.hidden = true; });

player.on("hello", (hello) => {
  player.errorNames = hello.errors && typeof hello.errors === "object" ? hello.errors : {};
});

// "Out of range: …"
player.on("error", (error) => {
  const name = (typeof player.errorNames[error.code] === "string" && player.errorNames[error.code]) || error.code || "Error";
  toast(error.message ? `${name}: ${error.message}` : name);
});
