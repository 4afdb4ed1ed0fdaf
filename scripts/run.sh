#!/usr/bin/env bash
# `make run`: set up what is missing, then run web (uvicorn) + Celery worker + Redis under
# honcho until Ctrl-C. Serves http://127.0.0.1:${PORT:-8000}/ in development mode
# (MOCKLOOP_DEV=1); Django's DEBUG (traceback pages) only when you set DEBUG=1 yourself.
#
# var/runtime.env records where this run's Redis and database are; mockloop/env.py reads
# it, so `.venv/bin/python manage.py ...` beside a running `make run` uses the same data.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

export MOCKLOOP_DEV=1 MOCKLOOP_SETUP_MODE=run
PORT="${PORT:-8000}"

port_is_free "$PORT" || die "port $PORT is in use (another make run?); try: PORT=8001 make run"

if [[ -z "${DATABASE_URL:-}" && "${MOCKLOOP_POSTGRES:-0}" == 1 ]]; then
  scripts/setup.sh system
  DATABASE_URL="$(scripts/postgres.sh)"
  export DATABASE_URL
fi

REDIS_PORT="$(free_port 6379)"
REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export REDIS_URL

{
  echo "# Written by 'make run' ($(date -u +%FT%TZ)); read by mockloop/env.py."
  echo "MOCKLOOP_DEV=1"
  if [[ -n "${DEBUG:-}" ]]; then echo "DEBUG=$DEBUG"; fi
  echo "REDIS_URL=$REDIS_URL"
  if [[ -n "${DATABASE_URL:-}" ]]; then echo "DATABASE_URL=$DATABASE_URL"; fi
} >"$VAR_DIR/runtime.env"

scripts/setup.sh

have redis-server || die "redis-server is not installed (Debian: apt-get install redis-server)"

URL="http://127.0.0.1:$PORT/"
echo
printf '%sMockloop%s is starting at %s%s%s\n' "$_B" "$_N" "$_B" "$URL" "$_N"
echo "  API docs: ${URL}api/docs/   admin: ${URL}admin/"
echo "  database: ${DATABASE_URL:-SQLite, var/mockloop.sqlite3}   redis: $REDIS_URL"
if [[ -f "$VAR_DIR/demo_logins.json" ]]; then
  python3 - "$VAR_DIR/demo_logins.json" <<'PYEOF'
import json
import sys

logins = json.load(open(sys.argv[1]))
print("  demo logins:", "   ".join(f"{name} / {entry['password']}" for name, entry in logins.items()))
PYEOF
fi
echo "  Ctrl-C stops web, worker and Redis."
echo

export PATH="$VENV/bin:$PATH" WEB_PORT="$PORT" REDIS_PORT
# Redis keeps an append-only file so a crashed (respawned) Redis keeps its queue within
# this run; a new run starts it empty, as set-up above may have changed the bank while it
# was down (its cache must not outlive that). Judging messages of an earlier run are not
# lost: the requeue sweep queues stale submissions again.
rm -rf "$VAR_DIR/redis"
mkdir -p "$VAR_DIR/redis"

# Once stopped, this run's Redis is gone: forget it so later manage.py commands don't try
# it (the database entry stays). Ctrl-C reaches honcho directly; we only wait for it.
forget_redis() { sed -i '/^REDIS_URL=/d' "$VAR_DIR/runtime.env" 2>/dev/null || true; }
trap forget_redis EXIT
trap ':' INT TERM
status=0
honcho start -f Procfile || status=$?
exit "$status"
