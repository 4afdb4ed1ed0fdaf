#!/bin/sh
# Write the relay's configuration from the environment and start coturn. The secret goes
# into a file only the relay's user can read, never onto a command line (`ps` shows those).
set -eu
: "${RTC_TURN_SECRET:?set RTC_TURN_SECRET (the same value the web service has)}"
umask 077
conf=/tmp/turnserver.conf
cat /etc/mockloop/turnserver.conf > "$conf"
printf 'static-auth-secret=%s\nrealm=%s\n' "$RTC_TURN_SECRET" "${TURN_REALM:-mockloop}" >> "$conf"
if [ -n "${TURN_EXTERNAL_IP:-}" ]; then
  printf 'external-ip=%s\n' "$TURN_EXTERNAL_IP" >> "$conf"
fi
exec turnserver -c "$conf"
