#!/usr/bin/env bash
# Sourced by .ci/run: installs the real components the tests drive (PostgreSQL,
# HAProxy, Chromium for the status-page browser test) from Debian's packages
# when they are missing, starts a PostgreSQL cluster as its own user, and
# exports MOOR_TEST_PG_URL for the store contract suite and the scale-out tests.
need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v haproxy >/dev/null 2>&1 || need+=(haproxy)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "== apt-get install ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# Debian starts a system cluster on install; moor's tests use their own throwaway one.
MOOR_TEST_PG_URL=$(bash "$(dirname "${BASH_SOURCE[0]}")/pg-cluster.sh" start /tmp/moor-ci-pg 55433)
export MOOR_TEST_PG_URL
echo "== PostgreSQL for tests: ${MOOR_TEST_PG_URL}"
