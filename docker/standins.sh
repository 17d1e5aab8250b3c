#!/usr/bin/env bash
# Local stand-ins for the two base images docker/Dockerfile names, for a machine that cannot pull
# them: `debian:bookworm-slim` from debootstrap, and `swift:6.1-bookworm` from that plus this
# machine's Swift toolchain, both tagged with the official names (docker.io/library/…) so that
# the real Dockerfile builds unchanged with `--pull=never`. An image already present is kept
# (delete it with `podman rmi` to rebuild); FORCE=1 rebuilds both.
#
# Environment: SWIFT_TOOLCHAIN (default: the toolchain of the `swift` on PATH, e.g. /opt/swift),
# CONTAINERS_CONF / CONTAINERS_REGISTRIES_CONF as set by docker/test.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

DEBIAN_IMAGE=docker.io/library/debian:bookworm-slim
SWIFT_IMAGE=docker.io/library/swift:6.1-bookworm

log() { printf 'standins: %s\n' "$*" >&2; }

have_image() { [ "${FORCE:-0}" != 1 ] && podman image exists "$1"; }

# The Debian archive and security URIs this machine's apt uses (so a local mirror or proxy
# configured for apt serves the stand-ins too), as "URI SUITE" lines.
apt_repositories() {
    apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' \
        | awk '$2 ~ /^bookworm(-updates|-security)?$/' | sort -u
}

# debian:bookworm-slim: debootstrap's minbase (the same essential + apt set the official slim
# image has), apt sources as deb822 like the official image, docs and apt lists left out.
build_debian() {
    local repos mirror rootfs
    repos="$(apt_repositories)"
    mirror="$(awk '$2 == "bookworm" { print $1; exit }' <<<"$repos")"
    [ -n "$mirror" ] || { log "no bookworm repository in this machine's apt sources"; exit 1; }
    rootfs="$(mktemp -d /tmp/filtercast-debootstrap.XXXXXX)"
    trap 'rm -rf "$rootfs"' RETURN
    log "debootstrap bookworm from $mirror"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >/dev/null
    rm -f "$rootfs/etc/apt/sources.list"
    while read -r uri suite; do
        printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n' \
            "$uri" "$suite"
    done <<<"$repos" >"$rootfs/etc/apt/sources.list.d/debian.sources"
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
        "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
    tar -C "$rootfs" -c . | podman import -q \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' - "$DEBIAN_IMAGE" >/dev/null
    log "made $DEBIAN_IMAGE"
}

# swift:6.1-bookworm: the official image's build dependencies on that Debian, and the toolchain
# under /usr (where the official image unpacks it), so `swift` is on PATH; less the parts a
# package build never uses (swift-standin.containerignore).
build_swift() {
    local toolchain
    toolchain="${SWIFT_TOOLCHAIN:-$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")}"
    [ -x "$toolchain/usr/bin/swift" ] || { log "no Swift toolchain at $toolchain (set SWIFT_TOOLCHAIN)"; exit 1; }
    log "swift stand-in from $toolchain"
    podman build --pull=never --format docker -q -f "$here/swift-standin.Containerfile" \
        --ignorefile "$here/swift-standin.containerignore" -t "$SWIFT_IMAGE" "$toolchain" >/dev/null
    log "made $SWIFT_IMAGE"
}

if have_image "$DEBIAN_IMAGE"; then
    log "$DEBIAN_IMAGE present"
else
    build_debian
    FORCE=1  # the swift stand-in is built on top of it
fi
if have_image "$SWIFT_IMAGE"; then
    log "$SWIFT_IMAGE present"
else
    build_swift
fi
