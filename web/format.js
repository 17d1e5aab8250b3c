// FilterCast page, formatting shared by the controls and the library.

/// mm:ss, or h:mm:ss past an hour (or when `long`, so both sides of "a / b" look alike).
export function formatTime(seconds, long = false, round = false) {
  let total = Number.isFinite(seconds) ? Math.max(0, seconds) : 0;
  total = round ? Math.round(total) : Math.floor(total);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const two = (value) => String(value).padStart(2, "0");
  return hours > 0 || long ? `${hours}:${two(minutes)}:${two(secs)}` : `${two(minutes)}:${two(secs)}`;
}

/// mm:ss.mmm (h:mm:ss.mmm past an hour, or when `long`): a paused picture's time, to the frame.
export function formatFrameTime(seconds, long = false) {
  const millis = Math.round((Number.isFinite(seconds) ? Math.max(0, seconds) : 0) * 1000);
  return `${formatTime(Math.floor(millis / 1000), long)}.${String(millis % 1000).padStart(3, "0")}`;
}

/// A listed file's line: "01:05 · 3.4 MB" (its duration rounded, "–" when unknown; its size).
export function formatEntry(entry) {
  const duration = Number.isFinite(entry.duration) ? formatTime(entry.duration, false, true) : "–";
  return `${duration} · ${formatSize(entry.size)}`;
}

/// "12 kB", "3.4 MB", "1.2 GB"; "–" when unknown.
export function formatSize(bytes) {
  if (!Number.isFinite(bytes)) return "–";
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

/// A recording's looks in short: "sepia → sepia + vignette at 0:12" (a chain's filters joined by
/// " + ", "none" for the empty one; the first three changes, then how many more). "" without any
/// filter at all.
export function formatLooks(looks, truncated = false) {
  if (!Array.isArray(looks) || looks.length === 0) return "";
  const chain = (look) => (Array.isArray(look.chain) && look.chain.length > 0
    ? look.chain.map((link) => String(link.name)).join(" + ") : "none");
  const at = (seconds) => {
    const whole = Math.floor(Number.isFinite(seconds) ? Math.max(0, seconds) : 0);
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  };
  if (looks.length === 1 && chain(looks[0]) === "none") return "";
  const shown = looks.slice(1, 4).map((look) => ` → ${chain(look)} at ${at(look.at)}`).join("");
  const more = looks.length - 4 + (truncated ? 1 : 0);
  return chain(looks[0]) + shown + (more > 0 ? ` → … (${looks.length - 1}${truncated ? "+" : ""} changes)` : "");
}
