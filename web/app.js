// FilterCast viewer page: watches the shared session over WebSocket (protocol v1, see
// docs/PROTOCOL.md) and drives it — filter chain, parameters, play/pause, seek.
//
// No build step and nothing from other hosts. The server's Content-Security-Policy forbids inline
// scripts and styles and blob: images, so frames are decoded with createImageBitmap and drawn on a
// canvas, and every style lives in style.css.
"use strict";

(() => {
  const SUBPROTOCOL = "filtercast.v1";
  const MAGIC = 0x31464346; // "FCF1" read little-endian
  const HEADER_LENGTH = 32;
  /// At most one parameter or seek message per this many ms while dragging (≤ 20 messages/s).
  const SEND_INTERVAL_MS = 50;
  const SEEK_STEP_S = 5;
  const RECONNECT_FIRST_MS = 500;
  const RECONNECT_MAX_MS = 10000;
  const LATENCY_WINDOW = 30; // frames in the recent latency median
  const LATENCY_HISTORY_MAX = 10000;
  const TOAST_MS = 4000;
  const COMMAND_TIMEOUT_MS = 3000;
  /// How long a control keeps showing what the user set when no state confirms it.
  const CONFIRM_TIMEOUT_MS = 3000;
  /// A playing state this far past a seek's target can still be that seek's result.
  const SEEK_MATCH_PLAYING_S = 1;
  /// The most filters a chain holds (the protocol's limit).
  const CHAIN_MAX = 8;

  const CATEGORY_TITLES = {
    none: "None",
    colorAdjustment: "Color adjustment",
    colorEffect: "Color effects",
    blur: "Blur",
    sharpen: "Sharpen",
    stylize: "Stylize",
    distortion: "Distortion",
    other: "Other",
  };

  const ERROR_NAMES = {
    bad_json: "Bad message",
    unknown_type: "Unknown command",
    invalid_argument: "Invalid argument",
    unknown_filter: "Unknown filter",
    out_of_range: "Out of range",
    not_seekable: "Not seekable",
    too_large: "Message too large",
    unauthorized: "Not authorized",
    rate_limited: "Too many commands",
    forbidden: "Not allowed",
    not_found: "Not found",
    open_failed: "Cannot play",
    recording_failed: "Recording",
  };

  const $ = (id) => document.getElementById(id);
  const ui = {
    body: document.body,
    connection: $("connection"),
    sourceName: $("source-name"),
    stage: $("stage"),
    canvas: $("view"),
    liveBadge: $("live-badge"),
    signalBadge: $("signal-badge"),
    pausedMark: $("paused-mark"),
    placeholder: $("placeholder"),
    playPause: $("play-pause"),
    seek: $("seek"),
    time: $("time"),
    fullscreen: $("fullscreen"),
    filters: $("filters"),
    filterScroller: null,
    currentFilter: $("current-filter"),
    chain: $("chain"),
    chainAdd: $("chain-add"),
    params: $("params"),
    reset: $("reset"),
    statFps: $("stat-fps"),
    statLatency: $("stat-latency"),
    statResolution: $("stat-resolution"),
    statViewers: $("stat-viewers"),
    toast: $("toast"),
  };
  const context = ui.canvas.getContext("2d", { alpha: false });

  // ---- Public test hooks (the "testability contract" in docs/PROTOCOL.md) -------------------

  const stats = {
    connected: false,
    framesDrawn: 0,
    fps: 0,
    latencyMs: null,
    lastSeq: null,
    lastPts: null,
    width: 0,
    height: 0,
  };
  const latencyHistory = [];

  // ---- Session model ---------------------------------------------------------------------

  let catalog = []; // hello.filters, "none" first
  let state = null; // the latest state the server broadcast
  let socket = null;
  let reconnectAttempt = 0;
  let reconnectTimer = 0;
  let countdownTimer = 0;
  let nextCommandId = 1;
  const inFlight = new Map(); // command id → callback(ok) for commands awaiting ack/error

  window.filtercast = {
    version: 1,
    stats,
    latencyHistory,
    get state() { return state; },
    get filters() { return catalog; },
    formatTime,
    // For library.js and access.js: commands, toasts, and events on document: "filtercast:state"
    // per state, "filtercast:hello" per connection ({access}), "filtercast:error" per error.
    send: (message, done) => send(message, done),
    toast: (text) => toast(text),
  };

  // ---- Connection --------------------------------------------------------------------------

  function socketURL() {
    const url = new URL("ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.hash = "";
    url.search = "";
    const token = new URLSearchParams(location.search).get("token");
    if (token) url.searchParams.set("token", token);
    return url.href;
  }

  function connect() {
    clearTimeout(reconnectTimer);
    clearInterval(countdownTimer);
    setConnection(reconnectAttempt === 0 ? "connecting" : "reconnecting", "Connecting…");
    let ws;
    try {
      ws = new WebSocket(socketURL(), SUBPROTOCOL);
    } catch (error) {
      scheduleReconnect(String(error.message || error));
      return;
    }
    ws.binaryType = "arraybuffer";
    socket = ws;
    ws.onmessage = (event) => {
      if (ws !== socket) return;
      if (typeof event.data === "string") receiveText(event.data);
      else receiveFrame(event.data, ws);
    };
    ws.onclose = (event) => {
      if (ws !== socket) return;
      socket = null;
      disconnected(event.reason || "");
    };
    // An error is always followed by a close event, which does the work.
    ws.onerror = () => {};
  }

  function disconnected(reason) {
    stats.connected = false;
    pendingFrame = null;
    inFlight.clear();
    cancelParamEdits();
    seekThrottle.cancel();
    seekIntent = null;
    scrubbing = false;
    updateStatsText();
    scheduleReconnect(reason);
  }

  /// Exponential backoff: 0.5 s, 1 s, 2 s, … up to 10 s, with a little jitter so that many
  /// pages do not all come back at the same instant.
  function scheduleReconnect(reason) {
    const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** reconnectAttempt);
    const delay = Math.round(base * (0.85 + Math.random() * 0.3));
    reconnectAttempt += 1;
    const due = performance.now() + delay;
    const show = () => {
      const seconds = Math.max(0, Math.ceil((due - performance.now()) / 1000));
      const text = `Reconnecting in ${seconds} s…`;
      setConnection("reconnecting", reason ? `${text} (${reason})` : text);
    };
    show();
    countdownTimer = setInterval(show, 250);
    reconnectTimer = setTimeout(connect, delay);
  }

  function setConnection(kind, text) {
    ui.connection.dataset.state = kind;
    if (ui.connection.textContent !== text) ui.connection.textContent = text;
  }

  /// Sends a command; `done(ok)` runs when the server answers it (ack or error).
  function send(message, done) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      if (message.type !== "frameAck") toast("Not connected: the command was not sent");
      return false;
    }
    if (done) {
      const id = nextCommandId++;
      message.id = id;
      inFlight.set(id, done);
      // A command dropped without an answer that names it (rate_limited carries no id) must
      // not leave the page waiting forever.
      setTimeout(() => settle(id, false), COMMAND_TIMEOUT_MS);
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  // ---- Text messages -----------------------------------------------------------------------

  function receiveText(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return; // not for us
    }
    if (!message || typeof message !== "object") return;
    switch (message.type) {
      case "hello": return receiveHello(message);
      case "state": return receiveState(message);
      case "error": return receiveError(message);
      case "ack": return settle(message.id, true);
      default: return; // unknown types are ignored (forward compatibility)
    }
  }

  function receiveHello(hello) {
    if (hello.version !== 1) {
      const ws = socket;
      socket = null; // no reconnection: this page cannot talk to this server
      ws.close();
      stats.connected = false;
      setConnection("error", `Unsupported protocol version ${hello.version}`);
      return;
    }
    reconnectAttempt = 0;
    stats.connected = true;
    setConnection("live", "Connected");
    catalog = groupCatalog(Array.isArray(hello.filters) ? hello.filters : []);
    buildPicker();
    state = null; // rebuild everything from this server's state
    // For access.js, before the state: what this connection may do (servers before `access`
    // allowed everything or said so with `unauthorized` errors).
    const access = ["control", "watch", "none"].includes(hello.access) ? hello.access : "control";
    document.dispatchEvent(new CustomEvent("filtercast:hello", { detail: { access } }));
    if (hello.state) receiveState(hello.state);
  }

  function receiveError(error) {
    const name = ERROR_NAMES[error.code] || error.code || "Error";
    toast(error.message ? `${name}: ${error.message}` : name);
    document.dispatchEvent(new CustomEvent("filtercast:error", { detail: { error } }));
    if (error.id !== undefined) settle(error.id, false);
  }

  function settle(id, ok) {
    const done = inFlight.get(id);
    if (!done) return;
    inFlight.delete(id);
    done(ok);
  }

  // ---- State → page ------------------------------------------------------------------------

  function receiveState(next) {
    const previous = state;
    state = next;
    const source = next.source || {};
    if (!previous || previous.source?.name !== source.name) {
      ui.sourceName.textContent = source.name || "";
      ui.sourceName.title = source.name || "";
    }
    if (stats.framesDrawn === 0 && source.width > 0 && source.height > 0 &&
        (ui.canvas.width !== source.width || ui.canvas.height !== source.height)) {
      ui.canvas.width = source.width; // the right shape before the first frame arrives
      ui.canvas.height = source.height;
    }
    renderPlayback();
    renderSignal(source);
    renderFilter();
    document.dispatchEvent(new CustomEvent("filtercast:state", { detail: { state: next, previous } }));
    ui.statViewers.textContent = Number.isFinite(next.viewers) ? String(next.viewers) : "–";
  }

  function isLive() {
    return !state || state.duration === null || state.duration === undefined || state.source?.seekable === false;
  }

  /** A live source that failed: "No signal — retrying in N s" (or "reconnecting…"), the reason as tooltip. */
  function renderSignal(source) {
    const offline = source.online === false;
    ui.signalBadge.hidden = !offline;
    ui.body.dataset.signal = offline ? "lost" : "ok";
    if (!offline) return;
    const retryIn = Number.isFinite(source.retryIn) ? Math.ceil(source.retryIn) : null;
    ui.signalBadge.textContent = retryIn === null ? "No signal — reconnecting…" : `No signal — retrying in ${retryIn} s`;
    ui.signalBadge.title = source.reason || "";
  }

  function renderPlayback() {
    const playing = !!state.playing;
    ui.body.dataset.playing = String(playing);
    ui.playPause.setAttribute("aria-label", playing ? "Pause" : "Play");
    ui.pausedMark.hidden = playing;
    const live = isLive();
    ui.body.dataset.live = String(live);
    ui.liveBadge.hidden = !live;
    ui.seek.hidden = live;
    let shown = state.position;
    if (!live) {
      ui.seek.max = String(state.duration);
      if (seekHeld()) shown = Number(ui.seek.value);
      else ui.seek.value = String(state.position);
    }
    renderTime(shown);
  }

  /// Whether the seek slider shows the user's position rather than the server's: while it is
  /// held, while a seek waits to be sent, and until a state shows the last seek's result.
  function seekHeld() {
    if (scrubbing || seekThrottle.pending()) return true;
    if (!seekIntent) return false;
    if (seekConfirmed(seekIntent.position) || performance.now() - seekIntent.since > CONFIRM_TIMEOUT_MS) {
      seekIntent = null;
    }
    return seekIntent !== null;
  }

  /// Whether the state shows the result of a seek to `target`: the server shows the first frame
  /// at or after it (the last frame past the end), then plays on from there. The position of an
  /// earlier seek, still on its way while the user scrubs, does not count.
  function seekConfirmed(target) {
    if (!state) return false;
    const frame = 1 / (state.source?.fps > 0 ? state.source.fps : 30);
    const after = state.position - target;
    return after >= -1.5 * frame && after <= (state.playing ? SEEK_MATCH_PLAYING_S : 1.5 * frame);
  }

  function renderTime(position) {
    let text;
    if (isLive()) {
      text = formatTime(position);
    } else {
      const long = state.duration >= 3600;
      text = `${formatTime(position, long)} / ${formatTime(state.duration, long, true)}`;
    }
    if (ui.time.textContent !== text) ui.time.textContent = text;
  }

  /// mm:ss, or h:mm:ss past an hour (or when `long`, so both sides of "a / b" look alike).
  function formatTime(seconds, long = false, round = false) {
    let total = Number.isFinite(seconds) ? Math.max(0, seconds) : 0;
    total = round ? Math.round(total) : Math.floor(total);
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const secs = total % 60;
    const two = (value) => String(value).padStart(2, "0");
    return hours > 0 || long ? `${hours}:${two(minutes)}:${two(secs)}` : `${two(minutes)}:${two(secs)}`;
  }

  function descriptorOf(name) {
    return catalog.find((filter) => filter.name === name);
  }

  /// "none" first, then the filters grouped by category: the categories in the order they first
  /// appear in the catalog, each category's filters in catalog order (a stable partition, so a
  /// catalog already listed by category keeps its order). The buttons follow this order.
  function groupCatalog(filters) {
    const none = filters.filter((filter) => filter.name === "none");
    const groups = new Map();
    for (const filter of filters) {
      if (filter.name === "none") continue;
      const key = categoryOf(filter);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(filter);
    }
    return [...none, ...[...groups.values()].flat()];
  }

  function categoryOf(filter) {
    return typeof filter.category === "string" && filter.category ? filter.category : "other";
  }

  /// "colorEffect" → "Color effects"; unknown categories get a readable form of their name.
  function categoryTitle(category) {
    if (CATEGORY_TITLES[category]) return CATEGORY_TITLES[category];
    const words = category.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function filterButton(filter) {
    const label = filter.label || filter.name;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.dataset.filter = filter.name;
    button.textContent = label;
    button.title = label;
    button.setAttribute("aria-label", `Filter: ${label}`);
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", () => chooseFilter(filter.name));
    return button;
  }

  /// "None" on its own row, always in sight; below it the other filters under a small heading per
  /// category, in a box that scrolls when the catalog is long.
  function buildPicker() {
    const pinned = document.createElement("div");
    pinned.className = "chips chips-pinned";
    const scroller = document.createElement("div");
    scroller.className = "filter-groups";
    const groups = new Map();
    for (const filter of catalog) {
      if (filter.name === "none") {
        pinned.append(filterButton(filter));
        continue;
      }
      const category = categoryOf(filter);
      let chips = groups.get(category);
      if (!chips) {
        const group = document.createElement("div");
        group.className = "filter-group";
        group.dataset.category = category;
        const title = document.createElement("h3");
        title.className = "filter-group-title";
        title.id = `filter-group-${groups.size}`;
        title.textContent = categoryTitle(category);
        chips = document.createElement("div");
        chips.className = "chips";
        chips.setAttribute("role", "group");
        chips.setAttribute("aria-labelledby", title.id);
        group.append(title, chips);
        scroller.append(group);
        groups.set(category, chips);
      }
      chips.append(filterButton(filter));
    }
    ui.filters.replaceChildren(...[pinned, scroller].filter((part) => part.childElementCount > 0));
    ui.filterScroller = scroller;
    ui.params.replaceChildren();
    ui.chain.replaceChildren();
    shownFilter = null;
    shownChain = null;
  }

  // ---- Filter chain ------------------------------------------------------------------------

  let shownFilter = null; // the filter the picker last highlighted
  let shownChain = null; // the link names the chips and sliders were built for
  let selectedLink = 0; // the link the picker edits (clamped to the chain when shown)

  /// The current chain, [{name, params}] in the order the filters apply; [] for no filter. A
  /// server without chains has its single filter.
  function currentChain() {
    if (!state) return [];
    if (Array.isArray(state.chain)) return state.chain;
    return state.filter && state.filter.name !== "none" ? [state.filter] : [];
  }

  function pickedLink(chain) {
    return Math.max(0, Math.min(selectedLink, chain.length - 1));
  }

  function labelOf(name) {
    return descriptorOf(name)?.label || name;
  }

  function renderFilter() {
    const chain = currentChain();
    const picked = chain.length ? chain[pickedLink(chain)].name : "none";
    let current = null;
    for (const button of ui.filters.querySelectorAll("[data-filter]")) {
      const pressed = button.dataset.filter === picked;
      button.setAttribute("aria-pressed", String(pressed));
      if (pressed) current = button;
    }
    const title = chain.length ? chain.map((link) => labelOf(link.name)).join(" → ") : labelOf("none");
    if (ui.currentFilter.textContent !== title) ui.currentFilter.textContent = title;
    if (shownFilter !== picked) {
      shownFilter = picked;
      if (current) revealInPicker(current);
    }
    const names = chain.map((link) => link.name).join("|");
    if (shownChain !== names) {
      shownChain = names;
      buildChain(chain);
    }
    for (const button of ui.chain.querySelectorAll("[data-link]")) {
      button.setAttribute("aria-pressed", String(chain.length > 1 && Number(button.dataset.link) === pickedLink(chain)));
    }
    const full = chain.length >= CHAIN_MAX;
    ui.chainAdd.disabled = chain.length === 0 || full;
    ui.chainAdd.title = full ? `A chain holds at most ${CHAIN_MAX} filters`
      : chain.length ? `Add ${labelOf(picked)} after the last filter, then pick what it should be` : "Pick a filter first";
    syncSliders();
  }

  /// The chips of the links (each selects its link for the picker, and removes it with its ×
  /// or Delete) and every link's sliders. Keeps the keyboard focus on the chips when it was there.
  function buildChain(chain) {
    cancelParamEdits();
    paramThrottles = chain.map((_, index) => paramThrottleFor(index));
    const focused = ui.chain.contains(document.activeElement) ? Number(document.activeElement.dataset.link ??
      document.activeElement.dataset.linkRemove) : null;
    ui.chain.replaceChildren(...chain.map((link, index) => linkChip(link.name, index, chain.length)));
    ui.chain.hidden = chain.length === 0;
    ui.params.replaceChildren(...chain.flatMap((link, index) => linkSliders(link.name, index, chain.length)));
    ui.reset.disabled = !chain.some((link) => (descriptorOf(link.name)?.params || []).length > 0);
    if (focused !== null) {
      const target = ui.chain.querySelector(`[data-link="${Math.min(focused, chain.length - 1)}"]`)
        || ui.filters.querySelector('[aria-pressed="true"]');
      target?.focus();
    }
  }

  function linkChip(name, index, count) {
    const label = labelOf(name);
    const item = document.createElement("li");
    item.className = "link";
    const select = document.createElement("button");
    select.type = "button";
    select.className = "link-select";
    select.dataset.link = String(index);
    select.textContent = count > 1 ? `${index + 1}. ${label}` : label;
    select.title = count > 1 ? `Filter ${index + 1}: the picker changes it` : label;
    select.setAttribute("aria-label", `Filter ${index + 1} of ${count}: ${label}`);
    select.setAttribute("aria-pressed", "false");
    select.addEventListener("click", () => {
      selectedLink = index;
      renderFilter();
    });
    select.addEventListener("keydown", (event) => {
      if (event.key !== "Delete" && event.key !== "Backspace") return;
      event.preventDefault();
      removeLink(index);
    });
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "link-remove";
    remove.dataset.linkRemove = String(index);
    remove.textContent = "×";
    remove.title = "Remove from the chain";
    remove.setAttribute("aria-label", `Remove ${label} (filter ${index + 1}) from the chain`);
    remove.addEventListener("click", () => removeLink(index));
    item.append(select, remove);
    return item;
  }

  /// A link's sliders, under its name when the chain has several links.
  function linkSliders(name, index, count) {
    const params = descriptorOf(name)?.params || [];
    const rows = params.map((param) => paramRow(param, name, index));
    if (count > 1 && rows.length) {
      const title = document.createElement("h3");
      title.className = "link-params-title";
      title.textContent = `${index + 1}. ${labelOf(name)}`;
      rows.unshift(title);
    }
    return rows;
  }

  /// Scrolls the picker's own box (never the page) so that `button` is in sight, with its
  /// category heading when it is on the first row of its group.
  function revealInPicker(button) {
    const scroller = ui.filterScroller;
    if (!scroller || !scroller.contains(button) || scroller.scrollHeight <= scroller.clientHeight) return;
    const margin = 6;
    const box = scroller.getBoundingClientRect();
    const chip = button.getBoundingClientRect();
    const row = button.parentElement.getBoundingClientRect();
    const group = button.closest(".filter-group")?.getBoundingClientRect();
    const top = group && chip.top - row.top < 2 ? group.top : chip.top;
    if (top < box.top + margin) scroller.scrollTop += top - box.top - margin;
    else if (chip.bottom > box.bottom - margin) scroller.scrollTop += chip.bottom - box.bottom + margin;
  }

  /// One slider of link `index`; link 0's ids are `param-FILTER-PARAM` as before chains.
  function paramRow(param, name, index) {
    const row = document.createElement("div");
    row.className = "param";
    const id = index === 0 ? `param-${name}-${param.name}` : `param-${index}-${name}-${param.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = param.label || param.name;
    const slider = document.createElement("input");
    slider.type = "range";
    slider.id = id;
    slider.dataset.param = param.name;
    slider.dataset.link = String(index);
    const min = param.sliderMin ?? param.min;
    const max = param.sliderMax ?? param.max;
    slider.min = String(min);
    slider.max = String(max);
    slider.step = param.step > 0 ? String(param.step) : "any";
    slider.setAttribute("aria-label", param.label || param.name);
    const output = document.createElement("output");
    output.htmlFor = id;
    output.className = "param-value";
    slider.addEventListener("input", () => editParam(param, index, slider, output, false));
    slider.addEventListener("change", () => editParam(param, index, slider, output, true));
    slider.addEventListener("pointerdown", () => { slider.dataset.dragging = "true"; });
    const stopDragging = () => {
      if (slider.dataset.dragging !== "true") return;
      delete slider.dataset.dragging;
      queueMicrotask(syncSliders);
    };
    slider.addEventListener("pointerup", stopDragging);
    slider.addEventListener("pointercancel", stopDragging);
    slider.addEventListener("lostpointercapture", stopDragging);
    row.append(label, slider, output);
    return row;
  }

  /// Shows the server's parameter values, except on a slider the user is moving (it would jump
  /// back under the finger) or whose last value the server has not shown yet.
  function syncSliders() {
    if (!state) return;
    const chain = currentChain();
    for (const slider of ui.params.querySelectorAll("input[data-param]")) {
      const index = Number(slider.dataset.link);
      const link = chain[index];
      const values = link?.params || {};
      const name = slider.dataset.param;
      const param = descriptorOf(link?.name)?.params.find((candidate) => candidate.name === name);
      if (!param || !(name in values) || paramHeld(slider, index, name, values[name])) continue;
      slider.value = String(values[name]);
      slider.parentElement.querySelector("output").textContent = formatValue(param, values[name]);
    }
  }

  function paramHeld(slider, index, name, serverValue) {
    if (slider.dataset.dragging === "true" || paramThrottles[index]?.pending()) return true;
    const key = `${index}:${name}`;
    const intent = paramIntents.get(key);
    if (!intent) return false;
    const confirmed = Math.abs(serverValue - intent.value) <= 1e-9 * Math.max(1, Math.abs(intent.value));
    if (confirmed || performance.now() - intent.since > CONFIRM_TIMEOUT_MS) paramIntents.delete(key);
    return paramIntents.has(key);
  }

  function formatValue(param, value) {
    if (!Number.isFinite(value)) return "";
    if (param.type === "integer") return String(Math.round(value));
    if (param.type === "angle") return `${Math.round((value * 180) / Math.PI)}°`;
    const step = param.step > 0 ? param.step : 0.01;
    const decimals = Math.min(4, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
    return value.toFixed(decimals);
  }

  // ---- Controls → server -------------------------------------------------------------------

  /// Sends at most one message per `interval` ms; the newest value always goes out last.
  class Throttle {
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
    pending() { return this.value !== undefined; }
    cancel() {
      clearTimeout(this.timer);
      this.timer = 0;
      this.value = undefined;
    }
  }

  // What the user set and the server has not shown yet (see paramHeld and seekHeld).
  const paramIntents = new Map(); // "link:parameter" → {value, since}
  let paramThrottles = []; // one per link: its sliders' setParams
  let seekIntent = null; // {position, since}
  let scrubbing = false; // the seek slider is held

  function paramThrottleFor(index) {
    return new Throttle(SEND_INTERVAL_MS, (params) => {
      const now = performance.now();
      for (const [name, value] of Object.entries(params)) paramIntents.set(`${index}:${name}`, { value, since: now });
      // Refused (or unanswered): show the server's values again.
      send({ type: "setParams", index, params }, (ok) => {
        if (ok) return;
        for (const name of Object.keys(params)) paramIntents.delete(`${index}:${name}`);
        syncSliders();
      });
    }, (older, newer) => ({ ...older, ...newer }));
  }

  function cancelParamEdits() {
    for (const throttle of paramThrottles) throttle.cancel();
    paramIntents.clear();
  }

  function editParam(param, index, slider, output, isChange) {
    let value = Number(slider.value);
    if (param.type === "integer") value = Math.round(value);
    output.textContent = formatValue(param, value);
    // `change` repeats the last `input` value when the slider is let go: send it once.
    if (isChange && slider.dataset.lastInput === String(value)) return;
    slider.dataset.lastInput = String(value);
    paramThrottles[index]?.push({ [param.name]: value });
  }

  /// Makes `links` ([{name, params?}]) the session's chain; none when empty.
  function sendChain(links) {
    cancelParamEdits();
    if (links.length === 0) send({ type: "setFilter", name: "none" });
    else send({ type: "setFilter", chain: links.map(({ name, params }) => (params ? { name, params } : { name })) });
  }

  /// The picker: with one filter or none it switches filters (`setFilter {name}`); in a longer
  /// chain it replaces the picked link, and "None" removes it.
  function chooseFilter(name) {
    const chain = currentChain();
    if (chain.length <= 1) {
      cancelParamEdits();
      send({ type: "setFilter", name });
      return;
    }
    const index = pickedLink(chain);
    if (name === "none") {
      removeLink(index);
      return;
    }
    sendChain(chain.map((link, i) => (i === index ? { name } : link)));
  }

  /// "+": appends the picked filter as a new link, which the picker then edits.
  function addToChain() {
    const chain = currentChain();
    if (chain.length === 0 || chain.length >= CHAIN_MAX) return;
    selectedLink = chain.length;
    sendChain([...chain, { name: chain[pickedLink(chain)].name }]);
  }

  function removeLink(index) {
    const chain = currentChain();
    if (index >= chain.length) return;
    if (selectedLink > index) selectedLink -= 1;
    sendChain(chain.filter((_, i) => i !== index));
  }

  /// Every link's parameters back to their defaults.
  function resetParams() {
    const chain = currentChain();
    if (chain.length <= 1) {
      cancelParamEdits();
      send({ type: "setFilter", name: chain[0]?.name || "none" });
      return;
    }
    sendChain(chain.map(({ name }) => ({ name })));
  }

  function togglePlay() {
    if (!state) return;
    send({ type: state.playing ? "pause" : "play" });
  }

  const seekThrottle = new Throttle(SEND_INTERVAL_MS, (position) => {
    seekIntent = { position, since: performance.now() };
    send({ type: "seek", position }, (ok) => {
      if (ok || !seekIntent || seekIntent.position !== position) return;
      seekIntent = null; // refused: back to the server's position
      if (state) renderPlayback();
    });
  });

  function seekTo(position) {
    if (!state || isLive()) return;
    const target = Math.min(Math.max(0, position), state.duration);
    ui.seek.value = String(target);
    renderTime(target);
    seekThrottle.push(target);
  }

  function seekBy(delta) {
    if (!state || isLive()) return;
    seekTo((seekHeld() ? Number(ui.seek.value) : state.position) + delta);
  }

  ui.seek.addEventListener("pointerdown", () => { scrubbing = true; });
  const stopScrubbing = () => {
    scrubbing = false;
    if (state) queueMicrotask(renderPlayback);
  };
  ui.seek.addEventListener("pointerup", stopScrubbing);
  ui.seek.addEventListener("pointercancel", stopScrubbing);
  ui.seek.addEventListener("lostpointercapture", stopScrubbing);
  let lastSeekInput = null;
  ui.seek.addEventListener("input", () => {
    lastSeekInput = Number(ui.seek.value);
    seekTo(lastSeekInput);
  });
  // `change` repeats the last `input` value when the slider is let go: send it once.
  ui.seek.addEventListener("change", () => {
    if (Number(ui.seek.value) !== lastSeekInput) seekTo(Number(ui.seek.value));
  });

  ui.playPause.addEventListener("click", togglePlay);
  ui.canvas.addEventListener("click", togglePlay);
  ui.reset.addEventListener("click", resetParams);
  ui.chainAdd.addEventListener("click", addToChain);

  // ---- Keyboard ----------------------------------------------------------------------------

  // A button or link clicked with a pointer gives up the focus it took, so that space goes on
  // meaning play/pause instead of clicking it again (a filter chip would re-apply its filter).
  // Activated from the keyboard (`detail` 0) it keeps the focus, and space activates it. The
  // chain's chips are left alone: after a removal the focus deliberately stays on the chain.
  document.addEventListener("click", (event) => {
    const control = event.target instanceof Element ? event.target.closest("button, a[href]") : null;
    if (!control || event.detail === 0 || ui.chain.contains(control)) return;
    if (document.activeElement === control) control.blur();
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const target = event.target;
    const tag = target?.tagName;
    const isRange = tag === "INPUT" && target.type === "range";
    const typing = (tag === "INPUT" && !isRange) || tag === "TEXTAREA" || tag === "SELECT" || target?.isContentEditable;
    if (typing) return;
    if (event.key === " " || event.code === "Space") {
      if (tag === "BUTTON" || tag === "A") return; // space activates the focused control
      event.preventDefault();
      togglePlay();
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (isRange && target !== ui.seek) return; // parameter sliders move themselves
      if (isLive()) return;
      event.preventDefault();
      seekBy(event.key === "ArrowLeft" ? -SEEK_STEP_S : SEEK_STEP_S);
    } else if ((event.key === "f" || event.key === "F") && !event.shiftKey) {
      event.preventDefault();
      toggleFullscreen();
    }
  });

  // ---- Fullscreen --------------------------------------------------------------------------

  function fullscreenElement() {
    return document.fullscreenElement || document.webkitFullscreenElement || null;
  }

  function toggleFullscreen() {
    if (fullscreenElement()) {
      (document.exitFullscreen || document.webkitExitFullscreen).call(document);
      return;
    }
    const request = ui.stage.requestFullscreen || ui.stage.webkitRequestFullscreen;
    if (!request) return;
    const result = request.call(ui.stage);
    if (result && typeof result.catch === "function") {
      result.catch((error) => toast(`Fullscreen is not available: ${error.message || error}`));
    }
  }

  function fullscreenChanged() {
    const on = !!fullscreenElement();
    ui.fullscreen.setAttribute("aria-label", on ? "Exit fullscreen" : "Fullscreen");
    ui.body.dataset.fullscreen = String(on);
  }

  if (!(document.fullscreenEnabled || document.webkitFullscreenEnabled)) ui.fullscreen.hidden = true;
  ui.fullscreen.addEventListener("click", toggleFullscreen);
  document.addEventListener("fullscreenchange", fullscreenChanged);
  document.addEventListener("webkitfullscreenchange", fullscreenChanged);

  // ---- Frames ------------------------------------------------------------------------------

  let decoding = false;
  let pendingFrame = null; // the newest frame that arrived while another one was decoding
  let framesDropped = 0;
  const recentLatencies = [];
  const drawTimes = [];

  function receiveFrame(buffer, ws) {
    if (buffer.byteLength < HEADER_LENGTH) return;
    const view = new DataView(buffer);
    const headerLength = view.getUint16(4, true);
    if (view.getUint32(0, true) !== MAGIC || headerLength < HEADER_LENGTH || headerLength > buffer.byteLength) return;
    const frame = {
      ws,
      flags: view.getUint16(6, true),
      seq: Number(view.getBigUint64(8, true)),
      pts: Number(view.getBigInt64(16, true)) / 1e6,
      sentAt: Number(view.getBigInt64(24, true)) / 1000, // ms since the epoch, like Date.now()
      jpeg: new Uint8Array(buffer, headerLength),
    };
    if (decoding || document.hidden) {
      if (pendingFrame) framesDropped += 1;
      pendingFrame = frame; // only the newest waiting frame is kept
      return;
    }
    decode(frame);
  }

  // A hidden tab decodes nothing and acknowledges nothing, so the server stops sending to it
  // once the window is full; when it shows again, the newest frame is drawn and acknowledged.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && !decoding && pendingFrame) {
      const next = pendingFrame;
      pendingFrame = null;
      decode(next);
    }
  });

  async function decode(frame) {
    decoding = true;
    try {
      const bitmap = await createImageBitmap(new Blob([frame.jpeg], { type: "image/jpeg" }));
      if (pendingFrame && pendingFrame.ws === frame.ws) {
        bitmap.close(); // a newer frame is already here: show that one instead
        framesDropped += 1;
      } else {
        draw(bitmap, frame);
      }
    } catch {
      acknowledge(frame); // undecodable: skip it, but keep the flow going
    } finally {
      decoding = false;
      if (pendingFrame && !document.hidden) {
        const next = pendingFrame;
        pendingFrame = null;
        decode(next);
      }
    }
  }

  function draw(bitmap, frame) {
    if (ui.canvas.width !== bitmap.width || ui.canvas.height !== bitmap.height) {
      ui.canvas.width = bitmap.width;
      ui.canvas.height = bitmap.height;
    }
    context.drawImage(bitmap, 0, 0);
    bitmap.close();
    const now = Date.now();
    if (stats.framesDrawn === 0) ui.placeholder.hidden = true;
    stats.framesDrawn += 1;
    stats.lastSeq = frame.seq;
    stats.lastPts = frame.pts;
    stats.width = ui.canvas.width;
    stats.height = ui.canvas.height;
    const latency = now - frame.sentAt;
    recentLatencies.push(latency);
    if (recentLatencies.length > LATENCY_WINDOW) recentLatencies.shift();
    latencyHistory.push(latency);
    if (latencyHistory.length > LATENCY_HISTORY_MAX) latencyHistory.splice(0, latencyHistory.length - LATENCY_HISTORY_MAX);
    stats.latencyMs = median(recentLatencies);
    drawTimes.push(performance.now());
    acknowledge(frame);
  }

  function acknowledge(frame) {
    if (frame.ws === socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "frameAck", seq: frame.seq }));
    }
  }

  function median(values) {
    if (values.length === 0) return null;
    const sorted = values.slice().sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  // ---- Status line -------------------------------------------------------------------------

  function updateStatsText() {
    const now = performance.now();
    while (drawTimes.length && now - drawTimes[0] > 1000) drawTimes.shift();
    stats.fps = drawTimes.length;
    ui.statFps.textContent = stats.connected ? `${stats.fps} fps` : "–";
    ui.statLatency.textContent = stats.connected && stats.latencyMs !== null ? `${Math.round(stats.latencyMs)} ms` : "–";
    ui.statResolution.textContent = stats.width ? `${stats.width}×${stats.height}` : "–";
    if (!stats.connected) ui.statViewers.textContent = "–";
  }

  setInterval(() => {
    updateStatsText();
    // A control stops showing the user's value when a drag ends, a throttled value goes out or
    // a confirmation times out — not only when a state arrives (none does while paused).
    if (state) {
      renderPlayback();
      syncSliders();
    }
  }, 250);

  // ---- Toast -------------------------------------------------------------------------------

  let toastTimer = 0;
  function toast(text) {
    ui.toast.textContent = text;
    ui.toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { ui.toast.hidden = true; }, TOAST_MS);
  }
  ui.toast.addEventListener("click", () => { ui.toast.hidden = true; });

  connect();
})();
