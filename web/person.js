// FilterCast page, who this page is (docs/PROTOCOL.md, `?person=` and `?name=` on /ws): a random key
// kept by the tab, which every connection the page opens gives (the compare view's and the studio's
// second connection are the same person), and the display name the user gave once (kept by the
// browser; a `?name=` in the page's own address is taken and kept).
import { pageParameter, store, stored } from "./helpers.js";

const PERSON_KEY = "filtercast.person";
const NAME_KEY = "filtercast.name";

/// The tab's person key: 32 hex digits, made once per tab.
export function personKey() {
  let key = stored(PERSON_KEY);
  if (!/^[0-9a-f]{32}$/.test(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    key = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    store(PERSON_KEY, key);
  }
  return key;
}

/// The name the user gave ("" for none): the page address's `?name=`, else the one kept.
export function savedName() {
  const given = (pageParameter("name") || "").trim();
  if (given) keepName(given);
  try { return given || localStorage.getItem(NAME_KEY) || ""; } catch { return given; }
}

/// Keeps `name` for the next visits ("" forgets it).
export function keepName(name) {
  try {
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
  } catch { /* storage refused: asked again next time */ }
}
