#!/usr/bin/env bash
# Longer runs of apps/runner/src/learn/redelivered-rollouts.int.test.ts: NATS restarted twice per run (rollouts in
# flight; after the reward phase, with the run's results consumer lost), every rollout stored once with its reward.
# Usage: scripts/nats-redelivery-soak.sh [runs] [tasks per step] [attempts]   (defaults 20 8 8)
set -euo pipefail
cd "$(dirname "$0")/../apps/runner"
export TFGRPO_REDELIVERY_RUNS="${1:-20}" TFGRPO_REDELIVERY_TASKS="${2:-8}" TFGRPO_REDELIVERY_ATTEMPTS="${3:-8}"
exec pnpm exec vitest run src/learn/redelivered-rollouts.int.test.ts
