# syntax=docker/dockerfile:1

# Production dependencies, installed where a compiler is at hand: better-sqlite3 builds from source with node-gyp
# whenever no prebuilt binary can be downloaded. Install scripts are off because the package's own prepare script
# (the build) needs sources this stage does not have; better-sqlite3's is then run by itself.
FROM node:20-bookworm-slim AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3

# The build: src/ compiled to dist/ by TypeScript, a dev dependency that stays in this stage.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY bin ./bin
COPY scripts/build.js ./scripts/
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim
# PNG labels draw their text with a system font; the slim image has none.
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json ./
COPY bin ./bin
# The data dir holds the generated secret and, on SQLite, the database and label files. The named volume
# that compose mounts here takes this directory's owner and mode, so the non-root user can write to it and no
# other user can read it.
RUN mkdir -m 700 /data && chown node:node /data
ENV SHIPD_DATA_DIR=/data
# glibc's allocator with two arenas instead of one per thread: see "Memory" in docs/operating.md.
ENV MALLOC_ARENA_MAX=2
VOLUME ["/data"]
USER node
EXPOSE 8080
# The image has no curl; Node's fetch does. `shipd worker` serves no HTTP: compose turns this off for it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# V8's young generation capped at 2 × 8 MB, two V8 helper threads: see "Memory" in docs/operating.md.
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=15", "--v8-pool-size=2", "bin/shipd.js", "serve"]
