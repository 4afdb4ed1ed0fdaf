#!/usr/bin/env bash
# Starts the local PostgreSQL cluster (Debian's postgresql-common tools), makes sure the
# role and database `mockloop` exist (role with CREATEDB, so pytest-django can create
# test_mockloop), and prints the DATABASE_URL to use. Needs root; idempotent.
#
#   export DATABASE_URL="$(scripts/postgres.sh)"
set -euo pipefail
source "$(dirname "$0")/lib.sh"

NAME="${MOCKLOOP_PG_NAME:-mockloop}"
PASSWORD="${MOCKLOOP_PG_PASSWORD:-mockloop}"

is_root || die "postgres.sh needs root (it starts the cluster and runs psql as postgres)"
have pg_lsclusters || die "PostgreSQL is not installed (Debian: apt-get install postgresql)"

cluster_line() { pg_lsclusters --no-header 2>/dev/null | head -n 1; }

if [[ -z "$(cluster_line)" ]]; then
  version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
  [[ -n "$version" ]] || die "no PostgreSQL server binaries under /usr/lib/postgresql"
  log "creating PostgreSQL $version cluster 'main'" >&2
  pg_createcluster "$version" main >&2
fi

read -r version cluster port status _ <<<"$(cluster_line)"
if [[ "$status" != online* ]]; then
  log "starting PostgreSQL $version/$cluster on port $port" >&2
  pg_ctlcluster "$version" "$cluster" start >&2
fi

for _ in $(seq 1 60); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.5
done
pg_isready -q -h 127.0.0.1 -p "$port" || die "PostgreSQL on port $port did not become ready"

psql_admin() { runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$port" "$@"; }

psql_admin -d postgres -v name="$NAME" -v password="$PASSWORD" >&2 <<'SQL'
SELECT format(
  CASE WHEN EXISTS (SELECT FROM pg_roles WHERE rolname = :'name')
       THEN 'ALTER ROLE %I WITH LOGIN CREATEDB PASSWORD %L'
       ELSE 'CREATE ROLE %I WITH LOGIN CREATEDB PASSWORD %L' END,
  :'name', :'password') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'name', :'name')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'name') \gexec
SQL

echo "postgres://$NAME:$PASSWORD@127.0.0.1:$port/$NAME"
