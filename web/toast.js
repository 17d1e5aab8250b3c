// FilterCast page, the toast: one short message at a time — the server's errors and the page's own.
import { byId } from "./helpers.js";
import { on } from "./session.js";

const TOAST_MS = 4000;
const element = byId("toast");
let hideTimer = 0;
/** hello.errors: a name per error code; servers before it send none (the code is shown). */
let errorNames = {};

/// Shows `text` for a few seconds (a click hides it sooner).
export function toast(text) {
  element.textContent = text;
  element.hidden = false;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => { element.hidden = true; }, TOAST_MS);
}

element.addEventListener("click", () => { element.hidden = true; });

on("hello", (hello) => {
  errorNames = hello.errors && typeof hello.errors === "object" ? hello.errors : {};
});

// "Out of range: …"
on("error", (error) => {
  const name = (typeof errorNames[error.code] === "string" && errorNames[error.code]) || error.code || "Error";
  toast(error.message ? `${name}: ${error.message}` : name);
});
