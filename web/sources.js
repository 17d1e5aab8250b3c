// FilterCast page, the Sources panel: what the session can play — the input the server was
// started with, this browser's camera (camera.js), the media folder (--media-dir, browsed folder
// by folder), the uploads and the recordings (library.js) — with the one that plays marked.
// Choosing one sends `open` (the filter chain stays); a page that may only watch sees the list
// with its buttons disabled, saying why.
import { guard, needsToken } from "./access.js";
import { fetchJSON, oneAtATime } from "./api.js";
import { cameraState, toggleCamera } from "./camera.js";
import { send } from "./connection.js";
import { deleteButton } from "./deleting.js";
import { formatEntry } from "./format.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { displayName, markSource, sourceReference } from "./source.js";

const ui = {
  panel: byId("sources"),
  main: byId("sources-main"),
  input: document.querySelector('#sources-main [data-source="input"] button'),
  inputName: byId("sources-input-name"),
  camera: byId("sources-camera"),
  cameraTitle: byId("sources-camera-title"),
  cameraMeta: byId("sources-camera-meta"),
  refresh: byId("library-refresh"),
  mediaGroup: byId("media-group"),
  mediaUp: byId("media-up"),
  mediaPath: byId("media-path"),
  mediaEmpty: byId("media-empty"),
  mediaList: byId("media-entries"),
  uploadsGroup: byId("uploads-group"),
  uploadsEmpty: byId("uploads-empty"),
  uploadsList: byId("uploads"),
};
const INPUT_META = "What the server was started with";

const sources = player.sources;

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

/// Sends `open {source: reference}` for `button`, which waits (disabled) for the answer.
function openSource(reference, button) {
  button.disabled = true;
  const settle = () => guard(button, button.dataset.title);
  if (!send({ type: "open", source: reference }, settle)) settle();
}

/// A button of the panel that changes the session: `title` while this page may, disabled otherwise.
function guardOpen(button, title) {
  button.dataset.title = title;
  guard(button, title);
}

/// A list item holding one button (`data-action` action): a title line and a meta line.
function buttonItem(className, action, title, meta, onClick) {
  const li = document.createElement("li");
  li.className = className;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "source-open";
  button.dataset.action = action;
  button.append(span("source-title", title), span("source-meta", meta));
  button.addEventListener("click", (event) => onClick(button, event));
  li.append(button);
  return { li, button };
}

/// An item for the file `open` names `reference`, marked when it plays.
function sourceItem(reference, name, meta) {
  const { li, button } = buttonItem("source", "open", name, meta, (pressed) => openSource(reference, pressed));
  li.dataset.source = reference;
  guardOpen(button, `Play ${name}`);
  markSource(li, sources.playing);
  return li;
}

/// An upload: played like any file, and deleted from the page (asked twice).
function uploadItem(entry) {
  const reference = `uploads/${entry.name}`;
  const li = sourceItem(reference, entry.name, formatEntry(entry));
  li.append(deleteButton(entry.name, reference, (ok) => { if (ok) li.remove(); loadUploads(); }));
  return li;
}

/// A folder of the media folder: browsing into it changes nothing for the others.
function folderItem(name, folder) {
  const { li, button } = buttonItem("source folder", "browse", `${name}/`, "Folder",
    (_button, event) => browse(folder, event));
  li.dataset.folder = folder;
  button.title = `Open the folder ${name}`;
  return li;
}

// ---- The media folder --------------------------------------------------------------------------

/// Where the media list is: "Media / a / b", each crumb but the last a button back to it.
function renderPath(folder) {
  const parts = folder ? folder.split("/") : [];
  const crumbs = [["Media", ""], ...parts.map((name, index) => [name, parts.slice(0, index + 1).join("/")])];
  ui.mediaPath.replaceChildren(...crumbs.map(([name, path], index) => {
    const li = document.createElement("li");
    if (index === crumbs.length - 1) {
      li.append(span("crumb", name));
      li.lastChild.setAttribute("aria-current", "location");
    } else {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "crumb text-button";
      button.dataset.folder = path;
      button.textContent = name;
      button.addEventListener("click", (event) => browse(path, event));
      li.append(button);
    }
    return li;
  }));
  ui.mediaUp.hidden = parts.length === 0;
}

function renderMedia(folder, entries, message) {
  renderPath(folder);
  const prefix = folder ? `${folder}/` : "";
  ui.mediaList.replaceChildren(...entries.map((entry) => (entry.kind === "folder"
    ? folderItem(entry.name, prefix + entry.name)
    : sourceItem(`media/${prefix}${entry.name}`, entry.name, formatEntry(entry)))));
  ui.mediaEmpty.textContent = message || "";
  ui.mediaEmpty.hidden = !message;
  ui.mediaList.dataset.loaded = "true";
  ui.mediaList.dataset.folder = folder;
}

