// FilterCast page, the HTTP API: the token passed on to it, JSON fetched with it, and lists
// fetched one request at a time (library.js, sources.js).
import { authorizationHeaders } from "./access.js";
import { pageParameter } from "./helpers.js";

/// `path` with the page's own `?NAME=` (if it has one) passed on.
function passingOn(path, name) {
  const value = pageParameter(name);
  if (!value) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value)}`;
}

/// `path` with the page's ?token=, passed on to the HTTP API (servers run with --token).
export function withToken(path) {
  return passingOn(path, "token");
}

/// `path` of an endpoint that concerns one channel (its recordings) with the page's ?channel=:
/// the channel this page is on; none, the server's default channel.
export function inChannel(path) {
  return passingOn(path, "channel");
}

/// The token typed into the page (access.js), as fetch() headers; {} when there is none or the
/// page URL carries ?token= (which withToken passes on).
export function tabAuthorization() {
  if (pageParameter("token") !== null) return {};
  return authorizationHeaders();
}

/// GET `path` of the API as JSON; the Response, for its status, when it is not 200 (`ok` false).
export async function fetchJSON(path) {
  const response = await fetch(withToken(path), { cache: "no-store", headers: tabAuthorization() });
  if (!response.ok) return { ok: false, status: response.status, text: (await response.text()).trim() };
  return { ok: true, status: response.status, body: await response.json() };
}

/// `method` (PUT, DELETE) on `path` of the API, with `body` sent as JSON when given; the status
/// and, when it is not 2xx, the server's text (which names the problem).
export async function change(method, path, body) {
  const headers = { ...tabAuthorization(), ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
  const response = await fetch(withToken(path), {
    method, cache: "no-store", headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = (await response.text()).trim();
  return { ok: response.ok, status: response.status, text };
}

/// PUTs `file` to `path` of the API as its raw body; what to tell the user: `done`, or `what` and
/// the server's refusal (or that it was not sent).
export async function putFile(path, file, done, what) {
  try {
    const response = await fetch(withToken(path), { method: "PUT", body: file, headers: tabAuthorization() });
    return response.ok ? done : `${what}: ${(await response.text()).trim() || response.status}`;
  } catch {
    return `${what}: not sent`;
  }
}

/// `load` run one call at a time: a call while one runs makes one more run after it.
export function oneAtATime(load) {
  let running = false;
  let wanted = false;
  return async function run() {
    if (running) {
      wanted = true;
      return;
    }
    running = true;
    try {
      await load();
    } finally {
      running = false;
      if (wanted) {
        wanted = false;
        run();
      }
    }
  };
}
