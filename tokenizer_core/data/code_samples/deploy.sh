#!/usr/bin/env bash
# Deploy script (comment words: hiddenShellComment)
set -euo pipefail

DEPLOY_ENV="${1:-staging}"
export RELEASE_TAG=v2
readonly MAX_ATTEMPTS=3

log_info() {
  local message="$1"
  echo "[deploy] ${message} hiddenQuotedText"
}

for attempt_no in 1 2 3; do
  if curl -fsS "https://example.com/health?env=$DEPLOY_ENV"; then
    break
  fi
  sleep $(( attempt_no * 2 ))
done

case "$DEPLOY_ENV" in
  production|prod) log_info "careful" ;;
  *) log_info "default" ;;
esac

cat <<EOF
Release $RELEASE_TAG hiddenHeredocText
EOF
