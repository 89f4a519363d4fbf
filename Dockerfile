# Akwe's production image: the compiled build on production dependencies only, as a non-root user.
# NODE_IMAGE: any Debian-based image with Node 20.19+ (or 22.13+) and npm; the default is the
# official one. docs/deployment.md shows how the image was built and run from a local base.
ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build: every dependency, then `npm ci` compiles src/ to dist/ (the root prepare script).
FROM ${NODE_IMAGE} AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY packages/server packages/server
# The dashboard's pages are bundled by the server's build, which first compiles the SDK and the
# developer CLI (@akwe/cli, whose listen, trigger, ... the server's `akwe` offers).
COPY packages/dashboard packages/dashboard
COPY packages/sdk packages/sdk
COPY packages/cli packages/cli
RUN npm ci --no-audit --no-fund

# 2. Production dependencies: no TypeScript, no tsx, no test tools; better-sqlite3 built for this image.
FROM ${NODE_IMAGE} AS production-dependencies
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/server/package.json packages/server/package.json
COPY packages/server/scripts/prepare.mjs packages/server/scripts/prepare.mjs
COPY packages/sdk/package.json packages/sdk/package.json
COPY packages/cli/package.json packages/cli/package.json
COPY packages/dashboard/package.json packages/dashboard/package.json
RUN npm ci --omit=dev --no-audit --no-fund

# 3. The image: Node, production node_modules, bin/ and dist/. Nothing else from the repository.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    AKWE_DATA_DIR=/var/lib/akwe
WORKDIR /app
# The whole tree of that stage: hoisted node_modules and the ones npm nests under packages/server.
COPY --from=production-dependencies /app ./
COPY packages/server/bin packages/server/bin
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/dashboard/dist packages/dashboard/dist
COPY --from=build /app/packages/sdk/dist packages/sdk/dist
COPY --from=build /app/packages/cli/dist packages/cli/dist
RUN (id -u akwe >/dev/null 2>&1 || useradd --system --uid 10001 --home-dir /var/lib/akwe akwe) \
    && mkdir -p /var/lib/akwe && chown akwe /var/lib/akwe
USER akwe
VOLUME /var/lib/akwe
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "packages/server/bin/akwe.js"]
CMD ["serve"]
