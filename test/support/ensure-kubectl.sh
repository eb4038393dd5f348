#!/usr/bin/env bash
# test/unit/deployment-manifests.test.ts renders both k8s overlays with `kubectl kustomize` (the overlays use
# kustomize v4+ fields such as `labels:`). kubectl with its bundled kustomize v5 is on this project's machines
# (the Google Cloud CLI's kubectl package); Debian's own kubectl (kubernetes-client, 1.20) bundles kustomize v2,
# which cannot build them, and no registry this project reaches ships a newer one. So this checks, not installs.
set -euo pipefail
if version="$(kubectl version --client 2>/dev/null)" && grep -Eq 'Kustomize Version: v([5-9]|[1-9][0-9])' <<<"$version"; then exit 0; fi
echo "kubectl with kustomize v5 or later is required to render k8s/overlays (found: ${version:-no kubectl})" >&2
exit 1