/// Fetches GET /api/media for the folder shown and redraws it.
const loadMedia = oneAtATime(async () => {
  ui.mediaGroup.hidden = !sources.mediaOffered;
  if (!sources.mediaOffered) return;
  const folder = sources.mediaFolder;
  if (needsToken()) return renderMedia(folder, [], "Enter the token to see the media folder.");
  try {
    const answer = await fetchJSON(`api/media?folder=${encodeURIComponent(folder)}`);
    if (folder !== sources.mediaFolder) return; // browsed elsewhere meanwhile: that listing comes next
    if (!answer.ok) return renderMedia(folder, [], `Cannot list this folder: ${answer.text || `HTTP ${answer.status}`}`);
    const entries = Array.isArray(answer.body.entries) ? answer.body.entries : [];
    const note = answer.body.truncated ? `Only the first ${entries.length} entries are listed.`
      : entries.length === 0 ? "This folder is empty." : "";
    renderMedia(folder, entries, note);
  } catch (error) {
    renderMedia(folder, [], `Cannot list the media folder (${error.message || error}).`);
  }
});

/// Shows `folder` of the media folder, as the `click` asked. A button pressed from the keyboard
/// (`detail` 0) hands the focus on to the new list, whose buttons replaced it; one clicked with a
/// pointer leaves none behind (keyboard.js), so that space goes on meaning play/pause.
async function browse(folder, click) {
  sources.mediaFolder = folder;
  await loadMedia();
  if (click.detail !== 0) return;
  const target = ui.mediaList.querySelector("button") || (ui.mediaUp.hidden ? ui.mediaPath.querySelector("button") : ui.mediaUp);
  target?.focus();
}

ui.mediaUp.addEventListener("click", (event) => browse(sources.mediaFolder.split("/").slice(0, -1).join("/"), event));

// ---- Uploads ---------------------------------------------------------------------------------

/// Fetches GET /api/uploads when the server takes uploads (`hello.uploads`), else the section
/// stays hidden.
const loadUploads = oneAtATime(async () => {
  if (!sources.uploadsOffered || needsToken()) {
    ui.uploadsGroup.hidden = true;
    return;
  }
  let answer;
  try {
    answer = await fetchJSON("api/uploads");
  } catch {
    ui.uploadsGroup.hidden = true;
    return;
  }
  ui.uploadsGroup.hidden = false;
  const entries = answer.ok && Array.isArray(answer.body.uploads) ? answer.body.uploads : [];
  ui.uploadsList.replaceChildren(...entries.map(uploadItem));
  ui.uploadsEmpty.textContent = answer.ok ? "No uploads yet." : `Cannot list the uploads (HTTP ${answer.status}).`;
  ui.uploadsEmpty.hidden = entries.length > 0;
});

// ---- The live sources and the marks ------------------------------------------------------------

function renderCamera() {
  const camera = cameraState();
  ui.cameraTitle.textContent = camera === "sharing" ? "Stop my camera" : "My camera";
  ui.cameraMeta.textContent = camera === "sharing" ? "Sharing this browser's camera"
    : camera === "starting" ? "Starting…" : "This browser's camera, for everybody";
  guardOpen(ui.camera, camera === "sharing" ? "Stop sharing this browser's camera" : "Share this browser's camera as the source");
}

/// Marks what plays in every list of the panel but the recordings (library.js marks those), when
/// that changed (items drawn later are marked as they are made).
function markAll() {
  const source = player.state?.source;
  const playing = source?.kind === "browser" && cameraState() === "sharing" ? "camera" : sourceReference(source);
  if (playing === sources.playing) return;
  sources.playing = playing;
  for (const list of [ui.main, ui.mediaList, ui.uploadsList]) {
    for (const li of list.querySelectorAll("[data-source]")) markSource(li, sources.playing);
  }
}

function reloadLists() {
  loadMedia();
  loadUploads();
}

guardOpen(ui.input, "Play the input the server was started with");
ui.input.addEventListener("click", () => openSource("input", ui.input));
ui.camera.addEventListener("click", toggleCamera);
ui.refresh.addEventListener("click", reloadLists);
renderCamera();

player.on("hello", (hello) => {
  sources.mediaOffered = hello.mediaFolder === true;
  sources.uploadsOffered = Boolean(hello.uploads);
  reloadLists();
});
player.on("authorized", reloadLists);
player.on("access", () => {
  for (const button of ui.panel.querySelectorAll(".source-open[data-title]")) guard(button, button.dataset.title);
});
player.on("camera", () => {
  renderCamera();
  markAll();
});
player.on("state", ({ state, previous }) => {
  const reference = sourceReference(state.source);
  if (reference === "input") sources.inputName = displayName(state.source);
  const inputLine = sources.inputName || INPUT_META;
  if (ui.inputName.textContent !== inputLine) ui.inputName.textContent = inputLine;
  markAll();
  // Another source: an upload or a file may have come with it.
  if (previous && sourceReference(previous.source) !== reference) reloadLists();
});
