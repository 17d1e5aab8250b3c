// FilterCast page, the Channels panel (#channels): every channel of the server (GET /api/channels)
// with a thumbnail refreshed every few seconds, whether it is online and how many watch it, this
// page's channel marked. A click moves the page to another channel without a reload: the URL's
// ?channel= changes (a history entry, so Back comes back) and the WebSocket reconnects to it,
// whose hello and state rebuild the page. With one channel, the panel stays hidden — but for an
// admin, who may add channels there (channels-admin.js).
import { isAdmin, needsToken } from "./access.js";
import { fetchJSON, oneAtATime, tabAuthorization, withToken } from "./api.js";
import { deleteAction, setUpAdmin, showAdmin } from "./channels-admin.js";
import { reopen } from "./connection.js";
import { byId, pageParameter } from "./helpers.js";
import { player } from "./player.js";
import { toast } from "./toast.js";

const REFRESH_MS = 4000;
/// How long the page says why it moved to another channel.
const REMOVED_NOTICE_MS = 10000;

const ui = { panel: byId("channels"), list: byId("channel-list") };
const channels = player.channels;
/// What the entries were built for: the names in order, and whether with the admin's actions.
let built = "";

/// The summary under a channel's name: "live · 2 watching" (a camera, a stream, the test pattern),
/// "playing · 1 watching" or "paused · 1 watching" (a file), "idle · 0 watching" (a live input
/// closed until somebody watches: its thumbnail is the last picture it made) or "offline · 0 watching".
function summary(channel) {
  const watching = `${channel.viewers} watching`;
  if (channel.online && channel.source?.kind === "file") return `${channel.paused ? "paused" : "playing"} · ${watching}`;
  if (channel.online) return `live · ${watching}`;
  return channel.idle ? `idle · ${watching}` : `offline · ${watching}`;
}

/// A new entry for the channel `name` (its picture, name and summary are filled by show()); an
/// admin's has a Delete, but the default channel's (`isDefault`).
function entry(name, isDefault) {
  const li = document.createElement("li");
  li.className = "channel";
  li.dataset.channel = name;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "channel-open";
  // A canvas, not an img: the snapshot is fetched with the token typed into the page (a header).
  const picture = document.createElement("canvas");
  picture.width = 96;
  picture.height = 54;
  const label = document.createElement("span");
  label.className = "channel-name";
  label.textContent = name;
  const meta = document.createElement("span");
  meta.className = "channel-meta";
  button.append(picture, label, meta);
  button.addEventListener("click", () => moveTo(name));
  li.append(button);
  const remove = deleteAction(name, isDefault, () => leave(name), reload);
  if (remove) li.append(remove);
  return li;
}

/// Draws the picture at `path` on `canvas`, whole and centred; the old picture stays until the
/// new one is decoded (no flicker), and stays if it cannot be had (the next refresh tries again):
/// then its HTTP status is returned. (The Looks panel's thumbnails too.)
export async function paint(canvas, path) {
  try {
    const response = await fetch(withToken(path), { cache: "no-store", headers: tabAuthorization() });
    if (response.status !== 200) return response.status;
    const bitmap = await createImageBitmap(await response.blob());
    const scale = Math.min(canvas.width / bitmap.width, canvas.height / bitmap.height);
    const [width, height] = [bitmap.width * scale, bitmap.height * scale];
    const context = canvas.getContext("2d");
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, (canvas.width - width) / 2, (canvas.height - height) / 2, width, height);
    canvas.dataset.width = String(bitmap.width); // the snapshot's own width
    bitmap.close();
    return response.status;
  } catch {
    // A connection lost meanwhile: the connection says so.
  }
}

/// Brings `li` up to date with `channel`, its picture fetched again.
function show(li, channel) {
  const button = li.firstElementChild;
  const [picture, , meta] = button.children;
  button.title = channel.source && channel.source.name ? `${channel.name}: ${channel.source.name}` : channel.name;
  if (channel.name === channels.current) button.setAttribute("aria-current", "page");
  else button.removeAttribute("aria-current");
  // The snapshot URL is the server's absolute path: made relative, for a page served under a prefix.
  // At the JPEG rendition nearest the thumbnail's width: a full-size picture every few seconds
  // is a burst a slow link's live stream queues behind.
  paint(picture, `${channel.snapshot.replace(/^\//, "")}&width=${picture.width}`);
  meta.textContent = summary(channel);
  li.dataset.idle = String(Boolean(channel.idle));
}

function redraw() {
  const names = channels.list.map((channel) => channel.name);
  const wanted = `${names.join("/")} ${isAdmin()}`;
  if (wanted !== built) {
    ui.list.replaceChildren(...names.map((name, index) => entry(name, index === 0)));
    built = wanted;
  }
  ui.panel.hidden = channels.list.length < 2 && !isAdmin();
  // A hidden panel fetches no thumbnail, not even a small one.
  if (!ui.panel.hidden) channels.list.forEach((channel, index) => show(ui.list.children[index], channel));
  showAdmin();
}

/// Fetches GET /api/channels and redraws the panel; a server without channels (or a page that
/// may not see them: no token yet) shows none.
const reload = oneAtATime(async () => {
  let answer = { ok: false };
  try {
    if (!needsToken()) answer = await fetchJSON("api/channels");
  } catch {
    // A connection lost meanwhile: the connection says so.
  }
  channels.list = answer.ok && Array.isArray(answer.body) ? answer.body : [];
  redraw();
});

/// Moves this page to channel `name`: a new history entry, then a connection to it.
function moveTo(name) {
  if (name === channels.current) return;
  const url = new URL(location.href);
  url.searchParams.set("channel", name);
  history.pushState(null, "", url);
  reopen();
}

/// Channel `name` is about to be removed: a page on it moves to the default channel first.
function leave(name) {
  if (name === channels.current && channels.list.length > 0) moveTo(channels.list[0].name);
}

/// This page's channel was removed (the server's close 1001 says so): the reconnection goes to
/// the default channel, the page's address with it (replaced: Back must not lead to it again),
/// and once there the page says why it moved (a picture that changes by itself is a surprise).
player.on("disconnected", (closed) => {
  if (closed?.code !== 1001 || channels.current === null || closed.reason !== `channel ${channels.current} was removed`) return;
  channels.removed = channels.current;
  const url = new URL(location.href);
  url.searchParams.delete("channel");
  history.replaceState(null, "", url);
});

setUpAdmin(reload);
// Becoming admin (or no longer) shows or hides the form and the Delete actions.
player.on("access", () => redraw());

// Back and Forward move between channels too.
window.addEventListener("popstate", () => {
  const wanted = pageParameter("channel");
  if (channels.current !== null && (wanted || channels.list[0]?.name) !== channels.current) reopen();
});

// A server without channels (no `hello.channel`) has no GET /api/channels to ask.
player.on("hello", (hello) => {
  channels.current = typeof hello.channel === "string" ? hello.channel : null;
  if (channels.removed !== null && channels.current !== null && channels.current !== channels.removed) {
    toast(`The channel ${channels.removed} was removed: you are watching ${channels.current} now`, REMOVED_NOTICE_MS);
    channels.removed = null;
  }
  if (channels.current !== null) reload();
});

// Only while connected: a server that is gone is the connection's to say, not a failed fetch's.
setInterval(() => {
  if (!document.hidden && player.stats.connected && channels.current !== null) reload();
}, REFRESH_MS);
