// FilterCast page, the Record button: starts and stops a recording of what the viewers see;
// a red dot and the elapsed time while one runs.
import { send } from "./connection.js";
import { formatTime } from "./format.js";
import { byId } from "./helpers.js";
import { on } from "./session.js";

const button = byId("record");
const time = byId("record-time");
let recording = null; // state.recording, as last broadcast

function renderRecord() {
  const active = !!recording?.active;
  button.setAttribute("aria-pressed", String(active));
  button.setAttribute("aria-label", active ? "Stop recording" : "Start recording");
  button.title = active
    ? `Recording ${recording.name}: click to stop` + (recording.droppedFrames ? ` (${recording.droppedFrames} frames dropped)` : "")
    : "Record what the viewers see";
  const text = active ? formatTime(recording.elapsed) : "Rec";
  if (time.textContent !== text) time.textContent = text;
}

button.addEventListener("click", () => {
  const start = !recording?.active;
  button.disabled = true;
  const sent = send({ type: "record", action: start ? "start" : "stop" }, () => { button.disabled = false; });
  if (!sent) button.disabled = false;
});

on("state", ({ state }) => {
  recording = state.recording || null;
  renderRecord();
});

renderRecord();
