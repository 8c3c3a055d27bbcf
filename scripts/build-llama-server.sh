#!/usr/bin/env bash
# Builds llama.cpp's llama-server from the source node-llama-cpp ships (a git bundle), with no
# network: the remote-backend tests run against it. The binary is cached outside the checkout,
# keyed by the llama.cpp release and commit, so a machine builds it once (~7 minutes on 2 cores).
#
# Prints the binary's path on stdout; progress goes to stderr.
# INKPRESS_LLAMA_SERVER_CACHE overrides the cache folder (default ~/.cache/inkpress/llama-server).
# Needs cmake, g++ and git (Debian: apt-get install -y cmake g++ git).
set -euo pipefail
cd "$(dirname "$0")/.."

llama=node_modules/node-llama-cpp/llama
bundle="$llama/gitRelease.bundle"
[ -f "$bundle" ] || { echo "build-llama-server: $bundle is missing (run npm ci first)" >&2; exit 1; }
for tool in cmake g++ git; do
  command -v "$tool" >/dev/null || { echo "build-llama-server: $tool is missing (apt-get install -y cmake g++ git)" >&2; exit 1; }
done

tag="$(node -p "require('./$llama/llama.cpp.info.json').tag")"
commit="$(git bundle list-heads "$bundle" | awk '$2 == "HEAD" { print substr($1, 1, 12) }')"
dir="${INKPRESS_LLAMA_SERVER_CACHE:-$HOME/.cache/inkpress/llama-server}/$tag-$commit"
binary="$dir/llama-server"
mkdir -p "$dir"

# Concurrent callers (parallel test files, CI) wait for one build instead of racing.
exec 9>"$dir/.lock"
flock 9
if [ ! -x "$binary" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "build-llama-server: building llama-server $tag ($commit) into $dir" >&2
  start=$SECONDS
  git clone --quiet "$bundle" "$work/src" 2>/dev/null
  cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >&2
  cmake --build "$work/build" --target llama-server -j "$(nproc)" >&2
  # Copy, then rename: a reader never sees a half-written binary.
  cp "$work/build/bin/llama-server" "$binary.tmp"
  mv "$binary.tmp" "$binary"
  echo "build-llama-server: built in $((SECONDS - start)) s" >&2
fi
echo "$binary"
