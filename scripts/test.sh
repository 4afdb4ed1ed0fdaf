#!/usr/bin/env bash
# `make test`: the set-up of `make run` (not the server), then the whole suite against a
# private Redis on a free port (stopped on exit, pass or fail):
#   ruff check, ruff format --check, vitest (frontend), pytest (all of tests/).
# Keeps DATABASE_URL when set (PostgreSQL in CI); otherwise tests use var/test.sqlite3.
# Extra arguments go to pytest: scripts/test.sh -k smoke -x
set -euo pipefail
source "$(dirname "$0")/lib.sh"

MOCKLOOP_SETUP_MODE="test" scripts/setup.sh

have redis-server || die "redis-server is not installed (Debian: apt-get install redis-server)"

REDIS_PORT="$(free_port)"
REDIS_PID=""
stop_redis() {
  if [[ -n "$REDIS_PID" ]] && kill -0 "$REDIS_PID" 2>/dev/null; then
    kill "$REDIS_PID" 2>/dev/null || true
    wait "$REDIS_PID" 2>/dev/null || true
  fi
}
trap stop_redis EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no \
  --dir "$VAR_DIR" --logfile "$LOGS/test-redis.log" &
REDIS_PID=$!
wait_for_redis "$REDIS_PORT" 10 || die "test Redis did not start; see var/log/test-redis.log"
ok "test Redis on 127.0.0.1:$REDIS_PORT (pid $REDIS_PID)"

export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0" MOCKLOOP_TESTING=1
unset DEBUG

failed=()
check() {
  local label="$1" start
  shift
  start="$(now)"
  log "$label"
  if "$@"; then
    ok "$label ($(elapsed "$start"))"
  else
    failed+=("$label")
    printf '%sFAILED%s %s\n' "$_RED" "$_N" "$label" >&2
  fi
}

check "ruff check" "$VENV/bin/ruff" check .
check "ruff format --check" "$VENV/bin/ruff" format --check .
check "vitest (frontend)" bash -c 'cd frontend && npm test --silent -- --run'
check "import circles (frontend)" bash -c 'cd frontend && npm run --silent check:circles'

if ((${#failed[@]})); then
  # Still run pytest so one run shows every problem; fail at the end.
  "$VENV/bin/pytest" "$@" || true
  die "failed: ${failed[*]} (pytest ran anyway; see above)"
fi
exec_status=0
"$VENV/bin/pytest" "$@" || exec_status=$?
exit "$exec_status"
