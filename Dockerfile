# syntax=docker/dockerfile:1
#
# One image for every service of the platform: which services a container
# runs is chosen at start by SERVICES (see docs/operations.md).
#
#   docker build -t article-platform:local .
#   docker run --rm -e SERVICES=gateway -e NATS_URL=... -e MONGO_URL=... -p 3000:3000 article-platform:local

# ---------------------------------------------------------------------------
# builder: full dependency tree, TypeScript compile, then drop devDependencies
# ---------------------------------------------------------------------------
FROM node:22-bookworm-slim AS builder
WORKDIR /app

# Manifests first so the `npm ci` layer is reused while only sources change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# Sources (.dockerignore keeps tests, docs, deployment files and local
# artefacts out of the context), then compile to dist/ and prune to the
# production dependency tree that the runtime stage copies.
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -f dist/.tsbuildinfo

# ---------------------------------------------------------------------------
# runtime: only package.json, node_modules and dist; no compiler, no npm cache
# ---------------------------------------------------------------------------
FROM node:22-bookworm-slim AS runtime

# HEALTH_PORT is on by default so the HEALTHCHECK below (and any orchestrator
# probe) has an endpoint in every process, gateway or not.
ENV NODE_ENV=production \
    PORT=3000 \
    HEALTH_PORT=3001 \
    BIND_HOST=0.0.0.0 \
    NODE_OPTIONS=--enable-source-maps

WORKDIR /app

# Files stay owned by root and are only readable by the runtime user: the
# process cannot modify its own code (the root filesystem can also be mounted
# read-only; the app writes nothing but, at most, /tmp).
COPY --from=builder /app/package.json ./package.json
COPY --from=builder /app/node_modules ./node_modules
COPY --from=builder /app/dist ./dist

# The base image's unprivileged `node` user, numeric so that Kubernetes'
# runAsNonRoot can verify it without a passwd lookup.
USER 1000:1000

EXPOSE 3000 3001

# Liveness only (/healthz): readiness (/readyz) depends on MongoDB and NATS and
# is probed by the orchestrator, not used to restart the container.
# No curl in slim images: use Node's built-in fetch.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "const p=Number(process.env.HEALTH_PORT)||Number(process.env.PORT)||3000;fetch('http://127.0.0.1:'+p+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# The app handles SIGTERM itself (drains, closes transport and DB).
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
