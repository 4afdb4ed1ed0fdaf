#!/bin/sh
# Mockloop's offline PostgreSQL image (Debian's postgresql-15): the same environment as
# the official image — POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB, data in PGDATA.
# On first start (an empty PGDATA) it runs initdb with that user as superuser and creates
# the database; then it serves on every address of the container's network, password
# (scram) authentication for TCP, trust for the local socket (pg_isready, psql inside).
set -eu
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
POSTGRES_USER="${POSTGRES_USER:-postgres}"
POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }

mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set for the first start}"
  pwfile="$(mktemp)"
  printf '%s' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    as_postgres pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
    as_postgres psql -v ON_ERROR_STOP=1 -q -U "$POSTGRES_USER" -d postgres \
      -c "CREATE DATABASE \"$POSTGRES_DB\""
    as_postgres pg_ctl -D "$PGDATA" -w -m fast stop >/dev/null
  fi
  echo "postgres: initialised $PGDATA (user $POSTGRES_USER, database $POSTGRES_DB)"
fi

if [ "$#" -eq 0 ] || [ "$1" = postgres ]; then
  [ "$#" -gt 0 ] && shift
  exec setpriv --reuid=postgres --regid=postgres --init-groups -- \
    postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
