-- wrk script: each request takes a random line of PATHS_FILE as its path (lines may repeat, which
-- is how a Zipf distribution is expressed), sends the headers given in HEADERS ("a: b|c: d"), and
-- an X-Forwarded-For of its own: addresses are counted up from a random start within the block
-- ADDRESS_BLOCK.0.0.0/8 (each load run of a bench gets a block of its own), so no two requests of
-- a bench (up to 16.7 million a run) come from one visitor and every click counts. SEED seeds the run:
-- without it each run would replay the previous one's paths and addresses, and its clicks would be
-- repeats. METHOD and BODY are optional; in BODY, "{rand}" becomes a random number (distinct link
-- requests for the shortener).
local paths = {}
local method = os.getenv("METHOD") or "GET"
local body = os.getenv("BODY")
local headers = {}
local block = tonumber(os.getenv("ADDRESS_BLOCK") or "") or 10

for line in io.lines(os.getenv("PATHS_FILE")) do
  paths[#paths + 1] = line
end
for pair in string.gmatch(os.getenv("HEADERS") or "", "[^|]+") do
  local name, value = string.match(pair, "^%s*([^:]+):%s*(.*)$")
  if name then headers[name] = value end
end

math.randomseed(tonumber(os.getenv("SEED") or "") or os.time())

function setup(thread)
  thread:set("seed", math.random(1, 2 ^ 30))
end

local visitor

function init(args)
  math.randomseed(seed or os.time())
  visitor = math.random(0, 2 ^ 24 - 1)
end

request = function()
  visitor = (visitor + 1) % (2 ^ 24)
  headers["X-Forwarded-For"] = string.format("%d.%d.%d.%d", block, math.floor(visitor / 65536), math.floor(visitor / 256) % 256, visitor % 256)
  local path = paths[math.random(#paths)]
  local payload = nil
  if body then payload = string.gsub(body, "{rand}", tostring(math.random(1, 2 ^ 30))) end
  return wrk.format(method, path, headers, payload)
end
