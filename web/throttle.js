// FilterCast page, the pace of dragged controls.

/// At most one parameter or seek message per this many ms while dragging (≤ 20 messages/s).
export const SEND_INTERVAL_MS = 50;

/// How long a control keeps showing what the user set when no state confirms it.
export const CONFIRM_TIMEOUT_MS = 3000;

/// Sends at most one message per `interval` ms; the newest value always goes out last. With
/// `merge`, values pushed while one waits are merged into it (`merge(older, newer)`).
export class Throttle {
  constructor(interval, sendValue, merge) {
    this.interval = interval;
    this.sendValue = sendValue;
    this.merge = merge;
    this.value = undefined;
    this.last = -Infinity;
    this.timer = 0;
  }
  push(value) {
    this.value = this.merge && this.value !== undefined ? this.merge(this.value, value) : value;
    if (this.timer) return;
    const wait = this.last + this.interval - performance.now();
    if (wait <= 0) this.fire();
    else this.timer = setTimeout(() => { this.timer = 0; this.fire(); }, wait);
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
