// FilterCast page: deleting a file (a recording, an upload, a saved look) asks first. The first click arms the
// button ("Delete? Click again", data-action="confirm-delete"); a second click within 4 s deletes;
// the time running out or Escape disarms it — a stray click deletes nothing. (Not a blur: a pointer's
// click leaves no focus behind, keyboard.js.)
import { guard } from "./access.js";
import { send } from "./connection.js";

const ARMED_MS = 4000;

/// A Delete button for the file `open` names `reference` (shown as `name`); `deleted(ok)` is
/// called with the server's answer. `message`: what deletes it (default `delete {source}`).
export function deleteButton(name, reference, deleted, message = { type: "delete", source: reference }) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "text-button danger";
  let timer = 0;
  const disarm = () => {
    clearTimeout(timer);
    timer = 0;
    button.dataset.action = "delete";
    button.textContent = "Delete";
    button.setAttribute("aria-label", `Delete ${name}`);
  };
  disarm();
  guard(button, `Delete ${name}`);
  button.addEventListener("keydown", (event) => { if (event.key === "Escape") disarm(); });
  button.addEventListener("click", () => {
    if (!timer) {
      button.dataset.action = "confirm-delete";
      button.textContent = "Delete? Click again";
      button.setAttribute("aria-label", `Confirm: delete ${name}`);
      timer = setTimeout(disarm, ARMED_MS);
      return;
    }
    disarm();
    button.disabled = true;
    const sent = send({ ...message }, (ok) => {
      if (!ok) guard(button, `Delete ${name}`);
      deleted(ok);
    });
    if (!sent) guard(button, `Delete ${name}`);
  });
  return button;
}
