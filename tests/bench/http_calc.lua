-- wrk script for `make bench`: 64 keep-alive clients POST stateless
-- (2026-07-28) tools/call calc_exact requests, each with its own expression;
-- a reply that is not HTTP 200 with an ok result, or whose value is not the
-- one its own request asked for, is counted as bad.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "calc_exact"

local threads = {}
function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  n = 0
  bad = 0
  tid = tid or 0
  -- wrk runs one request at a time per connection and answers in order
  -- per thread only loosely, so the check is by content: each expression's
  -- value encodes its own id (id*3+1), and the reply must carry both.
end

function request()
  n = n + 1
  local id = tid * 100000000 + n
  local body = string.format(
    '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"calc_exact","arguments":{"expr":"%d*3+1"}}}',
    id, id)
  return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
  local id = body:match('^{"jsonrpc":"2.0","id":(%d+)')
  local value = body:match('"structuredContent":{[^}]-"value":"(%d+)"')
  if status ~= 200 or not id or not value or tonumber(value) ~= tonumber(id) * 3 + 1 then
    bad = bad + 1
  end
end

function done(summary, latency, requests)
  local b = 0
  for _, t in ipairs(threads) do b = b + t:get("bad") end
  io.write(string.format("http calc_exact: %.0f req/s  p50 %.2f ms  p99 %.2f ms  requests %d  bad %d  socket errors %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, b, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
