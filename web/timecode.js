// FilterCast page, SMPTE timecode: a time as HH:MM:SS:FF at the source's frame rate — drop-frame
// (HH:MM:SS;FF) at 29.97 and 59.94, whose labels skip frame numbers 0 and 1 (0–3 at 59.94) at
// the start of every minute but each tenth so that the label keeps to the clock —, and what the
// "go to" field (#goto) takes: a timecode, m:ss or h:mm:ss (with decimals), or seconds.
// Pure functions: no element, no state.

/// How a rate counts frames: `nominal` frames a second in the labels, `dropped` label numbers
/// skipped a minute (0: non-drop). 23.976 counts as 24 (non-drop), 29.97 as 30 drop-frame,
/// 59.94 as 60 drop-frame; a rate not given as positive counts as 30.
export function timecodeCounting(fps) {
  const rate = Number.isFinite(fps) && fps > 0 ? fps : 30;
  const nominal = Math.max(1, Math.round(rate));
  const isNTSC = (nominal === 30 || nominal === 60) && Math.abs(rate - nominal * 1000 / 1001) < 0.005 * nominal / 30;
  return { rate, nominal, dropped: isNTSC ? nominal / 15 : 0 };
}

const two = (value) => String(value).padStart(2, "0");

/// The label of frame `frame` (0 for the first) at `fps`.
export function timecodeOfFrame(frame, fps) {
  const { nominal, dropped } = timecodeCounting(fps);
  let number = Math.max(0, Math.floor(frame));
  if (dropped > 0) {
    // Frames in ten minutes, and in each minute after a tenth's first: the labels skipped before
    // this frame are added back to its number.
    const perTen = nominal * 600 - dropped * 9;
    const perMinute = nominal * 60 - dropped;
    const tens = Math.floor(number / perTen);
    const rest = number % perTen;
    number += dropped * 9 * tens + (rest > dropped ? dropped * Math.floor((rest - dropped) / perMinute) : 0);
  }
  const frames = number % nominal;
  const seconds = Math.floor(number / nominal);
  const separator = dropped > 0 ? ";" : ":";
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}${separator}${two(frames)}`;
}

/// The label of the frame shown at `seconds` (frames start at multiples of 1/fps).
export function timecodeOf(seconds, fps) {
  const { rate } = timecodeCounting(fps);
  return timecodeOfFrame(Math.round((Number.isFinite(seconds) ? Math.max(0, seconds) : 0) * rate), fps);
}

/// The frame number a label `HH:MM:SS:FF` (or `;FF`) names at `fps`; throws naming the problem
/// when a field is out of range or the label is one drop-frame skips.
export function frameOfTimecode(hours, minutes, seconds, frames, fps) {
  const { nominal, dropped } = timecodeCounting(fps);
  if (minutes > 59 || seconds > 59) throw new Error("minutes and seconds go up to 59");
  if (frames >= nominal) throw new Error(`frames go up to ${nominal - 1} at ${nominal} frames a second`);
  if (dropped > 0 && seconds === 0 && minutes % 10 !== 0 && frames < dropped) {
    throw new Error(`drop-frame timecode skips frames 00–${two(dropped - 1)} at the start of minute ${minutes}`);
  }
  const totalMinutes = hours * 60 + minutes;
  return ((hours * 3600 + minutes * 60 + seconds) * nominal + frames) - dropped * (totalMinutes - Math.floor(totalMinutes / 10));
}

/// Seconds that `text` names at `fps`: `HH:MM:SS:FF` or `HH:MM:SS;FF` (a timecode: its frame's
/// start), `m:ss` or `h:mm:ss` (seconds may have decimals), or seconds (`75.5`). Throws naming
/// the problem when it is none of these.
export function parseTime(text, fps) {
  const value = String(text).trim();
  const timecode = /^(\d+):(\d{1,2}):(\d{1,2})[:;](\d{1,2})$/.exec(value);
  if (timecode) {
    const [hours, minutes, seconds, frames] = timecode.slice(1).map(Number);
    return frameOfTimecode(hours, minutes, seconds, frames, fps) / timecodeCounting(fps).rate;
  }
  const clock = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(value);
  if (clock) {
    const [hours, minutes, seconds] = [Number(clock[1] || 0), Number(clock[2]), Number(clock[3])];
    if ((clock[1] !== undefined && minutes > 59) || seconds >= 60) throw new Error("minutes and seconds go up to 59");
    return hours * 3600 + minutes * 60 + seconds;
  }
  if (/^\d+(?:\.\d*)?$|^\.\d+$/.test(value)) return Number(value);
  throw new Error("give a time as m:ss, h:mm:ss, HH:MM:SS:FF (timecode) or seconds");
}
