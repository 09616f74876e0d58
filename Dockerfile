# docsd in a container (docs/deployment.md#docker):
#   docker build --build-arg DOCS_COMMIT=$(git describe --always --dirty) -t docsd .
#   docker run -d -p 8080:8080 -v docsd-data:/var/lib/docsd docsd
# The build stage is Debian 12 with the toolchain; it makes the Debian packages the way
# scripts/package.sh does. The runtime stage is bookworm-slim with the docsd package
# installed by apt: its computed dependencies and nothing of the toolchain.

FROM debian:bookworm AS build
ENV DEBIAN_FRONTEND=noninteractive
# ca-certificates: npm fetches Node 22 and the web app's packages over https.
# DOCS_BUILD_CA (optional, empty by default): PEM certificates this stage trusts besides
# Debian's, for a network that intercepts HTTPS (--build-arg DOCS_BUILD_CA="$(cat proxy-ca.crt)").
# Only the build stage sees them; the runtime image does not.
ARG DOCS_BUILD_CA=""
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && if [ -n "$DOCS_BUILD_CA" ]; then \
         printf '%s\n' "$DOCS_BUILD_CA" | awk '/BEGIN CERTIFICATE/ { n++ } \
           { print > ("/usr/local/share/ca-certificates/docs-build-ca-" n ".crt") }' \
         && update-ca-certificates; \
       fi \
    && rm -rf /var/lib/apt/lists/*
# Node from npm reads only its own list unless told: Debian's bundle (with DOCS_BUILD_CA).
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
COPY scripts/install-deps.sh /src/scripts/install-deps.sh
RUN /src/scripts/install-deps.sh package && rm -rf /var/lib/apt/lists/*
# The web app's packages first: this layer stays cached while only sources change.
COPY web/package.json web/package-lock.json /src/web/
RUN cd /src/web && npm ci --no-audit --no-fund --loglevel=error \
    && sha256sum package-lock.json | cut -d' ' -f1 > node_modules/.docs-lock-sha256
# The tree-sitter grammars the generation plugin compiles (C sources, pinned, no scripts run).
COPY plugins/generation/grammars/package.json plugins/generation/grammars/package-lock.json \
     plugins/generation/grammars/.npmrc /src/plugins/generation/grammars/
RUN cd /src/plugins/generation/grammars && npm ci --no-audit --no-fund --loglevel=error \
    && sha256sum package-lock.json | cut -d' ' -f1 > node_modules/.docs-lock-sha256
COPY . /src
WORKDIR /src
ARG DOCS_COMMIT=unknown
RUN scripts/build-web.sh \
    && cmake --preset package -DDOCS_BUILD_COMMIT="${DOCS_COMMIT}" \
    && ninja -C build-package product \
    && cd build-package && cpack -G DEB

FROM debian:bookworm-slim
ENV DEBIAN_FRONTEND=noninteractive
COPY --from=build /src/build-package/docsd_*.deb /tmp/
# The docsd package and what it declares; PostgreSQL's own main cluster is not made
# (docsd runs a private one in its data directory). tini reaps the cluster's processes
# and forwards signals; curl is for HEALTHCHECK.
RUN mkdir -p /etc/postgresql-common/createcluster.d \
    && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/docsd.conf \
    && apt-get update \
    && apt-get install -y --no-install-recommends /tmp/docsd_*.deb tini curl \
    && rm -rf /var/lib/apt/lists/* /tmp/docsd_*.deb
ENV DOCS_DATA_DIR=/var/lib/docsd \
    DOCS_SERVER_HOST=0.0.0.0 \
    DOCS_PORT=8080
VOLUME /var/lib/docsd
WORKDIR /var/lib/docsd
USER docsd
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/readyz >/dev/null || exit 1
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/bin/docsd"]
CMD ["serve"]
