// FilterCast page, small helpers shared by the modules: the page's elements, its URL's
// parameters, the tab's storage, and sliding windows of measurements.

/// The page's element with `id`.
export function byId(id) {
  return document.getElementById(id);
}

/// The page URL's `?name=` parameter, or null.
export function pageParameter(name) {
  return new URLSearchParams(location.search).get(name);
}

/// The tab's stored value for `key` (sessionStorage), "" when none or storage is refused.
export function stored(key) {
  try { return sessionStorage.getItem(key) || ""; } catch { return ""; }
}

/// Keeps `value` for the tab under `key` ("" forgets it); where storage is refused it is not kept.
export function store(key, value) {
  try {
    if (value) sessionStorage.setItem(key, value);
    else sessionStorage.removeItem(key);
  } catch { /* storage refused: not remembered */ }
}

/// The median of `values` (the mean of the middle two of an even count); null for none.
export function median(values) {
  if (values.length === 0) return null;
  const sorted = values.slice().sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/// Appends `value` to `list`, dropping its oldest entries beyond `max`.
export function pushBounded(list, value, max) {
  list.push(value);
  if (list.length > max) list.splice(0, list.length - max);
}

/// A name of `a-z 0-9 _ -` (at most 32, as the server's LUTs, looks and styles take) made from a
/// file's name without its extension; `fallback` when nothing is left.
export function fileStem(fileName, fallback) {
  return fileName.replace(/\.[^.]*$/, "").toLowerCase().replace(/[^a-z0-9_-]+/g, "-").slice(0, 32) || fallback;
}
