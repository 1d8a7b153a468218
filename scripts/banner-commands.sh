#!/usr/bin/env bash
# The commands the `npm start` banner prints work as printed: starts the daemon
# in the foreground the way `npm start` does (on a free port, in a temporary
# state dir), reads its banner, and runs every command line in it unchanged:
#   - the `moor daemon token` line: it must print the state dir's token;
#   - each `npx -y @modelcontextprotocol/inspector@<pinned> …` line, through
#     bash exactly as a user pastes it (the $(…) token fetch included);
#   - the `mcpServers` snippet: its command and args, spawned by the same
#     pinned Inspector CLI as a client would spawn them.
# The status page's link is for a browser, not a shell: it is fetched once and
# must answer with the redirect that logs the browser in.
# npx takes the Inspector from the npm cache scripts/interop.sh fills
# (MCP_TOOLS_CACHE); it downloads it from the registry only when that is cold.
# On Node 20 npm warns EBADENGINE for the Inspector; the commands still answer.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
CACHE="${MCP_TOOLS_CACHE:-/tmp/mcp-tools-cache}"
mkdir -p "$CACHE/inspector-home"

STATE="$(mktemp -d /tmp/moor-banner.XXXXXX)"
PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
OUT="$STATE/banner.log"
DAEMON_PID=""
cleanup() {
  if [ -n "$DAEMON_PID" ]; then kill -INT "$DAEMON_PID" 2>/dev/null || true; wait "$DAEMON_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

# `npm start` is `node dist/cli/main.js daemon run --workspace . --http`; the port is a free one here.
MOOR_STATE_DIR="$STATE" node dist/cli/main.js daemon run --workspace . --http "127.0.0.1:$PORT" >"$OUT" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 1 300); do
  grep -q '^Stop with Ctrl-C' "$OUT" && break
  kill -0 "$DAEMON_PID" 2>/dev/null || { echo "banner: the daemon exited"; cat "$OUT"; exit 1; }
  sleep 0.1
done
grep -q '^Stop with Ctrl-C' "$OUT" || { echo "banner: no banner within 30 s"; cat "$OUT"; exit 1; }
BANNER="$(grep -v '^{"level"' "$OUT")"

# A user's shell, not this script's: the Inspector keeps its secrets in memory and its HOME in the cache.
run_as_printed() { # label command-line
  echo "\$ $2"
  HOME="$CACHE/inspector-home" MCP_INSPECTOR_SECRET_STORE=memory npm_config_cache="$CACHE/npm-cache" \
    npm_config_prefer_offline=true npm_config_update_notifier=false \
    timeout -k 5 120 bash -c "$2" >"$STATE/$1.out" 2>"$STATE/$1.err" \
    || { echo "FAIL $1 (exit $?)"; tail -5 "$STATE/$1.err"; return 1; }
}
status=0

token_line="$(printf '%s\n' "$BANNER" | grep -E '^  .* daemon token --url ' | grep -v '^  npx ' | sed 's/^  //')"
[ -n "$token_line" ] || { echo "banner: no token command"; exit 1; }
if run_as_printed token "$token_line" && [ "$(cat "$STATE/token.out")" = "$(cat "$STATE/http.token")" ]; then
  echo "ok   the token command prints the state dir's token"
else echo "FAIL the token command did not print the token"; status=1; fi

mapfile -t inspector_lines < <(printf '%s\n' "$BANNER" | grep -E '^  npx -y @modelcontextprotocol/inspector@[0-9]' | sed 's/^  //')
[ "${#inspector_lines[@]}" -ge 2 ] || { echo "banner: expected the Inspector commands, found ${#inspector_lines[@]}"; exit 1; }
# Every indented line outside the JSON snippet is a command, and each must be one run here.
printed="$(printf '%s\n' "$BANNER" | sed '/^{$/,/^}$/d' | grep -c '^  ' || true)"
[ "$printed" -eq $((1 + ${#inspector_lines[@]})) ] || { echo "banner: $printed command lines, this script runs $((1 + ${#inspector_lines[@]}))"; exit 1; }
n=0
for line in "${inspector_lines[@]}"; do
  n=$((n + 1))
  if run_as_printed "inspector$n" "$line" && node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const x = r.result ?? r;
    if (!(Array.isArray(x.tools) && x.tools.length > 0) && !(Array.isArray(x.content) && x.content.length > 0 && !x.isError)) process.exit(1);
  ' "$STATE/inspector$n.out"; then echo "ok   Inspector command $n answers"
  else echo "FAIL Inspector command $n"; status=1; fi
done

# The stdio snippet: the Inspector spawns its command and args as a client configured with it would.
inspector="$(printf '%s\n' "${inspector_lines[0]}" | grep -oE '^npx -y @modelcontextprotocol/inspector@[^ ]+')"
stdio_cmd="$(printf '%s\n' "$BANNER" | sed -n '/^{$/,/^}$/p' | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const { command, args } = JSON.parse(s).mcpServers.moor;
    const q = (w) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(w) ? w : `'\''${w.replaceAll("'\''", "'\''\\'\'''\''")}'\''`);
    console.log([command, ...args].map(q).join(" "));
  })')"
if run_as_printed stdio "$inspector --cli --protocol-era legacy --method tools/list -e MOOR_STATE_DIR=$STATE -- $stdio_cmd" \
  && grep -q '"search_decisions"' "$STATE/stdio.out"; then echo "ok   the mcpServers snippet serves through this daemon"
else echo "FAIL the mcpServers snippet"; status=1; fi

link="$(printf '%s\n' "$BANNER" | grep -oE 'http://127\.0\.0\.1:[0-9]+/status\?token=[^ ]+')"
code="$(curl -s -o /dev/null -w '%{http_code}' "$link")"
case "$code" in 30[23]) echo "ok   the status link logs a browser in ($code)" ;; *) echo "FAIL the status link answered $code"; status=1 ;; esac

[ "$status" -eq 0 ] && echo "banner: every printed command works as printed"
exit "$status"
