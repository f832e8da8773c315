#!/usr/bin/env python3
"""Issue 22's bars, measured in a real browser on a large store: the home screen's stats drawn after navigation,
and a search's results after each keystroke.

    scripts/dashboard_bench.py VERITRAIL_BINARY LOG.ndjson [--store DIR] [--runs N]

LOG is a log from scripts/gen_bench.py (its accounts' passcode is 2468); the store is made from it with
`veritrail import` unless --store names one made before (it is kept then, else deleted at the end). The server
runs on loopback on the real clock; Debian's headless Chromium is driven by Selenium, as in
scripts/dashboard_test.py.

Each figure is measured inside the page (performance.now(), a MutationObserver), so that WebDriver's own round
trips do not count:
- home, page load: from `location.reload()` on `#/` to the stat cards drawn (the script, the session from
  sessionStorage, /v1/stats and the drawing);
- home, in-app: from a hash change to `#/` (from the history screen) to the stat cards drawn;
- keystroke: on the history screen, from the input event of one more letter to the new total drawn, letter by
  letter through each query below (each letter waits for its answer, as the bar counts one keystroke's results).
Prints the median and the maximum of each, and the bars.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import dashboard_browser
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PASSCODE = "2468"  # scripts/gen_bench.py's passcode for every account: bench data, not a secret
QUERIES = ["hologram", "kyoto", "e", "zzzq", "lyon"]

args = sys.argv[1:]
runs = 10
keep_store = None
if "--runs" in args:
    i = args.index("--runs")
    runs = int(args[i + 1])
    del args[i:i + 2]
if "--store" in args:
    i = args.index("--store")
    keep_store = os.path.abspath(args[i + 1])
    del args[i:i + 2]
if len(args) != 2:
    sys.exit(__doc__)
VT, LOG = os.path.abspath(args[0]), os.path.abspath(args[1])

# Resolves with the milliseconds from `start()` (run in the page) to the moment `done()` first holds.
MEASURE = """
const [startSrc, doneSrc, callback] = arguments;
const start = new Function(startSrc), done = new Function(doneSrc);
const t0 = performance.now();
let finished = false;
const finish = () => { if (finished) return; finished = true; obs.disconnect(); callback(performance.now() - t0); };
const obs = new MutationObserver(() => { if (done()) finish(); });
obs.observe(document.documentElement, { childList: true, subtree: true, attributes: true, characterData: true });
start();
if (done()) finish();
setTimeout(() => { if (!finished) { finished = true; obs.disconnect(); callback(-1); } }, 20000);
"""


def summary(name, figures, bar):
    good = [f for f in figures if f >= 0]
    if len(good) < len(figures):
        return f"{name}: {len(figures) - len(good)} of {len(figures)} timed out (20 s)"
    median, worst = statistics.median(good), max(good)
    verdict = "meets" if worst <= bar else ("median meets" if median <= bar else "MISSES")
    return f"{name}: median {median:.0f} ms, max {worst:.0f} ms over {len(good)} (bar {bar} ms: {verdict})"


def main():
    work = tempfile.mkdtemp(prefix="veritrail-dashboard-bench.")
    store = keep_store or os.path.join(work, "store")
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
    env["NO_COLOR"] = "1"
    if not os.path.exists(store):
        t = time.time()
        subprocess.run([VT, "import", LOG, "--store", store], env=env, check=True, stdout=subprocess.DEVNULL)
        print(f"imported {LOG} in {time.time() - t:.1f} s")
    server, base = dashboard_browser.serve(VT, store, env, os.path.join(work, "server.log"))
    driver = None
    try:
        driver = dashboard_browser.chromium()
        driver.set_script_timeout(30)
        dashboard_browser.sign_in(driver, base, "admin", PASSCODE)
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#stats .n"))

        stats_drawn = "return !!document.querySelector('#stats .n');"
        load, nav = [], []
        for _ in range(runs):
            # A reload: the observer of the old page dies with it, so the new page is timed from its own start.
            driver.execute_script("window.__old = true; location.hash = '#/'; location.reload();")
            WebDriverWait(driver, 30).until(lambda d: d.execute_script(
                "return !window.__old && !!document.querySelector('#stats .n');"))
            load.append(driver.execute_script(
                "const t = performance.getEntriesByType('mark').find(m => m.name === 'veritrail-stats');"
                "return t ? t.startTime : performance.now();"))
            driver.execute_script("location.hash = '#/history';")
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results #total"))
            nav.append(driver.execute_async_script(MEASURE, "location.hash = '#/';", stats_drawn))

        keys, per_query = [], {}
        for q in QUERIES:
            driver.execute_script("location.hash = '#/history';")
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#search"))
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results #total"))
            driver.execute_script("const s = document.querySelector('#search'); s.value = ''; s.dispatchEvent(new Event('input'));")
            for n in range(1, len(q) + 1):
                prefix = q[:n]
                start = ("const s = document.querySelector('#search'); window.__total = document.querySelector('#total');"
                         f"s.value = {prefix!r}; s.dispatchEvent(new Event('input'));")
                done = "const t = document.querySelector('#total'); return !!t && t !== window.__total;"
                keys.append(driver.execute_async_script(MEASURE, start, done))
                per_query.setdefault(q, []).append(keys[-1])
        print(f"store: {store} (server on the real clock, uptime: {os.getloadavg()[0]:.2f} load)")
        print(summary("home, page reload to stats drawn (timed from navigation start)", load, 500))
        print(summary("home, in-app navigation to stats drawn", nav, 500))
        print(summary(f"search results after each keystroke ({', '.join(QUERIES)})", keys, 200))
        for q, figures in per_query.items():
            print(f"  {q}: " + " ".join(f"{f:.0f}" for f in figures) + " ms, letter by letter")
    finally:
        if driver:
            driver.quit()
        dashboard_browser.stop(server)
        shutil.rmtree(work, ignore_errors=True)


main()
