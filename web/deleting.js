// FilterCast page: deleting something (a recording, an upload, a channel) asks first. The first
// click arms the button ("Delete? Click again", data-action="confirm-delete"); a second click
// within 4 s deletes; the time running out or Escape disarms it — a stray click deletes nothing.
// (Not a blur: a pointer's click leaves no focus behind, keyboard.js.)
import { guard } from "./access.js";
import { send } from "./connection.js";

const ARMED_MS = 4000;

/// A Delete button for `name` that asks first: the second click disables it and calls
/// `confirmed(button)`, which enables it again if the deletion failed.
export function confirmingButton(name, confirmed) {
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
    confirmed(button);
  });
  return button;
}

/// A Delete button for the file `open` names `reference` (shown as `name`); `deleted(ok)` is
/// called with the server's answer.
export function deleteButton(name, reference, deleted) {
  const button = confirmingButton(name, () => {
    const sent = send({ type: "delete", source: reference }, (ok) => {
      if (!ok) guard(button, `Delete ${name}`);
      deleted(ok);
    });
    if (!sent) guard(button, `Delete ${name}`);
  });
  guard(button, `Delete ${name}`);
  return button;
}
