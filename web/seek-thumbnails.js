// FilterCast page, the seek bar's thumbnails: hovering the seek bar shows, above the pointer, the
// picture at that time (#seek-thumbnail, a canvas), cut from the sprite of the file playing
// (GET /api/thumbnails: {sprite, width, height, columns, times}). Fetched when the source changes;
// while the server makes them (202, or 503 when busy) asked again later, less and less often;
// a live source (404) has none; a page that needs a token asks once it is given. The sprite is fetched with the page's token and decoded once
// (createImageBitmap: the Content-Security-Policy allows no blob: images); a hover draws one cell.
import { needsToken } from "./access.js";
import { inChannel, tabAuthorization, withToken } from "./api.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { isLive } from "./playback.js";

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 15000;

const ui = { seek: byId("seek"), thumbnail: byId("seek-thumbnail") };
/// What the thumbnails are of (the source, told by the state), the listing and the decoded sprite.
const thumbnails = { source: null, listing: null, sprite: null, retry: null };

/// A source as the state tells it: another one, other thumbnails.
function sourceKey(state) {
  const source = state.source || {};
  return JSON.stringify([source.kind, source.reference, source.name, state.duration]);
}

/// Forgets the thumbnails of the source before, and asks for those of what plays now.
function sourceChanged({ state }) {
  const key = sourceKey(state);
  if (key === thumbnails.source) return;
  thumbnails.source = key;
  thumbnails.listing = null;
  thumbnails.sprite?.close();
  thumbnails.sprite = null;
  clearTimeout(thumbnails.retry);
  hide();
  if (!isLive() && !needsToken()) load(key, FIRST_RETRY_MS);
}

/// The listing, then the sprite; asked again after `wait` ms (doubling) while being made.
async function load(key, wait) {
  try {
    const answer = await fetch(withToken(inChannel("api/thumbnails")), { cache: "no-store", headers: tabAuthorization() });
    if (key !== thumbnails.source) return;
    if (answer.status === 202 || answer.status === 503) {
      thumbnails.retry = setTimeout(() => load(key, Math.min(wait * 2, LONGEST_RETRY_MS)), wait);
      return;
    }
    if (answer.status !== 200) return; // 404: a live source, none
    const listing = await answer.json();
    const response = await fetch(withToken(listing.sprite.replace(/^\//, "")), { headers: tabAuthorization() });
    if (!response.ok) return;
    const sprite = await createImageBitmap(await response.blob());
    if (key !== thumbnails.source) return sprite.close();
    thumbnails.listing = listing;
    thumbnails.sprite = sprite;
    ui.thumbnail.width = listing.width;
    ui.thumbnail.height = listing.height;
    ui.thumbnail.dataset.sprite = listing.sprite;
  } catch {
    // No thumbnails (the connection went, or the sprite does not decode): the seek bar works without.
  }
}

/// The thumbnail nearest `time` (the times rise).
function nearest(times, time) {
  let low = 0;
  let high = times.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (times[middle] <= time) low = middle;
    else high = middle - 1;
  }
  return low + 1 < times.length && times[low + 1] - time < time - times[low] ? low + 1 : low;
}

/// The picture at the time under the pointer, above it.
function show(event) {
  const { listing, sprite } = thumbnails;
  const state = player.state;
  if (!listing || !sprite || !state || isLive()) return hide();
  const box = ui.seek.getBoundingClientRect();
  const fraction = Math.min(Math.max((event.clientX - box.left) / Math.max(box.width, 1), 0), 1);
  const index = nearest(listing.times, fraction * state.duration);
  const x = (index % listing.columns) * listing.width;
  const y = Math.floor(index / listing.columns) * listing.height;
  const context = ui.thumbnail.getContext("2d");
  context.drawImage(sprite, x, y, listing.width, listing.height, 0, 0, listing.width, listing.height);
  ui.thumbnail.dataset.index = String(index);
  ui.thumbnail.dataset.time = String(listing.times[index]);
  const parent = ui.thumbnail.offsetParent?.getBoundingClientRect() ?? box;
  const left = Math.min(Math.max(event.clientX - parent.left - listing.width / 2, 0), Math.max(parent.width - listing.width, 0));
  ui.thumbnail.style.left = `${left}px`;
  ui.thumbnail.hidden = false;
}

function hide() {
  ui.thumbnail.hidden = true;
}

ui.seek.addEventListener("pointermove", show);
ui.seek.addEventListener("pointerleave", hide);
ui.seek.addEventListener("pointerdown", hide);
player.on("state", sourceChanged);
// A token given in the page: the next state asks again.
player.on("authorized", () => { thumbnails.source = null; });
player.on("disconnected", () => {
  thumbnails.source = null;
  clearTimeout(thumbnails.retry);
  hide();
});
