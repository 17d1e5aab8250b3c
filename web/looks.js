// FilterCast page, the Looks panel (#looks): the server's saved looks (GET /api/looks, `looks`
// messages when one is saved or deleted), each applied with a click (setFilter {look}: to the
// preview while studio mode is on — player.chainTarget() —, else the program), its link copied
// (`?look=NAME`), exported (its JSON file downloaded) or deleted (asked twice, deleting.js); the
// chain shown now saved under a name; a look file (.json) or a LUT (.cube) imported — picked or
// dropped on the page: a look goes to the preview (studio mode turned on, so it is seen) and is
// saved (never on air by itself), a LUT to PUT /api/luts/NAME. A link
// `/?look=NAME` or `#look=<a chain as setFilter takes it, URL-encoded JSON>` opens the page with
// that look in the preview (studio mode on) for a controller of a server with a preview, else
// offers it in a one-click banner (#look-offer; a watcher is told why it cannot apply it): never on
// air by itself; a link whose look cannot be read says so. Shown when the server keeps looks
// (`hello.looks`); its commands need control. Each look shows a thumbnail: the look applied to
// this channel's current picture (GET /api/looks/NAME/thumbnail.jpg), refreshed every 10 s.
import { guard, mayControl, needsToken } from "./access.js";
import { fetchJSON, inChannel, oneAtATime, putFile } from "./api.js";
import { send } from "./connection.js";
import { paint } from "./channels.js";
import { confirmingButton } from "./deleting.js";
import { byId, fileStem, pageParameter } from "./helpers.js";
import { player } from "./player.js";
import { setStudio } from "./studio.js";
import { toast } from "./toast.js";

const NAME = /^[a-z0-9_-]{1,32}$/;
const THUMBNAIL_REFRESH_MS = 10000;
const ui = {
  panel: byId("looks"), list: byId("look-list"), empty: byId("looks-empty"), form: byId("look-save"),
  name: byId("look-name"), save: byId("look-save-button"), importButton: byId("look-import"),
  importInput: byId("look-import-input"), offer: byId("look-offer"), offerText: byId("look-offer-text"),
  offerApply: byId("look-offer-apply"), offerDismiss: byId("look-offer-dismiss"),
};
const looks = { enabled: false, list: [], offer: null };

/// Which chain a look goes to: the preview while the page is in studio mode, else the program.
function target() {
  return player.chainTarget().to || "program";
}

/// A look's name made from a file's (lower case, other characters as "-", at most 32).

/// The address that opens this page with `look` in the preview: this channel's page, `?look=NAME`.
function lookLink(look) {
  const url = new URL(location.href);
  url.hash = "";
  for (const key of [...url.searchParams.keys()]) if (key !== "channel") url.searchParams.delete(key);
  url.searchParams.set("look", look.name);
  return url.href;
}

/// Copies the look's link; where the browser allows no clipboard (a plain-HTTP address that is not
/// this machine's), the toast shows the link to copy by hand.
function copyLinkButton(look) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "text-button";
  button.dataset.action = "copy-link";
  button.dataset.link = lookLink(look);
  button.textContent = "Copy link";
  button.setAttribute("aria-label", `Copy the link to ${look.name}`);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(button.dataset.link);
      toast(`Copied the link to ${look.name}: it opens the look in the preview`);
    } catch {
      toast(`Copy the link to ${look.name}: ${button.dataset.link}`, 15000);
    }
  });
  return button;
}

/// The look's JSON file, downloaded as NAME.json.
function exportLink(look) {
  const link = document.createElement("a");
  link.className = "text-button";
  link.dataset.action = "export";
  link.textContent = "Export";
  link.download = `${look.name}.json`;
  // A data: URL, not a blob: one: nothing to revoke, and the file is in the link itself.
  link.href = `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(look, null, 2) + "\n")}`;
  link.setAttribute("aria-label", `Export ${look.name}`);
  return link;
}

