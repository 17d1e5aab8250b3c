// FilterCast page, the Record button: starts and stops a recording of what the viewers see;
// a red dot and the elapsed time while one runs.
import { guard } from "./access.js";
import { send } from "./connection.js";
import { formatTime } from "./format.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";

const button = byId("record");
const time = byId("record-time");

function renderRecord() {
  const recording = player.state?.recording || null;
  const active = !!recording?.active;
  button.setAttribute("aria-pressed", String(active));
  button.setAttribute("aria-label", active ? "Stop recording" : "Start recording");
  guard(button, active
    ? `Recording ${recording.name}: click to stop` + (recording.droppedFrames ? ` (${recording.droppedFrames} frames dropped)` : "")
    : "Record what the viewers see");
  // Frames the recording leaves out (its encoder behind on a busy machine) show beside its time.
  const dropped = active ? recording.droppedFrames || 0 : 0;
  button.dataset.dropping = String(dropped > 0);
  const text = active ? formatTime(recording.elapsed) + (dropped ? ` · ${dropped} dropped` : "") : "Rec";
  if (time.textContent !== text) time.textContent = text;
}

button.addEventListener("click", () => {
  const start = !player.state?.recording?.active;
  button.disabled = true;
  const sent = send({ type: "record", action: start ? "start" : "stop" }, () => { button.disabled = false; });
  if (!sent) button.disabled = false;
});

player.on("state", renderRecord);
player.on("access", renderRecord);

renderRecord();
