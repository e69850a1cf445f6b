#!/usr/bin/env bash
# Release artefacts: for each target, a stripped release binary in a tarball
# `topoplan-vVERSION-TARGET.tar.gz` (the binary, LICENSE, README.md, docs/, man/ and
# completions/ inside a folder of the same name), then one SHA256SUMS over every tarball in dist/.
#
#   scripts/release.sh [TARGET...]     default: x86_64-unknown-linux-musl
#
# Linux targets are musl: one static binary that runs on any distribution's CI runner, whatever
# its glibc. musl rather than glibc with `-C target-feature=+crt-static`: a static glibc still
# loads its name-service modules (getaddrinfo, used to reach `--extension` URLs by host name) as
# shared libraries of its own exact version at run time, so the binary would not be
# self-contained; musl's resolver is built in. musl's allocator is slow, but topoplan brings
# its own (mimalloc). Rust's musl targets link statically by default. Needs:
# `rustup target add x86_64-unknown-linux-musl` and a musl C compiler for the C parts of
# dependencies (`apt-get install musl-tools`). A Linux binary is refused unless it is static (no
# program interpreter, no needed shared library) and, when it is the host's architecture, runs
# with an empty environment. Other targets (aarch64 Linux, macOS, Windows) are built on their
# own runners by .github/workflows/release.yaml with this same script.
#
# Writes dist/; VERSION is Cargo.toml's.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-unknown-linux-musl)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
[ -n "$version" ] || { echo "no version in Cargo.toml" >&2; exit 1; }
target_dir=${CARGO_TARGET_DIR:-target}
mkdir -p dist

for target in "${targets[@]}"; do
  echo "== $target" >&2
  case "$target" in
    *-linux-musl)
      # The C parts (ring, mimalloc) compiled against musl, not the host's glibc headers.
      arch=${target%%-*}
      cc=musl-gcc
      command -v "$arch-linux-musl-gcc" >/dev/null && cc="$arch-linux-musl-gcc"
      export "CC_${target//-/_}=$cc"
      ;;
  esac
  cargo build --release --locked --target "$target"
  exe=topoplan
  case "$target" in *-windows-*) exe=topoplan.exe ;; esac
  bin="$target_dir/$target/release/$exe"
  # The release profile strips already; a second pass removes what a linker may have kept.
  case "$target" in
    *-windows-*) ;;
    *-apple-*) strip -x "$bin" 2>/dev/null || true ;;
    *) strip "$bin" 2>/dev/null || true ;;
  esac
  case "$target" in
    *-linux-*)
      # "Runs on any Linux runner" checked, not assumed: nothing for a dynamic loader to find.
      if command -v readelf >/dev/null; then
        if readelf -lW "$bin" | grep -q 'program interpreter' || readelf -dW "$bin" | grep -q NEEDED; then
          echo "$bin is not a static binary:" >&2
          readelf -lW "$bin" | grep 'program interpreter' >&2 || true
          readelf -dW "$bin" | grep NEEDED >&2 || true
          exit 1
        fi
      fi
      if [ "${target%%-*}" = "$(uname -m)" ]; then
        env -i "$bin" version >/dev/null || { echo "$bin does not run with an empty environment" >&2; exit 1; }
      fi
      ;;
  esac
  name="topoplan-v$version-$target"
  stage=$(mktemp -d)
  mkdir "$stage/$name"
  cp "$bin" LICENSE README.md "$stage/$name/"
  cp -R docs man completions "$stage/$name/"
  # Reproducible archives: sorted names, fixed owner and time where tar allows.
  if tar --version 2>/dev/null | grep -q GNU; then
    tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner \
      --mtime='1970-01-01 00:00:00Z' -czf "dist/$name.tar.gz" "$name"
  else
    tar -C "$stage" -czf "dist/$name.tar.gz" "$name"
  fi
  rm -rf "$stage"
done

# One checksum file over every tarball in dist/ (the workflow gathers each runner's there).
(
  cd dist
  if command -v sha256sum >/dev/null; then
    sha256sum topoplan-v*.tar.gz > SHA256SUMS
  else
    shasum -a 256 topoplan-v*.tar.gz > SHA256SUMS
  fi
)
cat dist/SHA256SUMS