function entry(look) {
  const li = document.createElement("li");
  li.className = "source look";
  li.dataset.look = look.name;
  const apply = document.createElement("button");
  apply.type = "button";
  apply.className = "source-open";
  apply.dataset.action = "apply";
  const title = document.createElement("span");
  title.className = "source-title";
  title.textContent = look.name;
  const meta = document.createElement("span");
  meta.className = "source-meta";
  meta.textContent = (look.chain || []).map((link) => link.name).join(" + ");
  const picture = document.createElement("canvas");
  picture.className = "look-thumbnail";
  picture.width = 96;
  picture.height = 54;
  apply.append(picture, title, meta);
  thumbnail(picture, look.name);
  guard(apply, `Apply ${look.name}`);
  apply.addEventListener("click", () => send({ type: "setFilter", look: look.name, to: target() }, () => {}));
  const deleting = `Delete ${look.name}`;
  const remove = confirmingButton(look.name, (button) => {
    if (!send({ type: "deleteLook", name: look.name }, (ok) => { if (!ok) guard(button, deleting); })) guard(button, deleting);
  });
  guard(remove, deleting);
  li.append(apply, copyLinkButton(look), exportLink(look), remove);
  return li;
}

/// The look applied to this channel's picture, drawn on `canvas`: asked again after a second while
/// the server makes it (202: accepted, not drawn yet), then each time the list is drawn.
async function thumbnail(canvas, name, attempts = 3) {
  const status = await paint(canvas, inChannel(`api/looks/${encodeURIComponent(name)}/thumbnail.jpg`));
  if (status === 202 && attempts > 1 && canvas.isConnected) setTimeout(() => thumbnail(canvas, name, attempts - 1), 1000);
  else if (status === 200) canvas.dataset.drawn = "true";
}

function render() {
  ui.panel.hidden = !looks.enabled;
  ui.list.replaceChildren(...looks.list.map(entry));
  ui.empty.hidden = looks.list.length > 0;
  ui.list.dataset.loaded = "true";
  for (const control of [ui.name, ui.save, ui.importButton]) guard(control, control.getAttribute("aria-label"));
  renderOffer();
}

/// The banner's words and its Apply button, which only a controller has.
function renderOffer() {
  if (!looks.offer) return;
  ui.offerApply.hidden = !mayControl();
  ui.offerText.textContent = mayControl() ? `Apply look ${looks.offer.label}?`
    : `This link offers the look ${looks.offer.label}: applying it needs control (give the token)`;
}

const reload = oneAtATime(async () => {
  let answer = { ok: false };
  try {
    if (looks.enabled && !needsToken()) answer = await fetchJSON("api/looks");
  } catch {
    // A connection lost meanwhile: the connection says so.
  }
  looks.list = answer.ok && Array.isArray(answer.body?.looks) ? answer.body.looks : [];
  render();
});

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const name = ui.name.value.trim();
  if (!NAME.test(name)) return toast("A look's name is 1 to 32 of a-z 0-9 _ -");
  send({ type: "saveLook", name, from: target() }, (ok) => { if (ok) ui.name.value = ""; });
});

/// A look file's text: put in the preview, then saved under its name (`done` when saved).
function importLook(text, fileName) {
  let look;
  try {
    look = JSON.parse(text);
  } catch {
    return toast(`${fileName} is not a look file: not JSON`);
  }
  const chain = Array.isArray(look) ? look : look?.chain;
  if (!Array.isArray(chain)) return toast(`${fileName} is not a look file: no "chain"`);
  const name = typeof look.name === "string" && NAME.test(look.name) ? look.name : fileStem(fileName, "look");
  // Into the preview, shown: with studio mode off it would go to a preview nobody sees.
  if (player.studio.offered) setStudio(true);
  send({ type: "setFilter", chain, to: "preview" }, (ok) => {
    if (ok) send({ type: "saveLook", name, from: "preview" }, (saved) => {
      if (saved) toast(`Imported the look ${name}: it is in the preview, Take puts it on air`);
    });
  });
}

