-- Shared by the wrk scenarios of bench/web_bench.py: each wrk thread is one phone with one
-- connection, and takes its own client from CLIENTS (a session, a CSRF token, an evening
-- and the deal its form was made for), which web_bench.py writes in front of this file.
-- done() prints one line of JSON: the latency percentiles in microseconds and counters.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  client = CLIENTS[((index - 1) % #CLIENTS) + 1]
  math.randomseed(os.time() * 1000 + index)
  booked, refused, sent = 0, 0, 0
  headers = {
    ["Cookie"] = "sessionid=" .. client.session .. "; csrftoken=" .. client.csrf,
    ["X-CSRFToken"] = client.csrf,
    ["HX-Request"] = "true",
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }
  -- Pages and polls are asked for compressed, as a phone does; a booking's answer is
  -- read here for the next deal, so it comes plain (about 0.1 ms less work).
  if not BOOKING then headers["Accept-Encoding"] = "gzip" end
end

local function key()
  local hex = "0123456789abcdef"
  local out = {}
  for i = 1, 32 do
    local n = math.random(1, 16)
    out[i] = hex:sub(n, n)
  end
  local s = table.concat(out)
  return s:sub(1, 8) .. "-" .. s:sub(9, 12) .. "-4" .. s:sub(14, 16) .. "-a" .. s:sub(18, 20)
    .. "-" .. s:sub(21, 32)
end

-- A plain table mix, as the phone would send it: mostly Sauspiele, every seventh game a
-- Ramsch (which starts a Bockrunde under the bench tariff). Every other game number has
-- 3 Laufende, and the Ramsch's loser goes round: two games in a row just alike are asked
-- about before they are booked (the app's "Wirklich noch einmal buchen?").
function booking()
  sent = sent + 1
  local p = client.players
  local number = tonumber(client.deal:match("^(%d+)")) or 0
  local body = "key=" .. key() .. "&deal=" .. client.deal
    .. "&won=1&kontra=0&doubled=0&laufende=" .. (number % 2) * 3 .. "&laufende_wenz=0"
  if sent % 7 == 0 then
    body = body .. "&spiel=ramsch&loser=" .. p[number % 4 + 1]
  else
    body = body .. "&spiel=sauspiel&declarer=" .. p[1] .. "&partner=" .. p[3]
  end
  return wrk.format("POST", "/abend/" .. client.evening .. "/buchen/", headers, body)
end

-- A tap on the entry screen: the preview of a Sauspiel for the deal the form was made for
-- (nothing is booked, so the deal stays).
function previewing()
  local p = client.players
  local body = "deal=" .. client.deal .. "&won=1&kontra=0&doubled=0&laufende=0&laufende_wenz=0"
    .. "&spiel=sauspiel&declarer=" .. p[1] .. "&partner=" .. p[3]
  return wrk.format("POST", "/abend/" .. client.evening .. "/vorschau/", headers, body)
end

-- The answer carries the next deal, and the players' chips when others sit down now.
function follow(status, hdrs, body)
  local deal = body:match('name="deal" value="([^"]+)"')
  if deal then client.deal = deal end
  local players = {}
  for id in body:gmatch('name="declarer" value="(%d+)"') do players[#players + 1] = id end
  if #players == 4 then client.players = players end
  if body:find("Gebucht: ", 1, true) then
    booked = booked + 1
  else
    refused = refused + 1
  end
end

function done(summary, latency, requests)
  local b, r = 0, 0
  for _, thread in ipairs(threads) do
    b = b + (thread:get("booked") or 0)
    r = r + (thread:get("refused") or 0)
  end
  io.write(string.format(
    '{"p50": %d, "p95": %d, "p99": %d, "requests": %d, "errors": %d, "booked": %d, "refused": %d}\n',
    latency:percentile(50), latency:percentile(95), latency:percentile(99),
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read
      + summary.errors.write + summary.errors.timeout,
    b, r))
end
