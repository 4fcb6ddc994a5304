#!/usr/bin/env bash
# The admission benchmark: bench/run-admission.sh [N]  (default: 1000). Prints a markdown table.
# kopf4j with the seed's validating and mutating handlers (bench/BenchAdmission.java) on its HTTPS
# server at 127.0.0.1 with managed configurations, on a fresh LocalCluster: N dry-run creations
# through the API server with the webhooks, N without (the objects the webhooks' selector leaves
# out: the floor, interleaved), and N AdmissionReviews posted to the webhook server directly.
# See bench/README.md.
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
exec "$(dirname "$(readlink -f "$0")")/launch.sh" AdmissionBenchmark "${1:-1000}"