/// A .cube file: PUT /api/luts/NAME; the server's answer said in a toast.
async function importLUT(file) {
  const name = fileStem(file.name, "look");
  toast(await putFile(`api/luts/${name}`, file, `Added the LUT ${name}`, `LUT ${name}`));
}

/// Whether `file` is this panel's to import (a look file or a LUT) rather than a video's upload.
export function importsFile(file) {
  return looks.enabled && /\.(json|cube)$/i.test(file.name);
}

async function importFile(file) {
  if (/\.cube$/i.test(file.name)) return importLUT(file);
  importLook(await file.text(), file.name);
}

ui.importButton.addEventListener("click", () => ui.importInput.click());
ui.importInput.addEventListener("change", () => {
  const [file] = ui.importInput.files;
  ui.importInput.value = "";
  if (file) importFile(file);
});
document.addEventListener("dragover", (event) => {
  if (looks.enabled && mayControl() && Array.from(event.dataTransfer?.types || []).includes("Files")) event.preventDefault();
});
document.addEventListener("drop", (event) => {
  const [file] = event.dataTransfer?.files || [];
  if (!file || !importsFile(file) || !mayControl()) return;
  event.preventDefault();
  importFile(file);
});

/// The look a link offers: `?look=NAME`, or `#look=` and a chain (or a look file's object); a
/// link whose look cannot be read is said so, once.
function linkedLook() {
  const name = pageParameter("look");
  if (name !== null) {
    if (NAME.test(name)) return { label: name, message: { type: "setFilter", look: name } };
    toast(`The link's look "${name.slice(0, 40)}" is not a look's name (1 to 32 of a-z 0-9 _ -)`, 10000);
    return null;
  }
  const fragment = new URLSearchParams(location.hash.slice(1)).get("look");
  if (fragment === null) return null;
  let value;
  try {
    value = JSON.parse(fragment);
  } catch {
    toast("The link's look cannot be read: #look= is not JSON", 10000);
    return null;
  }
  const chain = Array.isArray(value) ? value : value?.chain;
  if (!Array.isArray(chain) || chain.length === 0) {
    toast("The link's look cannot be read: #look= holds no chain of filters", 10000);
    return null;
  }
  const label = typeof value.name === "string" ? value.name : chain.map((link) => link?.name).join(" + ");
  return { label, message: { type: "setFilter", chain } };
}

ui.offerApply.addEventListener("click", () => {
  if (!looks.offer) return;
  send({ ...looks.offer.message, to: target() }, (ok) => { if (ok) ui.offer.hidden = true; });
});
ui.offerDismiss.addEventListener("click", () => { ui.offer.hidden = true; });

/// The look a link names, once: into the preview for a controller of a server with one (studio
/// mode turned on), else offered in the banner.
function openLinked() {
  const offer = looks.offer;
  if (!offer || offer.opened) return;
  if (mayControl() && player.studio.offered) {
    offer.opened = true;
    ui.offer.hidden = true;
    setStudio(true);
    send({ ...offer.message, to: "preview" }, (ok) => {
      if (ok) toast(`The look ${offer.label} is in the preview: Take puts it on air`);
    });
    return;
  }
  renderOffer();
  ui.offer.hidden = false;
}

player.on("hello", (hello) => {
  looks.enabled = hello.looks === true;
  if (looks.offer === null) looks.offer = linkedLook();
  // After the other modules heard the hello (studio.js learns whether there is a preview).
  setTimeout(openLinked, 0);
  render();
  reload();
});
player.on("looks", reload);
// The picture moves on: the thumbnails follow it now and then, while the panel is seen.
setInterval(() => {
  if (document.hidden || ui.panel.hidden || !player.stats.connected) return;
  for (const canvas of ui.list.querySelectorAll("canvas.look-thumbnail")) thumbnail(canvas, canvas.closest("[data-look]").dataset.look, 1);
}, THUMBNAIL_REFRESH_MS);
player.on("access", () => {
  render();
  reload();
  setTimeout(openLinked, 0);
});
