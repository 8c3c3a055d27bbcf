#!/usr/bin/env bash
# Makes the base image the container test builds the Dockerfile on, with no image registry: a
# Debian bookworm minbase root (debootstrap) holding this machine's node and npm, and its CA
# bundle with NODE_EXTRA_CA_CERTS set, since npm inside the build reaches the registry through
# whatever TLS proxy this machine trusts. The root file system is cached outside the checkout,
# keyed by the suite, node, npm and the CA bundle, so a machine pays debootstrap once (about a
# minute); the image is imported into podman when it is missing.
#
# Prints the image reference on stdout; progress goes to stderr.
# INKPRESS_CONTAINER_BASE_CACHE overrides the cache folder (default ~/.cache/inkpress/container-base);
# DEBIAN_MIRROR the mirror (default http://deb.debian.org/debian).
# Needs root, debootstrap and podman (Debian: apt-get install -y debootstrap podman runc).
set -euo pipefail

suite=bookworm
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
ca=/etc/ssl/certs/ca-certificates.crt
for tool in debootstrap podman node npm; do
  command -v "$tool" >/dev/null || { echo "container-test-base: $tool is missing (apt-get install -y debootstrap podman runc)" >&2; exit 1; }
done
[ -f "$ca" ] || { echo "container-test-base: $ca is missing (apt-get install -y ca-certificates)" >&2; exit 1; }

node_bin="$(readlink -f "$(command -v node)")"
npm_dir="$(readlink -f "$(dirname "$(readlink -f "$(command -v npm)")")/..")"
key="$( { echo "$suite $mirror"; "$node_bin" --version; cat "$npm_dir/package.json" "$ca"; } | sha256sum | cut -c1-16)"
dir="${INKPRESS_CONTAINER_BASE_CACHE:-$HOME/.cache/inkpress/container-base}/$key"
rootfs="$dir/rootfs.tar"
image="localhost/inkpress-test-base:$key"
mkdir -p "$dir"

# Concurrent callers wait for one debootstrap instead of racing.
exec 9>"$dir/.lock"
flock 9
if [ ! -f "$rootfs" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "container-test-base: debootstrap $suite into $dir" >&2
  start=$SECONDS
  debootstrap --variant=minbase "$suite" "$work/root" "$mirror" >&2
  install -D -m 0755 "$node_bin" "$work/root/usr/local/bin/node"
  mkdir -p "$work/root/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$work/root/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/root/usr/local/bin/npx"
  install -D -m 0644 "$ca" "$work/root$ca"
  # What apt downloaded to build the root is no part of an image.
  rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*
  tar -C "$work/root" -cf "$rootfs.tmp" .
  mv "$rootfs.tmp" "$rootfs"
  echo "container-test-base: built in $((SECONDS - start)) s" >&2
fi
if ! podman image exists "$image"; then
  podman import --quiet \
    --change "ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_EXTRA_CA_CERTS=$ca" \
    --change 'CMD ["node"]' \
    "$rootfs" "$image" >&2
fi
echo "$image"
