#!/usr/bin/env bash
# Installs what the registry prober's integration tests (controller, io.kuik.webhook) need, only
# when missing: the CNCF distribution registry from the Debian package `docker-registry`, and
# `htpasswd` from `apache2-utils` to write the bcrypt password file its Basic auth reads (Java has
# no bcrypt, and the registry accepts no other hash). The package's service is not started: each
# test starts its own registry on a free loopback port.
set -euo pipefail

missing=()
command -v docker-registry >/dev/null 2>&1 || missing+=(docker-registry)
command -v htpasswd >/dev/null 2>&1 || missing+=(apache2-utils)

if [ "${#missing[@]}" -eq 0 ]; then
  echo "docker-registry and htpasswd already installed"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-registry.sh: apt-get is needed to install ${missing[*]}; install them yourself (the tests skip without them)" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
# policy-rc.d-less machines would start the packaged service on :5000; the tests never need it.
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --now docker-registry >/dev/null 2>&1 || true
fi
echo "installed ${missing[*]}"
