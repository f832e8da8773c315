-- wrk: every request records one scan, with a code and an Idempotency-Key of its own (a thread id and a
-- counter), as the token in TOKEN.
local counter = 0
local thread_id = 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

function request()
  counter = counter + 1
  local key = "bench-" .. thread_id .. "-" .. counter .. "-" .. os.time()
  local body = '{"code":"' .. key .. '","productName":"Bench","category":"Toys","result":"authentic"}'
  return wrk.format("POST", "/v1/scans", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. os.getenv("TOKEN"),
    ["Idempotency-Key"] = key,
  }, body)
end
