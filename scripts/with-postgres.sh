#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL cluster:
#   scripts/with-postgres.sh .venv/bin/python -m pytest
# The cluster listens only on a private Unix socket and is removed at the
# end, whether the command passed or failed.
set -euo pipefail

find_pg_bin() {
  for dir in /usr/local/bin /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

PG_BIN=$(find_pg_bin || true)
if [ -z "$PG_BIN" ]; then
  echo "PostgreSQL not found: installing Debian's postgresql"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  PG_BIN=$(find_pg_bin)
fi

WORK=$(mktemp -d /tmp/crewbuilder-pg.XXXXXX)
PORT=${PGPORT_PRIVATE:-$((20000 + RANDOM % 20000))}
RUN_AS=()
if [ "$(id -u)" -eq 0 ]; then
  # initdb refuses to run as root; the postgres system user owns the cluster.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$WORK"
  RUN_AS=(runuser -u postgres --)
fi

cleanup() {
  "${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

"${RUN_AS[@]}" "$PG_BIN/initdb" -D "$WORK/data" -U crewbuilder --auth=trust --encoding=UTF8 --no-locale >/dev/null
"${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w \
  -o "-k $WORK -p $PORT -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null

SOCKET=$(python3 -c "import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1], safe=''))" "$WORK")
export DATABASE_URL="postgres://crewbuilder@${SOCKET}:${PORT}/postgres"
echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on socket $WORK port $PORT"
"$@"
