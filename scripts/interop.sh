#!/usr/bin/env bash
# Interop beyond the conformance suite: the official MCP Inspector CLI, in the
# legacy, auto and modern eras, lists and calls the decisions tools on this
# repository through `moor stdio --direct`, through `moor stdio` (the proxy,
# to a daemon in a temporary state dir) and over the daemon's HTTP endpoint.
# Every call's payload (content + structuredContent) must be byte-identical
# across all nine era × transport combinations. Needs a built dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
INSPECT="$ROOT/../shared/tools/inspector.sh"
[ -f "$INSPECT" ] || { echo "interop: $INSPECT not found" >&2; exit 2; }

STATE="$(mktemp -d /tmp/moor-interop.XXXXXX)"
PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
cleanup() { MOOR_STATE_DIR="$STATE" node dist/cli/main.js daemon stop >/dev/null 2>&1 || true; }
trap cleanup EXIT

# One daemon serves both the proxy and HTTP targets; --no-token because inspector.sh cannot send an
# Authorization header.
MOOR_STATE_DIR="$STATE" node dist/cli/main.js daemon start --workspace "$ROOT" --http "127.0.0.1:$PORT" --no-token >/dev/null

declare -A TARGETS=(
  [direct]="-- node $ROOT/dist/cli/main.js stdio --direct --workspace $ROOT"
  [proxy]="-- env MOOR_STATE_DIR=$STATE node $ROOT/dist/cli/main.js stdio --workspace $ROOT"
  [http]="--url http://127.0.0.1:$PORT/mcp"
)
CALLS=(
  'search_decisions|{"query":"search index","limit":3}'
  'get_decision|{"ref":"3"}'
  'get_decision_context|{"files":["src/host/catalog.ts","src/cli/main.ts"]}'
  'list_superseded|{}'
)

OUT="$STATE/out"; mkdir -p "$OUT"
status=0
for call in "${CALLS[@]}"; do
  tool="${call%%|*}"; args="${call#*|}"
  reference=""
  for target in direct proxy http; do
    for era in legacy auto modern; do
      log="$OUT/$tool.$target.$era.log"
      # shellcheck disable=SC2086
      if ! bash "$INSPECT" --era "$era" --tool "$tool" --args "$args" ${TARGETS[$target]} >"$log" 2>&1; then
        echo "FAIL $tool via $target ($era): inspector failed"; tail -5 "$log"; status=1; continue
      fi
      # The call's JSON sits between the "== tools/call" line and the "ok:" line.
      payload="$(awk '/^== tools\/call/{on=1;next} /^ok: /{on=0} on && !/^\$ /' "$log" | node -e '
        let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);const x=r.result??r;
        if(!Array.isArray(x.content)||x.content.length===0){console.error("no content in the call result");process.exit(1)}
        process.stdout.write(JSON.stringify({content:x.content,structuredContent:x.structuredContent,isError:x.isError??false}))})')"
      if [ -z "$reference" ]; then reference="$payload"; fi
      if [ "$payload" = "$reference" ]; then echo "ok   $tool via $target ($era)"
      else echo "DIFF $tool via $target ($era) differs from direct (legacy)"; status=1; fi
    done
  done
done
[ "$status" -eq 0 ] && echo "interop: ${#CALLS[@]} tools × 3 transports × 3 eras, identical payloads"
exit "$status"
