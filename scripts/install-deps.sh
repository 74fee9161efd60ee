#!/usr/bin/env bash
# Installs the Debian packages pathlab needs, only those missing (idempotent, by name).
# Usage: scripts/install-deps.sh [--fuzz | --e2e]   (--fuzz: clang and its sanitizer runtimes;
# --e2e: Debian's chromium for the browser tests)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3
  libcli11-dev libfmt-dev nlohmann-json3-dev libcpp-httplib-dev libstb-dev libgif-dev libpugixml-dev zlib1g-dev
  libgtest-dev librapidcheck-dev libbenchmark-dev
)
case "${1:-}" in
  --fuzz) packages+=(clang libclang-rt-14-dev) ;;
  --e2e) packages+=(chromium) ;;  # node and npm come with the machine image
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
echo "installing: ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
