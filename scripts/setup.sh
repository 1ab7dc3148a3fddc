#!/usr/bin/env bash
# One idempotent set-up step: installs the Debian packages perflab needs (only those missing), then
# configures and builds the release tree in build/ (everything, or the targets given: setup.sh perflab).
# Used by scripts/reproduce and scripts/test.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake pkg-config git ccache   # ccache: a second clone builds from the cache
  ninja-build   # a new build folder's generator: it keeps both cores busy to the end of a cold build
  libsimgrid-dev libboost-graph-dev libbenchmark-dev libeigen3-dev libfccp-dev pybind11-dev
  libtomlplusplus-dev libcli11-dev libfmt-dev libzip-dev libgtest-dev libgmock-dev
  nlohmann-json3-dev   # every JSON perflab writes (run --format json, compare --format json, --timeline)
  libssl-dev   # OpenSSL libcrypto: SHA-256 hash trees of the share study
  python3 python3-pandas python3-matplotlib python3-pytest
  python3-foolscap   # the share study measures real Foolscap calls (scenarios/share/foolscap_calls.py)
  python3-dev python3-distributed python3-nbclient python3-ipykernel   # the perflab Python module, Dask, notebooks
  python3-markdown jupyter-notebook chromium chromium-driver python3-selenium   # results site, Jupyter, browser tests
  jgit-cli libjgit-java   # the real JARs of the prefetch workload (scenarios/prefetch/data/jgit-clone.classpath):
  libargs4j-java libcommons-compress-java libcommons-codec-java libcommons-logging-java libgoogle-gson-java
  libhttpclient-java libhttpcore-java libjavaewah-java libjetty9-java libjsch-java libjzlib-java
  libservlet-api-java libslf4j-java
  libokhttp-java libokio-java openjdk-17-jdk-headless   # the real OkHttp 3.13.1: the dispatcher's okhttp-jvm
  rhino   # a second real JVM program (not JGit) for `perflab capture prefetch`'s tests
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build $(scripts/generator build) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPERFLAB_TEST_FOLDERS="" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"

# `import perflab` from any directory for Debian's /usr/bin/python3, this checkout's own .pth beside other
# checkouts' (scripts/python-path).
scripts/python-path
