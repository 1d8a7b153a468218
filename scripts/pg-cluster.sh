#!/usr/bin/env bash
# Starts (or finds running) a throwaway PostgreSQL cluster for moor's tests and
# benchmarks, owned by the `postgres` system user (PostgreSQL refuses to run as
# root), and prints its connection URL on stdout. Idempotent: a second call
# with the cluster already up prints the same URL.
#   scripts/pg-cluster.sh start [DATA_DIR] [PORT]
#   scripts/pg-cluster.sh stop  [DATA_DIR]
set -euo pipefail
cmd=${1:-start}
data=${2:-/tmp/moor-pg}
port=${3:-55432}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
  echo "pg-cluster: PostgreSQL is not installed (apt-get install postgresql)" >&2
  exit 1
fi
as_pg() {
  if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}
case "$cmd" in
  start)
    if [ ! -s "$data/PG_VERSION" ]; then
      mkdir -p "$data"
      chown postgres:postgres "$data"
      chmod 700 "$data"
      as_pg "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 >/dev/null
    fi
    if ! as_pg "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
      as_pg "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
        -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" start >/dev/null
    fi
    # The role and database moor connects as (the deployment recipe uses the same names).
    as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc \
      "SELECT 1 FROM pg_roles WHERE rolname='moor'" | grep -q 1 ||
      as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE ROLE moor LOGIN PASSWORD 'moor'"
    as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname='moor'" | grep -q 1 ||
      as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE moor OWNER moor"
    # A role with no privilege but CONNECT: what the bus tests listen and notify as (an outsider
    # on the same database must learn nothing from moor's channel and forge nothing on it).
    as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc \
      "SELECT 1 FROM pg_roles WHERE rolname='moor_outsider'" | grep -q 1 ||
      as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc \
        "CREATE ROLE moor_outsider LOGIN PASSWORD 'outsider'; GRANT CONNECT ON DATABASE moor TO moor_outsider"
    echo "postgres://moor:moor@127.0.0.1:$port/moor"
    ;;
  stop)
    as_pg "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: pg-cluster.sh start|stop [DATA_DIR] [PORT]" >&2
    exit 2
    ;;
esac
