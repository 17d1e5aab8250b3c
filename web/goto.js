// FilterCast page, "go to" (#goto): a time typed — m:ss, h:mm:ss, HH:MM:SS:FF (timecode at the
// source's rate, drop-frame with ;) or seconds — and Enter seeks there; what is no time is marked
// and its title says why, and nothing is sent.
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { seekTo } from "./playback.js";
import { parseTime } from "./timecode.js";

const field = byId("goto");
const TITLE = field.title;

field.addEventListener("keydown", (event) => {
  if (event.key !== "Enter") return;
  event.preventDefault();
  try {
    seekTo(parseTime(field.value, player.state?.source?.fps));
    field.removeAttribute("aria-invalid");
    field.title = TITLE;
  } catch (error) {
    field.setAttribute("aria-invalid", "true");
    field.title = error.message;
  }
});
field.addEventListener("input", () => field.removeAttribute("aria-invalid"));
