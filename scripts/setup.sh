#!/usr/bin/env bash
# The set-up shared by `make run` and `make test`. Every step is idempotent and skipped
# when its inputs are unchanged since the last run (digests in var/stamps/):
#
#   system    Debian packages (when root): redis-server, docker.io, chromium, fonts-noto-cjk
#             (Chinese text in the browser tests' screenshots), debootstrap,
#             gettext,
#             postgresql (only with MOCKLOOP_POSTGRES=1 or a postgres DATABASE_URL)
#   python    .venv + `pip install -e '.[dev]'` (again only when pyproject.toml changes)
#   catalogues the server's translations: locale/*/LC_MESSAGES/*.po → .mo (GNU msgfmt)
#   frontend  `npm ci` (when package-lock.json changes) + `npm run build` (when sources do)
#   docker    a reachable Docker engine; starts dockerd in the background when root
#   django    migrate, sandbox runner images, import the shipped bank, demo users
#
# Usage: scripts/setup.sh [STEP...]   (default: all, in that order)
# MOCKLOOP_SETUP_MODE=test makes a missing Docker engine fatal (the suite needs it).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

MODE="${MOCKLOOP_SETUP_MODE:-run}"

wants_postgres() {
  [[ "${MOCKLOOP_POSTGRES:-0}" == 1 || "${DATABASE_URL:-}" == postgres* ]]
}

