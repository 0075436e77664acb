#!/bin/sh
# A step that talks to its bridge the way an MCP agent does: through
# `loopwright bridge stdio` (JSON-RPC 2.0, one message per line). It reads the
# event through the github.event tool and reports a finding with
# findings.report; it holds no token and has no network.
set -eu
"$LOOPWRIGHT_BIN" bridge stdio <<'JSON' >"$LOOPWRIGHT_OUT/bridge.log"
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bridge-demo","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"github.event","arguments":{}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"findings.report","arguments":{"findings":[{"ruleId":"docs/readme","severity":"notice","message":"README.md was read through the sandbox; the event came through the bridge","path":"README.md","line":1}]}}}
JSON
grep -c '"result"' "$LOOPWRIGHT_OUT/bridge.log" | sed 's/^/bridge-demo: answers received: /'
