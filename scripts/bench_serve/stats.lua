-- wrk: GET /v1/stats as the token in TOKEN.
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
