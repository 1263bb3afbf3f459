#!/usr/bin/env bash
# Lays out the root filesystem of the kuik image, everything but the application's jars (Jib adds
# those): a Java runtime jlinked from the JDK that runs the build, the few shared libraries it
# loads, taken from Debian packages, and the files a program expects under /etc.
#
#   runtime-root.sh <root> <package cache> <module,module,...>
#
# Inputs are the JDK ($JAVA_HOME, else the java on the PATH) and the Debian packages below, which
# `apt-get download` fetches once into the package cache (a second run with the same cache and the
# same JDK lays out the same bytes). Nothing is taken from the host's /lib or /etc.
set -euo pipefail

root="$1"
cache="$2"
modules="$3"

# The packages that hold what the runtime links against (libc, libm, libstdc++, libgcc_s, libz)
# and the dynamic loader; the loader below resolves exactly which of their files are needed.
# gcc-12-base holds the license of libstdc++6 and libgcc-s1.
PACKAGES=(libc6 libstdc++6 libgcc-s1 gcc-12-base zlib1g)
# Debian's amd64 multiarch directory and the loader path compiled into every binary.
MULTIARCH=x86_64-linux-gnu
LOADER=/lib64/ld-linux-x86-64.so.2

fail() {
  echo "runtime-root.sh: $*" >&2
  exit 1
}

java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
[ -x "$java_home/bin/jlink" ] || fail "no jlink in $java_home/bin: build the image with a full JDK 17"
[ -d "$java_home/jmods" ] || fail "no jmods in $java_home: jlink needs them (Debian: openjdk-17-jdk-headless)"
[ "$(uname -m)" = x86_64 ] || fail "the image is linux/amd64; this machine is $(uname -m)"
for tool in apt-get dpkg-deb; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing: the image's shared libraries come from Debian packages, so build it on Debian or Ubuntu"
done

# --- the Debian packages, downloaded once -------------------------------------------------------
mkdir -p "$cache"
missing=()
for package in "${PACKAGES[@]}"; do
  compgen -G "$cache/${package}_*.deb" >/dev/null || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  (cd "$cache" && apt-get download -q -o APT::Sandbox::User="$(id -un)" "${missing[@]}") ||
    fail "apt-get download ${missing[*]} failed: run apt-get update, then build again"
fi

rm -rf "$root"
mkdir -p "$root"
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT

# --- the Java runtime ------------------------------------------------------------------------------
# No CDS archive (it is not reproducible) and no debug symbols, man pages or headers.
"$java_home/bin/jlink" \
  --add-modules "$modules" \
  --strip-debug --no-man-pages --no-header-files --compress=2 \
  --output "$root/opt/java"

# --- the shared libraries the runtime links against ------------------------------------------------
versions=()
for deb in "$cache"/*.deb; do
  dpkg-deb -x "$deb" "$unpacked"
  name="$(dpkg-deb -f "$deb" Package)"
  versions+=("$name=$(dpkg-deb -f "$deb" Version)")
  # The licenses travel with the files taken from the packages.
  if [ -f "$unpacked/usr/share/doc/$name/copyright" ] && [ ! -L "$unpacked/usr/share/doc/$name" ]; then
    install -D -m 0644 "$unpacked/usr/share/doc/$name/copyright" "$root/usr/share/doc/$name/copyright"
  fi
done
loader="$unpacked/lib/$MULTIARCH/ld-linux-x86-64.so.2"
[ -x "$loader" ] || fail "no dynamic loader in the libc6 package"
search="$unpacked/lib/$MULTIARCH:$unpacked/usr/lib/$MULTIARCH:$root/opt/java/lib:$root/opt/java/lib/server"
needed=()
while IFS= read -r -d '' elf; do
  # The packaged loader lists what each binary and library of the runtime resolves to, searching
  # only the unpacked packages and the runtime itself.
  while read -r _ arrow path _; do
    [ "$arrow" = "=>" ] || continue
    case "$path" in
      "$unpacked"/*) needed+=("${path#"$unpacked"}") ;;
      "$root"/*) ;;
      *) fail "$elf needs $path, which no package provides" ;;
    esac
  done < <("$loader" --library-path "$search" --list "$elf")
done < <(find "$root/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) -print0 | sort -z)
for lib in $(printf '%s\n' "${needed[@]}" | sort -u); do
  install -D -m 0755 "$(readlink -f "$unpacked$lib")" "$root$lib"
done
install -D -m 0755 "$loader" "$root$LOADER"

# --- /etc, /tmp ---------------------------------------------------------------------------------
# The user the image runs as (65532, as distroless' nonroot), so that the JVM finds a home and a
# name for it; name resolution from /etc/hosts first, as the kubelet writes it.
mkdir -p "$root/etc" "$root/tmp" "$root/home/nonroot" "$root/proc" "$root/dev"
printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' >"$root/etc/passwd"
printf '%s\n' 'root:x:0:' 'nonroot:x:65532:' >"$root/etc/group"
printf '%s\n' 'hosts: files dns' >"$root/etc/nsswitch.conf"
# What the image is made of, for people and scanners.
printf '%s\n' "${versions[@]}" | sort >"$root/usr/share/doc/debian-packages.txt"
grep -E '^(IMPLEMENTOR|JAVA_VERSION|JAVA_RUNTIME_VERSION|MODULES)=' "$root/opt/java/release" >"$root/usr/share/doc/java-runtime.txt" || true
echo "runtime root in $root: $(du -sh "$root" | cut -f1) ($(printf '%s ' "${versions[@]}"))"
