# topoplan's container image: the static (musl) binary alone on a distroless base, run as a
# non-root user. Build it from a release tarball made by scripts/release.sh:
#
#   scripts/release.sh && docker build -t topoplan --build-arg TARBALL=dist/topoplan-v0.1.0-x86_64-unknown-linux-musl.tar.gz .
#
# or from source with the "build" stage below (docker build --target image-from-source).
#
# Run it on the current directory (read-only; topoplan writes nothing unless --output-dir):
#
#   docker run --rm -v "$PWD:/work:ro" -w /work topoplan validate -f .
#   docker run --rm -v "$PWD:/work:ro" -w /work topoplan plan -f classes/ -f clusters/ -o markdown

# From source: the musl target links statically; musl-tools compiles the C parts of
# dependencies (ring, mimalloc) against musl.
FROM rust:1-bookworm AS build
RUN rustup target add x86_64-unknown-linux-musl \
 && apt-get update && apt-get install -y --no-install-recommends musl-tools \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cargo build --release --locked --target x86_64-unknown-linux-musl \
 && cp target/x86_64-unknown-linux-musl/release/topoplan /topoplan

FROM gcr.io/distroless/static-debian12:nonroot AS image-from-source
COPY --from=build /topoplan /usr/local/bin/topoplan
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/topoplan"]

# From a release tarball (the default target): no compiler in the build.
FROM debian:bookworm-slim AS unpack
ARG TARBALL
COPY ${TARBALL} /tmp/topoplan.tar.gz
RUN mkdir /out && tar -xzf /tmp/topoplan.tar.gz -C /out --strip-components=1

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=unpack /out/topoplan /usr/local/bin/topoplan
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/topoplan"]