step_system() {
  local need=()
  have redis-server || need+=(redis-server)
  have dockerd || need+=(docker.io)
  have chromium || need+=(chromium)
  have debootstrap || need+=(debootstrap)
  have msgfmt || need+=(gettext)
  have docker-compose || need+=(docker-compose)
  if is_debian && ! have_deb fonts-liberation; then need+=(fonts-liberation); fi
  if is_debian && ! have_deb fonts-noto-cjk; then need+=(fonts-noto-cjk); fi
  if wants_postgres && ! have pg_ctlcluster; then need+=(postgresql); fi
  if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then need+=(python3-venv); fi
  if ((${#need[@]} == 0)); then
    ok "system packages present"
    return
  fi
  if is_root && is_debian; then
    log "apt-get install ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" \
      >>"$LOGS/apt.log"
    ok "installed ${need[*]} (log: var/log/apt.log)"
  else
    warn "missing system packages: ${need[*]} (Debian: sudo apt-get install ${need[*]})"
  fi
}

step_python() {
  local python="${PYTHON:-python3}"
  if [[ ! -x "$PY" ]] || ! "$PY" -c '' >/dev/null 2>&1; then
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
      die "Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)"
    log "creating .venv"
    rm -rf "$VENV"
    "$python" -m venv "$VENV"
  fi
  local key
  key="$(digest_files pyproject.toml)-$("$PY" -c 'import sys; print(sys.version.split()[0])')"
  if stamp_matches python "$key"; then
    ok "python packages up to date"
    return
  fi
  log "pip install -e '.[dev]' (log: var/log/pip.log)"
  if ! "$PY" -m pip install --disable-pip-version-check -e '.[dev]' >"$LOGS/pip.log" 2>&1; then
    tail -n 30 "$LOGS/pip.log" >&2
    die "pip install failed; see var/log/pip.log"
  fi
  stamp_write python "$key"
  ok "python packages installed"
}

step_frontend() {
  if ! have npm || ! have node; then
    die "Node.js 20.19+ with npm is needed to build the frontend"
  fi
  node -e 'const [a, b] = process.versions.node.split(".").map(Number);
           process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' ||
    die "Node.js 20.19+ is needed (found $(node --version))"
  local lock_key src_key
  lock_key="$(digest_files frontend/package.json frontend/package-lock.json)-$(node --version)"
  if [[ -d frontend/node_modules ]] && stamp_matches npm "$lock_key"; then
    ok "npm packages up to date"
  else
    log "npm ci (frontend)"
    (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
    stamp_write npm "$lock_key"
    rm -f "$STAMPS/frontend-build"
  fi
  src_key="$(digest_tree frontend node_modules dist)-compressed"
  if [[ -f frontend/dist/index.html ]] && stamp_matches frontend-build "$src_key"; then
    ok "frontend build up to date"
  else
    log "npm run build (frontend)"
    (cd frontend && npm run --silent build)
    # Brotli and gzip copies beside each file; whitenoise serves them to browsers that
    # accept them, in `make run` as in production (where collectstatic makes its own).
    "$PY" -m whitenoise.compress -q frontend/dist
    stamp_write frontend-build "$src_key"
  fi
}

step_catalogues() {
  # The digest covers the .po and the .mo files: an edited catalogue or a lost .mo recompiles.
  if stamp_matches catalogues "$(digest_tree locale)"; then
    ok "translation catalogues up to date"
    return
  fi
  if ! have msgfmt; then
    [[ "$MODE" == test ]] && die "msgfmt is missing (Debian: apt-get install gettext)"
    warn "msgfmt is missing (Debian: apt-get install gettext): the server answers in English"
    return
  fi
  local po
  for po in locale/*/LC_MESSAGES/*.po; do
    msgfmt --check-format -o "${po%.po}.mo" "$po"
  done
  stamp_write catalogues "$(digest_tree locale)"
  ok "translation catalogues compiled"
}

docker_ok() { have docker && timeout 20 docker info >/dev/null 2>&1; }

docker_unavailable() {
  if [[ "$MODE" == test ]]; then
    die "$1"
  fi
  warn "$1 — code judging will not work until a Docker engine runs"
}

step_docker() {
  if docker_ok; then
    ok "docker engine reachable"
    return
  fi
  if ! is_root || ! have dockerd; then
    docker_unavailable "no Docker engine is reachable (start dockerd, or run as root so this script can)"
    return
  fi
  local timeout="${DOCKERD_TIMEOUT:-90}" log_file="$LOGS/dockerd.log" pid
  log "starting dockerd in the background (log: ${log_file#"$ROOT"/})"
  # setsid: dockerd is the machine's engine, not part of this run; Ctrl-C must not kill it.
  # env -u DEBUG: dockerd turns on debug logging when DEBUG is set (a developer may
  # export DEBUG=1 for Django), which costs ~5 ms of dockerd CPU per sandbox container.
  env -u DEBUG setsid dockerd >>"$log_file" 2>&1 </dev/null &
  pid=$!
  local deadline=$((SECONDS + timeout))
  until docker_ok; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 15 "$log_file" >&2 || true
      docker_unavailable "dockerd exited at start; see $log_file"
      return
    fi
    if ((SECONDS >= deadline)); then
      tail -n 15 "$log_file" >&2 || true
      docker_unavailable "dockerd did not answer 'docker info' within ${timeout}s; see $log_file"
      return
    fi
    sleep 0.5
  done
  ok "dockerd started (pid $pid)"
}

step_django() {
  export MOCKLOOP_DEV="${MOCKLOOP_DEV:-1}"
  local db_url
  db_url="${DATABASE_URL:-$(sed -n 's/^DATABASE_URL=//p' "$VAR_DIR/runtime.env" 2>/dev/null || true)}"
  local db_key
  db_key="$(printf '%s' "${db_url:-sqlite:$VAR_DIR/mockloop.sqlite3}" | sha256sum | cut -c1-12)"
  # A fresh SQLite file has no bank in it, whatever the stamp says.
  if [[ -z "$db_url" && ! -f "$VAR_DIR/mockloop.sqlite3" ]]; then
    rm -f "$STAMPS/bank-$db_key"
  fi

  timed "migrate" "$PY" manage.py migrate --noinput -v 0

  # Runner images before the bank: importing verifies reference solutions in the sandbox.
  if docker_ok; then
    timed "sandbox runner images" "$PY" -m sandbox.images.build ensure
  else
    warn "no Docker engine: sandbox runner images not built"
  fi

  local bank_key verify=()
  # Verification runs every reference solution in the sandbox: it needs a Docker engine.
  # Without one, import unverified (publishing refuses unverified questions until
  # `import_bank` is re-run with verification).
  if [[ "${MOCKLOOP_BANK_VERIFY:-1}" == 0 ]]; then
    verify=(--no-verify)
  elif ! docker_ok; then
    warn "no Docker engine: importing the bank unverified"
    verify=(--no-verify)
  else
    # No judge worker runs yet during set-up: verify in this process's own sandbox.
    verify=(--verify-here)
  fi
  bank_key="$(digest_tree bank)"
  [[ "${verify[0]}" == --no-verify ]] && bank_key+="-unverified"
  if stamp_matches "bank-$db_key" "$bank_key"; then
    ok "shipped bank already imported"
  else
    timed "import_bank bank ${verify[*]}" "$PY" manage.py import_bank bank "${verify[@]}"
    stamp_write "bank-$db_key" "$bank_key"
  fi

  "$PY" manage.py seed_demo
}

main() {
  local steps=("$@") start step
  ((${#steps[@]})) || steps=(system python catalogues frontend docker django)
  start="$(now)"
  for step in "${steps[@]}"; do
    declare -F "step_$step" >/dev/null || die "unknown set-up step: $step"
    "step_$step"
  done
  ok "set-up done in $(elapsed "$start")"
}

main "$@"
