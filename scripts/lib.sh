# Shared helpers for scripts/*.sh (sourced, not run). Paths are relative to the checkout.
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1

VAR_DIR="${MOCKLOOP_VAR_DIR:-$ROOT/var}"
STAMPS="$VAR_DIR/stamps"
LOGS="$VAR_DIR/log"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
# var/static: STATIC_ROOT; whitenoise warns on every request while it is missing.
mkdir -p "$STAMPS" "$LOGS" "$VAR_DIR/static"

if [[ -t 1 ]]; then
  _B=$'\033[1m' _BLUE=$'\033[1;34m' _YEL=$'\033[1;33m' _RED=$'\033[1;31m' _GRN=$'\033[1;32m' _N=$'\033[0m'
else
  _B='' _BLUE='' _YEL='' _RED='' _GRN='' _N=''
fi

log() { printf '%s==>%s %s\n' "$_BLUE" "$_N" "$*"; }
ok() { printf '%s ok%s %s\n' "$_GRN" "$_N" "$*"; }
warn() { printf '%swarning:%s %s\n' "$_YEL" "$_N" "$*" >&2; }
die() {
  printf '%serror:%s %s\n' "$_RED" "$_N" "$*" >&2
  exit 1
}

is_root() { [[ "$(id -u)" == 0 ]]; }
is_debian() { [[ -f /etc/debian_version ]] && command -v apt-get >/dev/null 2>&1; }
have() { command -v "$1" >/dev/null 2>&1; }
have_deb() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

now() { date +%s.%N; }
# elapsed START -> "1.2s"
elapsed() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.1fs", e - s }'; }

# Runs "$@" and reports how long it took: `timed "label" cmd args...`.
timed() {
  local label="$1" start
  shift
  start="$(now)"
  "$@"
  ok "$label ($(elapsed "$start"))"
}

# A stable digest of the given files' names and contents (missing files are skipped).
digest_files() {
  local f existing=()
  for f in "$@"; do [[ -f "$f" ]] && existing+=("$f"); done
  { printf '%s\n' "$#"; ((${#existing[@]})) && sha256sum "${existing[@]}"; } | sha256sum | cut -d' ' -f1
}

# Digest of every file below DIR, minus the named subdirectories: `digest_tree DIR [SKIP...]`.
digest_tree() {
  local dir="$1" prune=() d
  shift
  for d in "$@"; do prune+=(-path "$dir/$d" -prune -o); done
  find "$dir" "${prune[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum |
    sha256sum | cut -d' ' -f1
}

stamp_matches() { [[ -f "$STAMPS/$1" && "$(cat "$STAMPS/$1")" == "$2" ]]; }
stamp_write() { printf '%s\n' "$2" >"$STAMPS/$1"; }

# Prints a free TCP port on 127.0.0.1: the preferred one if it is free, else any.
free_port() {
  local python=python3
  [[ -x "$PY" ]] && python="$PY"
  "$python" - "${1:-0}" <<'PYEOF'
import socket
import sys

def try_bind(port: int) -> int | None:
    with socket.socket() as s:
        # As servers do: a port whose old connections linger in TIME_WAIT is free.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return None
        return s.getsockname()[1]

preferred = int(sys.argv[1])
print((preferred and try_bind(preferred)) or try_bind(0))
PYEOF
}

port_is_free() { [[ "$(free_port "$1")" == "$1" ]]; }

# Waits until `redis-cli -p PORT ping` answers, up to SECONDS.
wait_for_redis() {
  local port="$1" tries=$((${2:-10} * 10))
  while ((tries-- > 0)); do
    redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}
