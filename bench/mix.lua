-- Cycles through the paths listed in the file named by MIX_PATHS (one a line), one request each in
-- turn, and prints report.lua's RESULT line at the end. For bench/run.sh's viewer mixes.
local list = os.getenv("MIX_PATHS")
assert(list, "MIX_PATHS is not set")
local paths = {}
for line in assert(io.open(list, "r")):lines() do
  if line ~= "" then paths[#paths + 1] = line end
end
assert(#paths > 0, "no paths in MIX_PATHS")
local requests = {}
local next_index = 0

-- Formatted once per thread, in init: only then does wrk.headers carry the Host field.
init = function(args)
  for i, path in ipairs(paths) do requests[i] = wrk.format("GET", path) end
end

request = function()
  next_index = next_index % #requests + 1
  return requests[next_index]
end

local report = os.getenv("REPORT_LUA")
assert(report, "REPORT_LUA is not set")
dofile(report)
