// FilterCast page, the library: the recordings of the Sources panel (play, download, delete — asked
// twice: deleting.js —, and
// "Back to the input" while something else plays), listed again when a recording starts or ends.
import { guard, needsToken } from "./access.js";
import { fetchJSON, inChannel, oneAtATime, tabAuthorization, withToken } from "./api.js";
import { send } from "./connection.js";
import { deleteButton } from "./deleting.js";
import { formatEntry, formatLooks } from "./format.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { markSource, sourceReference } from "./source.js";
import { toast } from "./toast.js";

const ui = {
  refresh: byId("library-refresh"),
  input: byId("library-input"),
  empty: byId("library-empty"),
  list: byId("recordings"),
};
const INPUT_TITLE = "Play the input the server was started with again";
const sources = player.sources;

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
  li.dataset.source = `recordings/${entry.name}`;
  markSource(li, sourceReference(player.state?.source));

  const info = document.createElement("div");
  info.className = "recording-info";
  const name = document.createElement("div");
  name.className = "recording-name";
  name.textContent = entry.name;
  name.title = entry.name;
  const meta = document.createElement("div");
  meta.className = "recording-meta";
  const dropped = entry.droppedFrames ? ` · ${entry.droppedFrames} frames dropped` : "";
  meta.textContent = `${formatEntry(entry)} · ${formatCreated(entry.created)}${dropped}`;
  info.append(name, meta);
  const looks = formatLooks(entry.looks, entry.looksTruncated === true);
  if (looks || (typeof entry.filter === "string" && entry.filter)) {
    // Play shows it as recorded (no filter on top: sepia on sepia); "With the filter" adds it.
    // The looks (the chain and its changes, from the recording's sidecar) say more than the filter.
    const recordedWith = document.createElement("div");
    recordedWith.className = "recording-meta recorded-with";
    recordedWith.textContent = `recorded with ${looks || entry.filter}`;
    recordedWith.title = recordedWith.textContent;
    info.append(recordedWith);
  }

  // A filtered recording plays as it was recorded: the server sets the program's chain aside
  // (for everybody: one picture) and gives it back with "Back to the input" (`open {asRecorded}`).
  const filtered = typeof entry.filter === "string" && entry.filter !== "";
  const source = `recordings/${entry.name}`;
  const play = actionButton("play", "Play", entry.name);
  guard(play, filtered ? `Play ${entry.name} as it was recorded (the filter comes back with the input)` : `Play ${entry.name}`);
  play.addEventListener("click", () => send({ type: "open", source, ...(filtered ? { asRecorded: true } : {}) }, () => {}));

  const extra = [];
  if (filtered) {
    const withFilter = actionButton("play-with-filter", "With the filter", entry.name);
    guard(withFilter, `Play ${entry.name} with the current filter on top of the one it was recorded with`);
    withFilter.addEventListener("click", () => send({ type: "open", source }, () => {}));
    extra.push(withFilter);
  }

  const download = document.createElement("a");
  download.className = "text-button";
  download.dataset.action = "download";
  download.href = withToken(inChannel(`recordings/${encodeURIComponent(entry.name)}`));
  download.download = entry.name;
  download.addEventListener("click", (event) => downloadWithTabToken(event, download));
  download.textContent = "Download";
  download.setAttribute("aria-label", `Download ${entry.name}`);

  const remove = deleteButton(entry.name, `recordings/${entry.name}`, (ok) => {
    if (ok) li.remove();
    reload();
  });

  li.append(info, play, ...extra, download, remove);
  return li;
}

function redraw() {
  ui.list.replaceChildren(...sources.recordings.map(item));
  ui.empty.hidden = sources.recordings.length > 0;
}

/// Fetches GET /api/recordings and redraws the list.
const reload = oneAtATime(async () => {
  if (needsToken()) {
    sources.recordings = [];
    redraw();
    ui.empty.textContent = "Enter the token to see the recordings.";
    return;
  }
  try {
    const answer = await fetchJSON(inChannel("api/recordings"));
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    sources.recordings = Array.isArray(answer.body.recordings) ? answer.body.recordings : [];
    redraw();
    ui.list.dataset.loaded = "true";
    ui.empty.textContent = "No recordings yet.";
  } catch (error) {
    // Said in the panel, not in a toast: a server without a library is not an error.
    sources.recordings = [];
    redraw();
    ui.empty.textContent = `Cannot list the recordings (${error.message || error}).`;
  }
});

ui.refresh.addEventListener("click", reload);
guard(ui.input, INPUT_TITLE);
// A token given in the page (access.js) opens the list.
player.on("authorized", reload);

// The way back from a recording or media file (also one that was deleted or failed).
ui.input.addEventListener("click", () => {
  ui.input.disabled = true;
  const sent = send({ type: "open", source: "input" }, () => guard(ui.input, INPUT_TITLE));
  if (!sent) guard(ui.input, INPUT_TITLE);
});

// A token given or refused changes what the buttons may do.
player.on("access", () => {
  guard(ui.input, INPUT_TITLE);
  redraw();
});

player.on("state", ({ state, previous }) => {
  ui.input.hidden = state.source?.startInput !== false;
  const source = sourceReference(state.source);
  // A new connection, or a recording that started or ended: list again; another source: mark it.
  if (!previous || !!previous.recording?.active !== !!state.recording?.active) reload();
  else if (sourceReference(previous.source) !== source) for (const li of ui.list.children) markSource(li, source);
});

