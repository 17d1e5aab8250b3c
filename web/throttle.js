// FilterCast page, the pace of dragged controls.

/// At most one parameter or seek message per this many ms while dragging (≤ 20 messages/s).
export const SEND_INTERVAL_MS = 50;

/// How long a control keeps showing what the user set when no state confirms it.
export const CONFIRM_TIMEOUT_MS = 3000;

/// Sends at most one message per `interval` ms; the newest value always goes out last. With
/// `merge`, values pushed while one waits are merged into it (`merge(older, newer)`).
export class Throttle {
  constructor(interval, merge) {
    /// The least time between two sends, ms.
    this.interval = interval;
    /// `merge(older, newer)`, or undefined: the newer value replaces the older.
    this.merge = merge;
    /// Sends a value: the one given with the last push.
    this.sendValue = undefined;
    /// The value waiting to be sent; undefined for none.
    this.value = undefined;
    /// performance.now() of the last send.
    this.last = -Infinity;
    /// The timeout of the next send (a setTimeout id; 0 for none).
    this.timer = 0;
  }
  /// Sends `value` with `sendValue(value)` now, or when the interval has passed.
  push(value, sendValue) {
    this.sendValue = sendValue;
    this.value = this.merge && this.value !== undefined ? this.merge(this.value, value) : value;
    if (!this.timer) this.fireWhenDue();
  }
  /// Fires now if the interval has passed, else arms a timer that checks again: Chromium may run a
  /// timeout a few ms early (it aligns wake-ups), so the timer's firing alone proves nothing.
  fireWhenDue() {
    const wait = this.last + this.interval - performance.now();
    if (wait <= 0) this.fire();
    else this.timer = setTimeout(() => { this.timer = 0; this.fireWhenDue(); }, Math.ceil(wait));
  }
  fire() {
    if (this.value === undefined) return;
    const value = this.value;
    this.value = undefined;
    this.last = performance.now();
    this.sendValue(value);
  }
  /// Whether a value waits to be sent.
  pending() { return this.value !== undefined; }
  cancel() {
    clearTimeout(this.timer);
    this.timer = 0;
    this.value = undefined;
  }
}
