// FilterCast page, uploads: drop a video file anywhere on the page, or pick one with
// #upload-file, and it goes up to the server (PUT /api/uploads/NAME, docs/PROTOCOL.md) with a
// progress bar, then plays (`open` of the `source` the server answers). Shown only when the
// server takes uploads (`hello.uploads`) and this client may control the session.
import { authorizationHeaders, mayControl } from "./access.js";
import { send } from "./connection.js";
import { byId, pageParameter } from "./helpers.js";
import { importsFile } from "./looks.js";
import { player } from "./player.js";
import { toast } from "./toast.js";

const ui = {
  box: byId("upload"),
  button: byId("upload-file"),
  input: byId("upload-input"),
  progress: byId("upload-progress"),
  status: byId("upload-status"),
};
const sources = player.sources;

function enabled() {
  return sources.uploadOffer !== null && mayControl();
}

function render() {
  ui.box.hidden = !enabled();
  ui.button.disabled = sources.uploading;
}

/// The token as the HTTP API takes it: the page URL's ?token=, else the one typed into the page.
function uploadHeaders() {
  const token = pageParameter("token");
  return token ? { Authorization: `Bearer ${token}` } : authorizationHeaders();
}

function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

/// What the server said when it refused (its plain-text body), or the HTTP status.
function refusal(xhr) {
  const text = (xhr.responseText || "").trim();
  return text || `HTTP ${xhr.status}`;
}

function finished(text) {
  sources.uploading = false;
  ui.progress.hidden = true;
  ui.status.textContent = text;
  render();
}

/// Sends `file` up with XMLHttpRequest (fetch has no upload progress), then opens it.
function upload(file) {
  if (!enabled() || sources.uploading) return;
  const { maxBytes } = sources.uploadOffer;
  if (file.size > maxBytes) {
    toast(`${file.name} is ${megabytes(file.size)}: this server takes at most ${megabytes(maxBytes)}`);
    return;
  }
  sources.uploading = true;
  render();
  ui.progress.value = 0;
  ui.progress.hidden = false;
  ui.status.textContent = `Uploading ${file.name}…`;
  const xhr = new XMLHttpRequest();
  xhr.open("PUT", `api/uploads/${encodeURIComponent(file.name)}`);
  for (const [name, value] of Object.entries(uploadHeaders())) xhr.setRequestHeader(name, value);
  xhr.upload.addEventListener("progress", (event) => {
    if (!event.lengthComputable) return;
    ui.progress.value = event.loaded / event.total;
    ui.status.textContent = `Uploading ${file.name}… ${Math.floor((100 * event.loaded) / event.total)}%`;
  });
  xhr.addEventListener("load", () => {
    if (xhr.status !== 201) {
      finished("");
      toast(`Cannot upload ${file.name}: ${refusal(xhr)}`);
      return;
    }
    let stored;
    try { stored = JSON.parse(xhr.responseText); } catch { stored = null; }
    if (!stored || typeof stored.source !== "string") {
      finished("");
      toast(`Cannot upload ${file.name}: the server's answer was not understood`);
      return;
    }
    finished(`Uploaded ${stored.name}`);
    send({ type: "open", source: stored.source }, () => {});
  });
  xhr.addEventListener("error", () => {
    finished("");
    toast(`Cannot upload ${file.name}: the connection failed`);
  });
  xhr.send(file);
}

ui.button.addEventListener("click", () => ui.input.click());
ui.input.addEventListener("change", () => {
  const [file] = ui.input.files;
  ui.input.value = ""; // picking the same file again fires change again
  if (file) upload(file);
});

// The whole page is a drop target while uploads are on; a drop of anything but files is left alone.
function carriesFiles(event) {
  return enabled() && Array.from(event.dataTransfer?.types || []).includes("Files");
}
document.addEventListener("dragover", (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = "copy";
  document.body.classList.add("drop-target");
});
document.addEventListener("dragleave", (event) => {
  if (event.relatedTarget === null) document.body.classList.remove("drop-target");
});
// A look file or a LUT dropped is the Looks panel's (looks.js).
document.addEventListener("drop", (event) => {
  document.body.classList.remove("drop-target");
  if (!carriesFiles(event)) return;
  event.preventDefault();
  const [file] = event.dataTransfer.files;
  if (file && !importsFile(file)) upload(file);
});

player.on("hello", (hello) => {
  const maxBytes = hello.uploads?.maxBytes;
  sources.uploadOffer = Number.isFinite(maxBytes) && maxBytes > 0 ? { maxBytes } : null;
  render();
});
player.on("access", render);
render();
