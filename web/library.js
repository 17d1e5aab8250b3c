// FilterCast page, the library: the Recordings panel (play, download, delete, and "Back to the
// input" while something else plays), listed again when a recording starts or ends.
import { authorizationHeaders, needsToken } from "./access.js";
import { send } from "./connection.js";
import { formatTime } from "./format.js";
import { on } from "./session.js";
import { toast } from "./toast.js";

const $ = (id) => document.getElementById(id);
const ui = {
  refresh: $("library-refresh"),
  input: $("library-input"),
  empty: $("library-empty"),
  list: $("recordings"),
};
let recordingActive = false; // state.recording.active, as last broadcast
let currentSource = "";
let loading = false;
let reloadWanted = false;

/// The page's ?token=, passed on to the HTTP API (servers run with --token).
function withToken(path) {
  const token = new URLSearchParams(location.search).get("token");
  return token ? `${path}?token=${encodeURIComponent(token)}` : path;
}

/// The token typed into the page (access.js), as fetch() headers; {} when there is none or the
/// page URL carries ?token= (which withToken passes on).
function tabAuthorization() {
  if (new URLSearchParams(location.search).has("token")) return {};
  return authorizationHeaders();
}

/// A download link cannot send a header, and a typed token never goes into a URL: with one,
/// the file is fetched with the token and handed to the browser as a blob.
async function downloadWithTabToken(event, link) {
  const headers = tabAuthorization();
  if (!headers.Authorization) return; // the link works as it is
  event.preventDefault();
  try {
    const response = await fetch(link.href, { cache: "no-store", headers });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const url = URL.createObjectURL(await response.blob());
    const save = document.createElement("a");
    save.href = url;
    save.download = link.download;
    save.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    toast(`Cannot download ${link.download} (${error.message || error})`);
  }
}

// ---- Library -----------------------------------------------------------------------------

function formatSize(bytes) {
  if (!Number.isFinite(bytes)) return "–";
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

function formatCreated(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString();
}

/// A button of a list item: `[data-action=action]`, labelled "Text NAME" for screen readers.
function actionButton(action, text, name) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "text-button";
  button.dataset.action = action;
  button.textContent = text;
  button.setAttribute("aria-label", `${text} ${name}`);
  return button;
}

function item(entry) {
  const li = document.createElement("li");
  li.className = "recording";
  li.dataset.recording = entry.name;
  li.dataset.current = String(currentSource === `recordings/${entry.name}`);

  const info = document.createElement("div");
  info.className = "recording-info";
  const name = document.createElement("div");
  name.className = "recording-name";
  name.textContent = entry.name;
  name.title = entry.name;
  const meta = document.createElement("div");
  meta.className = "recording-meta";
  const duration = Number.isFinite(entry.duration) ? formatTime(entry.duration, false, true) : "–";
  meta.textContent = `${duration} · ${formatSize(entry.size)} · ${formatCreated(entry.created)}`;
  info.append(name, meta);

  const play = actionButton("play", "Play", entry.name);
  play.addEventListener("click", () => send({ type: "open", source: `recordings/${entry.name}` }, () => {}));

  const download = document.createElement("a");
  download.className = "text-button";
  download.dataset.action = "download";
  download.href = withToken(`recordings/${encodeURIComponent(entry.name)}`);
  download.download = entry.name;
  download.addEventListener("click", (event) => downloadWithTabToken(event, download));
  download.textContent = "Download";
  download.setAttribute("aria-label", `Download ${entry.name}`);

  const remove = actionButton("delete", "Delete", entry.name);
  remove.classList.add("danger");
  remove.addEventListener("click", () => {
    remove.disabled = true;
    const sent = send({ type: "delete", source: `recordings/${entry.name}` }, (ok) => {
      if (ok) li.remove();
      else remove.disabled = false;
      reload();
    });
    if (!sent) remove.disabled = false;
  });

  li.append(info, play, download, remove);
  return li;
}

/// Fetches GET /api/recordings and redraws the list (one request at a time; a reload asked
/// for meanwhile runs after it).
async function reload() {
  if (loading) {
    reloadWanted = true;
    return;
  }
  if (needsToken()) {
    ui.list.replaceChildren();
    ui.empty.hidden = false;
    ui.empty.textContent = "Enter the token to see the recordings.";
    return;
  }
  loading = true;
  try {
    const response = await fetch(withToken("api/recordings"), { cache: "no-store", headers: tabAuthorization() });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const listing = await response.json();
    const entries = Array.isArray(listing.recordings) ? listing.recordings : [];
    ui.list.replaceChildren(...entries.map(item));
    ui.empty.hidden = entries.length > 0;
    ui.list.dataset.loaded = "true";
    ui.empty.textContent = "No recordings yet.";
  } catch (error) {
    // Said in the panel, not in a toast: a server without a library is not an error.
    ui.list.replaceChildren();
    ui.empty.hidden = false;
    ui.empty.textContent = `Cannot list the recordings (${error.message || error}).`;
  } finally {
    loading = false;
    if (reloadWanted) {
      reloadWanted = false;
      reload();
    }
  }
}

ui.refresh.addEventListener("click", reload);
// A token given in the page (access.js) opens the list.
on("authorized", reload);

// The way back from a recording or media file (also one that was deleted or failed).
ui.input.addEventListener("click", () => {
  ui.input.disabled = true;
  const sent = send({ type: "open", source: "input" }, () => { ui.input.disabled = false; });
  if (!sent) ui.input.disabled = false;
});

on("state", ({ state, previous }) => {
  const wasActive = recordingActive;
  recordingActive = !!state.recording?.active;
  const source = state.source?.name || "";
  ui.input.hidden = state.source?.startInput !== false;
  const sourceChanged = source !== currentSource;
  currentSource = source;
  // A new connection, a recording that started or ended, or another source: list again.
  if (!previous || wasActive !== recordingActive) reload();
  else if (sourceChanged) {
    for (const li of ui.list.children) li.dataset.current = String(source === `recordings/${li.dataset.recording}`);
  }
});
