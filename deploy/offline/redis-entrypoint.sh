#!/bin/sh
# Mockloop's offline Redis image (Debian's redis-server): `redis-server ARGS` runs as the
# package's `redis` user in /data, reachable from the container network. Protected mode
# is off because the compose network is the boundary (the port is not published); ARGS
# come after it, so a command that sets protected-mode or a password still wins.
set -eu
if [ "${1:-redis-server}" = redis-server ]; then
  [ "$#" -gt 0 ] && shift
  chown redis:redis /data
  exec setpriv --reuid=redis --regid=redis --init-groups -- \
    redis-server --protected-mode no --dir /data "$@"
fi
exec "$@"
