-- wrk script: each request takes a random line of PATHS_FILE as its path (lines may repeat, which
-- is how a Zipf distribution is expressed), sends the headers given in HEADERS ("a: b|c: d"), and
-- a random X-Forwarded-For so each request is its own visitor. METHOD and BODY are optional; in
-- BODY, "{rand}" becomes a random number (distinct link requests for the shortener).
local paths = {}
local method = os.getenv("METHOD") or "GET"
local body = os.getenv("BODY")
local headers = {}

for line in io.lines(os.getenv("PATHS_FILE")) do
  paths[#paths + 1] = line
end
for pair in string.gmatch(os.getenv("HEADERS") or "", "[^|]+") do
  local name, value = string.match(pair, "^%s*([^:]+):%s*(.*)$")
  if name then headers[name] = value end
end

function setup(thread)
  thread:set("seed", math.random(1, 2 ^ 30))
end

function init(args)
  math.randomseed(seed or os.time())
end

request = function()
  headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.random(0, 255), math.random(0, 255), math.random(1, 254))
  local path = paths[math.random(#paths)]
  local payload = nil
  if body then payload = string.gsub(body, "{rand}", tostring(math.random(1, 2 ^ 30))) end
  return wrk.format(method, path, headers, payload)
end
