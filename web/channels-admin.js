// FilterCast page, the Channels panel's admin actions: a page opened with the admin token
// (`hello.access` "admin") sees the "Add channel" form (#channel-add: a name and an input or URL,
// PUT /api/channels/NAME) and a Delete on every channel but the default one (DELETE
// /api/channels/NAME, asked twice like a recording's: deleting.js). A refusal shows the server's
// own words (the name, the input that cannot be opened, the limit) under the form and as a toast.
import { isAdmin } from "./access.js";
import { change } from "./api.js";
import { confirmingButton } from "./deleting.js";
import { byId } from "./helpers.js";
import { toast } from "./toast.js";

const ui = {
  form: byId("channel-add"),
  name: byId("channel-add-name"),
  input: byId("channel-add-input"),
  submit: byId("channel-add-submit"),
  message: byId("channel-add-message"),
};

/// The endpoint of channel `name` (made relative, for a page served under a prefix).
function endpoint(name) {
  return `api/channels/${encodeURIComponent(name)}`;
}

/// Says `text` under the form; a refusal also as a toast.
function say(text, refused) {
  ui.message.textContent = text;
  ui.message.dataset.refused = String(refused);
  if (refused) toast(text);
}

/// Shows the form to an admin only.
export function showAdmin() {
  ui.form.hidden = !isAdmin();
}

/// Wires the form; `changed()` lists the channels again after an addition.
export function setUpAdmin(changed) {
  ui.form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = ui.name.value.trim(), input = ui.input.value.trim();
    if (!name || !input) return (name ? ui.input : ui.name).focus();
    ui.submit.disabled = true;
    say(`Opening ${input}…`, false);
    try {
      const answer = await change("PUT", endpoint(name), { input });
      if (!answer.ok) return say(answer.text || `The server refused (${answer.status}).`, true);
      say(`Channel ${name} added.`, false);
      ui.name.value = ui.input.value = "";
      changed();
    } catch {
      say("The server could not be reached.", true);
    } finally {
      ui.submit.disabled = false;
    }
  });
}

/// The Delete action of channel `name` for an admin (none for the default channel, which stays);
/// `leaving()` runs first when it is this page's channel, `changed()` after it was removed.
export function deleteAction(name, isDefault, leaving, changed) {
  if (!isAdmin() || isDefault) return null;
  const button = confirmingButton(`channel ${name}`, async () => {
    leaving();
    try {
      const answer = await change("DELETE", endpoint(name));
      if (!answer.ok) say(answer.text || `The server refused (${answer.status}).`, true);
      else changed();
    } catch {
      say("The server could not be reached.", true);
    } finally {
      button.disabled = false;
    }
  });
  button.classList.add("channel-delete");
  button.title = `Remove channel ${name}: its viewers are closed, its recordings kept`;
  return button;
}
