// FilterCast page, access: asks for the token when the server needs one (`hello.access`, see
// docs/PROTOCOL.md) and sends it with the `auth` message. A token typed here is kept for the
// tab (sessionStorage) and used again after a reconnect or a reload; it is never written into a
// URL (the HTTP API gets it as `Authorization: Bearer`). A `?token=` on the page URL still works
// as before (connection.js and library.js pass it on).
import { send } from "./connection.js";
import { byId, store, stored } from "./helpers.js";
import { player } from "./player.js";

const STORAGE_KEY = "filtercast.token";
const WAITING_TEXT = "Waiting for the first frame…";
const LOCKED_TEXT = "Token needed: enter it above to watch.";
const MESSAGES = {
  none: "This server needs a token to watch. Enter it to see the video.",
  watch: "You are watching only: enter the token to control the session.",
  refused: "Wrong token — try again.",
  savedRefused: "The saved token was refused: enter the current one.",
  unauthorized: "This needs the token: enter it to control the session.",
};
const ui = {
  form: byId("token-form"),
  message: byId("token-message"),
  input: byId("token-input"),
  submit: byId("token-submit"),
  placeholder: byId("placeholder"),
  controlHint: byId("control-hint"),
  filterPanel: byId("filter-panel"),
};
/// The transport's controls that change the session, with their own titles.
const SESSION_CONTROLS = ["play-pause", "seek"].map((id) => [byId(id), byId(id).title]);
const ACCESS_LEVELS = ["admin", "control", "watch", "none"];
const access = player.access;

/// The token this tab gave (kept for the tab: where storage is refused, for this connection only).
export function savedToken() {
  return stored(STORAGE_KEY);
}

function saveToken(token) {
  store(STORAGE_KEY, token);
}

/// Headers for fetch() of the HTTP API: the tab's token as a Bearer credential, if any.
export function authorizationHeaders() {
  const token = savedToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/// Whether nothing but `auth` may be asked of the server now (no token given, none saved).
export function needsToken() {
  return access.level === "none" && !savedToken();
}

/// Whether this page may change the session now (`hello.access` "control" or "admin", or the
/// token given): an admin controls as a controller does.
export function mayControl() {
  return access.level === "control" || access.level === "admin";
}

/// Whether this page may add and remove channels (`hello.access` "admin": opened with the admin token).
export function isAdmin() {
  return access.level === "admin";
}

const WATCH_ONLY_TITLE = "You are watching only: ask for the token to control";

/// A control that changes the session (play a file, delete one, switch the source): enabled with
/// `title` when this page may control, else disabled with a title saying why.
export function guard(control, title) {
  control.disabled = !mayControl();
  control.title = mayControl() ? title : WATCH_ONLY_TITLE;
}

/// Emits "access" when what this page may do changed.
function setAccess(level) {
  const changed = level !== access.level;
  access.level = level;
  renderControls();
  if (changed) player.emit("access", access.level);
}

/// A page that may not control sees the controls that change the session disabled (the filter
/// panel inert) and, watching, the hint to ask for the token — not buttons that answer "Not
/// authorized".
function renderControls() {
  for (const [control, title] of SESSION_CONTROLS) guard(control, title);
  ui.filterPanel.inert = !mayControl();
  ui.controlHint.hidden = access.level !== "watch";
}

function showForm(message) {
  ui.message.textContent = message;
  ui.form.dataset.access = access.level;
  const wasHidden = ui.form.hidden;
  ui.form.hidden = false;
  ui.submit.disabled = false;
  if (access.level === "none") ui.placeholder.textContent = LOCKED_TEXT;
  // The field takes the focus where a token is all there is to do (locked out, a control refused,
  // a token refused) — not from a watcher, whose keys (`m`, `f`) would type into it.
  const wanted = access.level === "none" || message === MESSAGES.unauthorized;
  if ((wasHidden && wanted) || message === MESSAGES.refused) {
    ui.input.focus();
    ui.input.select();
  }
}

function hideForm() {
  ui.form.hidden = true;
  ui.input.value = "";
  ui.placeholder.textContent = WAITING_TEXT;
}

/// Sends `auth`; `refusedMessage` is shown when the server says no.
function authenticate(token, refusedMessage) {
  access.authPending = true;
  ui.submit.disabled = true;
  const sent = send({ type: "auth", token }, (ok, answer) => {
    access.authPending = false;
    if (!ok) {
      if (token === savedToken()) saveToken("");
      showForm(refusedMessage);
      return;
    }
    saveToken(token);
    // The ack says what the token grants (servers before that: control); never less than it had.
    setAccess(answer?.access === "admin" || isAdmin() ? "admin" : "control");
    hideForm();
    player.emit("authorized");
  });
  if (!sent) {
    access.authPending = false;
    ui.submit.disabled = false;
  }
}

// Servers before `access` allowed everything or said so with `unauthorized` errors.
player.on("hello", (hello) => {
  setAccess(ACCESS_LEVELS.includes(hello.access) ? hello.access : "control");
  if (mayControl()) {
    hideForm();
    return;
  }
  const token = savedToken();
  if (token) authenticate(token, MESSAGES.savedRefused);
  else showForm(MESSAGES[access.level] || MESSAGES.none);
});

player.on("error", (error) => {
  if (error.code !== "unauthorized" || access.authPending) return;
  if (mayControl()) setAccess("watch"); // the server thinks otherwise
  showForm(access.level === "none" ? MESSAGES.none : MESSAGES.unauthorized);
});

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const token = ui.input.value.trim();
  if (!token) {
    ui.input.focus();
    return;
  }
  authenticate(token, MESSAGES.refused);
});
