#!/usr/bin/env bash
# Installs what the image build and its tests need beyond the JDK, only when missing: skopeo (the
# daemonless client ImagePushIT pushes the archive with), and package lists for `apt-get download`,
# which fetches the Debian packages the image's shared libraries come from. unshare, mount and tar
# (util-linux, coreutils) are on every Debian machine.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-image-tools.sh: the image build needs apt-get (Debian or Ubuntu); the image tests do not run here" >&2
  exit 1
fi

# `apt-get download` needs a candidate version, which only the package lists give.
policy="$(apt-cache policy libc6 2>/dev/null || true)"
if ! grep -q 'Candidate: [0-9]' <<<"$policy"; then
  $SUDO apt-get update -q
fi

if command -v skopeo >/dev/null 2>&1; then
  echo "skopeo already installed"
  exit 0
fi
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends skopeo
echo "installed skopeo"
