#!/usr/bin/env python3
"""The dashboard in a real browser: headless Chromium (Debian's chromium and chromium-driver) driven by Selenium,
against `veritrail serve` on a store made from the demo data, on the real clock.

    scripts/dashboard_test.py [VERITRAIL_BINARY] [--shots DIR]

Every screen of server.md §9 is visited at 375 and 1280 px; the numbers on screen are compared with the API's
answers (asked with a real HTTP client beside the browser); a search is typed letter by letter; a report, a status
change and a registration are made through the screens; a scan recorded by the CLI while the home screen is open
must appear there within a second; the status colours' contrast is measured (WCAG 2.1 AA, 4.5:1); the browser's
console must hold no error but the refusals this test provokes on purpose (three wrong passcodes). Screenshots of
each screen at both widths go to DIR (default .build/dashboard-screenshots). Prints one line per check and
ends with "dashboard: N passed, N failed"; exit 1 when any failed.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import dashboard_browser
from dashboard_browser import type_passcode
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:]]
shots = os.path.join(HERE, ".build", "dashboard-screenshots")
if "--shots" in args:
    i = args.index("--shots")
    shots = os.path.abspath(args[i + 1])
    del args[i:i + 2]
VT = os.path.abspath(args[0] if args else os.path.join(HERE, ".build", "debug", "veritrail"))
PASSCODE = "1234"  # the demo data's passcode for every account (scripts/gen_demo.py): demo data, not a secret

passed = failed = 0


def check(name, ok, seen=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name}" + (f" (saw: {seen})" if seen != "" else ""))


class API:
    """A real HTTP client beside the browser, to ask what the screens should show."""

    def __init__(self, base):
        self.base = base
        self.token = None

    def call(self, method, path, body=None, accept="application/json"):
        headers = {"Accept": accept}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                raw = res.read()
                return res.status, (json.loads(raw) if raw and accept == "application/json" else raw.decode())
        except urllib.error.HTTPError as e:
            raw = e.read()
            return e.code, (json.loads(raw) if raw else None)

    def sign_in(self, user):
        status, answer = self.call("POST", "/v1/sessions", {"user": user, "passcode": PASSCODE})
        assert status == 201, (status, answer)
        self.token = answer["token"]
        return answer


def main():
    work = tempfile.mkdtemp(prefix="veritrail-dashboard.")
    os.makedirs(shots, exist_ok=True)
    store = os.path.join(work, "store")
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
    env["NO_COLOR"] = "1"
    subprocess.run([VT, "import", os.path.join(HERE, "Events", "demo.ndjson"), "--store", store], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    server, base = dashboard_browser.serve(VT, store, env, os.path.join(work, "server.log"))
    running = {"server": server}

    def restart():
        """The server stopped and started again on its port, as after an upgrade: the pages open follow again."""
        dashboard_browser.stop(running["server"])
        running["server"], _ = dashboard_browser.serve(VT, store, env, os.path.join(work, "server-again.log"),
                                                       port=int(base.rsplit(":", 1)[1]))
    driver = None
    try:
        api = API(base)
        api.sign_in("admin")
        driver = dashboard_browser.chromium(console=True)
        try:
            run(driver, api, base, store, env, restart)
        except Exception as error:  # a screen that broke the walk: counted, and the summary still printed
            check(f"the walk through the screens went on to the end ({type(error).__name__}: {str(error)[:200]})", False)
    finally:
        if driver:
            driver.quit()
        dashboard_browser.stop(running["server"])
        if os.environ.get("KEEP") != "1":
            shutil.rmtree(work, ignore_errors=True)
    print(f"dashboard: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def console_errors(driver, allowed=()):
    """The browser console's errors since the last call, less those whose text contains one of `allowed`."""
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and not any(a in e["message"] for a in allowed)]


def wait_for(driver, css, timeout=5):
    return WebDriverWait(driver, timeout).until(lambda d: d.find_element(By.CSS_SELECTOR, css))


# Open screens are drawn again after every commit (they follow the log), so an element found a moment ago may
# be gone: waits ignore that, and a read of a text finds its element again.
REDRAWN = (NoSuchElementException, StaleElementReferenceException)


def wait_until(driver, predicate, timeout=5):
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=REDRAWN).until(lambda d: predicate())
        return True
    except Exception:
        return False


def settled(read):
    """`read()` once the screen holds still: a redraw between finding an element and reading it is retried."""
    for _ in range(20):
        try:
            return read()
        except REDRAWN:
            time.sleep(0.05)
    return read()


def text(driver, css):
    return settled(lambda: driver.find_element(By.CSS_SELECTOR, css).text)


def attribute(driver, css, name):
    return settled(lambda: driver.find_element(By.CSS_SELECTOR, css).get_attribute(name))


def click(driver, css):
    """Clicks what `css` finds, found again if the screen was drawn again in between (a click on a stale
    element raises before it happens, so it is never made twice)."""
    settled(lambda: driver.find_element(By.CSS_SELECTOR, css).click())


def type_into(driver, css, keys):
    settled(lambda: driver.find_element(By.CSS_SELECTOR, css).send_keys(keys))


def shoot(driver, name):
    for width, height in ((375, 812), (1280, 900)):
        driver.set_window_size(width, height)
        time.sleep(1.0)  # the goal ring grows into place in 0.8 s
        driver.save_screenshot(os.path.join(shots, f"{name}-{width}.png"))
        if width == 375:
            sizes = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            check(f"{name}: nothing scrolls the page sideways on a phone ({sizes[0]} px of {sizes[1]})", sizes[0] <= sizes[1])
    driver.set_window_size(1280, 900)


def sign_in(driver, base, user, passcode=PASSCODE):
    dashboard_browser.sign_in(driver, base, user, passcode)


def run(driver, api, base, store, env, restart):
    driver.set_window_size(1280, 900)

    # Sign-in: the button waits for both fields; three wrong passcodes lock the keypad with a countdown.
    driver.get(base + "/")
    wait_for(driver, "#signin-button")
    check("sign-in: the button is disabled until username and passcode are filled",
          not driver.find_element(By.ID, "signin-button").is_enabled())
    shoot(driver, "signin")
    # An inspector with no wrong passcode counted yet, so that the first two refusals leave attempts.
    _, gates = api.call("GET", "/v1/lockout")
    roles = {a["username"]: a["role"] for a in api.call("GET", "/v1/accounts")[1]["accounts"]}
    victim = next(a["username"] for a in gates["accounts"]
                  if a["failures"] == 0 and a["state"] in ("required", "unlocked") and roles.get(a["username"]) == "inspector" and a["username"] != "ines")
    type_into(driver, "#user", victim)
    for attempt in range(3):
        type_passcode(driver, "9999")
        click(driver, "#signin-button")
        if attempt < 2:
            left = 2 - attempt
            check(f"sign-in: wrong passcode {attempt + 1} says {left} attempt(s) left",
                  wait_until(driver, lambda: f"{left} attempt" in text(driver, "#signin-message")), text(driver, "#signin-message"))
    check("sign-in: the third wrong passcode shows a countdown",
          wait_until(driver, lambda: "try again in" in text(driver, "#signin-message")), text(driver, "#signin-message"))
    check("sign-in: the keypad is disabled while locked out",
          all(not b.is_enabled() for b in driver.find_elements(By.CSS_SELECTOR, ".keypad button")))
    status, lock = api.call("GET", "/v1/lockout/" + victim)
    check(f"sign-in: the API says {victim} is locked", status == 200 and lock["state"] == "locked", lock)
    shoot(driver, "signin-locked")
    console_errors(driver)  # the three refusals above are logged by the browser as failed requests, on purpose

    # Home: the stats equal the API's.
    sign_in(driver, base, "admin")
    wait_for(driver, "#stats")
    _, stats = api.call("GET", "/v1/stats")
    on_screen = settled(lambda: {e.get_attribute("data-stat"): e.find_element(By.CSS_SELECTOR, ".n").text
                                 for e in driver.find_elements(By.CSS_SELECTOR, "#stats .stat")})
    for key in ("total", "authentic", "counterfeit", "reported", "today", "last7d", "last30d"):
        check(f"home: {key} on screen equals the API's ({stats[key]})", on_screen.get(key) == str(stats[key]), on_screen.get(key))
    recent = settled(lambda: [e.get_attribute("data-scan") for e in driver.find_elements(By.CSS_SELECTOR, "#recent [data-scan]")])
    check("home: the recent scans are the API's", recent == [s["scanId"] for s in stats["recent"]], recent)
    shoot(driver, "home")

    # Live: a scan recorded by the CLI appears on the open home screen within a second.
    before = int(text(driver, '#stats [data-stat="total"] .n'))
    cli = subprocess.run([VT, "scan", "--store", store, "--as", "ines", "--code", "https://verify.example/p/LIVE-1",
                          "--product", "Live Serum", "--category", "Cosmetics", "--result", "authentic", "--passcode-stdin"],
                         input=PASSCODE + "\n", text=True, env=env, capture_output=True)
    check("live: the CLI's scan was recorded", cli.returncode == 0, cli.stderr.strip())
    started = time.monotonic()
    seen = wait_until(driver, lambda: text(driver, '#stats [data-stat="total"] .n') == str(before + 1), timeout=3)
    elapsed = time.monotonic() - started
    check(f"live: the home screen shows it within a second ({elapsed * 1000:.0f} ms)", seen and elapsed <= 1.0)

    # History: the type filter, a search typed letter by letter, recent searches, paging.
    driver.get(base + "/#/history?window=all")
    wait_for(driver, "#total")
    click(driver, '[data-type="failed"]')
    _, failed_all = api.call("GET", "/v1/history?type=failed&window=all&limit=20")
    check("history: the failed filter's total equals the API's",
          wait_until(driver, lambda: attribute(driver, "#total", "data-total") == str(failed_all["total"])),
          attribute(driver, "#total", "data-total"))
    click(driver, '[data-type="all"]')
    box = driver.find_element(By.ID, "search")
    typed = ""
    for letter in "serum":
        typed += letter
        box.send_keys(letter)
        _, answer = api.call("GET", f"/v1/history?window=all&search={typed}&limit=20")
        ok = wait_until(driver, lambda: attribute(driver, "#total", "data-total") == str(answer["total"]))
        check(f"history: after typing {typed!r} the total is the API's ({answer['total']})", ok,
              attribute(driver, "#total", "data-total"))
    options = lambda: [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#search-suggestions option")]
    check("history: suggestions as one types, each holding what was typed",
          wait_until(driver, lambda: options() and all("serum" in o.lower() for o in options())), options())
    check("history: the search box offers them", attribute(driver, "#search", "list") == "search-suggestions")
    box.send_keys(Keys.ENTER)
    check("history: Enter keeps the search among the recent ones",
          wait_until(driver, lambda: "serum" in [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#recent-searches button")]))
    shoot(driver, "history")

    # A scan's details and a report.
    _, page = api.call("GET", "/v1/history?window=all&limit=1000")
    target = next(s for s in page["items"] if "report" not in s and s["seenBefore"] > 0)
    driver.get(base + "/#/scans/" + target["scanId"])
    wait_for(driver, "#report-form")
    check("details: a code seen before is flagged", len(driver.find_elements(By.ID, "seen-before")) == 1)
    facts = text(driver, "dl.facts")
    check("details: the facts card shows the scan's code and category, each in its own cell",
          target["code"] in facts and target["category"] in facts and "[object" not in text(driver, "#main")
          and len(driver.find_elements(By.CSS_SELECTOR, "dl.facts > dd")) >= 8, facts[:300])
    fresh_scan = next(s for s in page["items"] if s["seenBefore"] == 0)
    driver.get(base + "/#/scans/" + fresh_scan["scanId"])
    wait_until(driver, lambda: fresh_scan["code"] in text(driver, "#main"))
    check("details: a scan never seen before shows no notice and no 'null'",
          not driver.find_elements(By.ID, "seen-before") and "null" not in text(driver, "#main"), text(driver, "#main")[:300])
    driver.get(base + "/#/scans/" + target["scanId"])
    wait_for(driver, "#report-form")
    shoot(driver, "details")
    click(driver, '#reason option[value="label"]')
    type_into(driver, "#message", "label <b>misprinted</b>")
    click(driver, "#report-form button[type=submit]")
    check("details: the report is confirmed", wait_until(driver, lambda: len(driver.find_elements(By.ID, "reported")) == 1))
    _, reported = api.call("GET", "/v1/scans/" + target["scanId"])
    check("details: the API has the report with its message as typed",
          reported.get("report", {}).get("message") == "label <b>misprinted</b>", reported.get("report"))
    check("details: user text is shown as text, not markup",
          "<b>misprinted</b>" in text(driver, "#report") and not driver.find_elements(By.CSS_SELECTOR, "#report b"))

    # Settings.
    driver.get(base + "/#/settings")
    wait_for(driver, "#historyWindow")
    click(driver, '#historyWindow option[value="90d"]')
    click(driver, "form button[type=submit]")
    check("settings: saved", wait_until(driver, lambda: text(driver, "#settings-out") == "Saved."))
    _, settings = api.call("GET", "/v1/settings/admin")
    check("settings: the API has the new window", settings["historyWindow"] == "90d", settings)
    # A change made elsewhere shows without a reload, and a save after it changes only what was changed here.
    subprocess.run([VT, "settings", "set", "--history-window", "7d", "--store", store, "--as", "admin"], env=env, capture_output=True)
    check("settings: a change made elsewhere shows live",
          wait_until(driver, lambda: driver.execute_script("return document.getElementById('historyWindow').value") == "7d"),
          driver.execute_script("return document.getElementById('historyWindow').value"))
    shoot(driver, "settings")

    # Customers: the colours, a status change, a registration.
    driver.get(base + "/#/customers")
    wait_for(driver, "#customers")
    _, customers = api.call("GET", "/v1/customers")
    rows = settled(lambda: [(r.get_attribute("data-user"), r.get_attribute("class"))
                            for r in driver.find_elements(By.CSS_SELECTOR, "#customers li")])
    check("customers: one row per customer, in the API's order",
          [user for user, _ in rows] == [c["username"] for c in customers["customers"]])
    check("customers: each row has its status colour",
          all(f"s-{c['status']}" in classes for (_, classes), c in zip(rows, customers["customers"])))
    contrast = driver.execute_script(CONTRAST_JS)
    for status, ratio in sorted(contrast.items()):
        check(f"customers: {status} text has contrast {ratio:.2f}:1 (AA needs 4.5)", ratio >= 4.5)
    rows_contrast = driver.execute_script(ROW_CONTRAST_JS)
    check(f"customers: every row's text has AA contrast on its status colour (lowest {min(rows_contrast):.2f}:1)",
          rows_contrast and min(rows_contrast) >= 4.5, rows_contrast)
    shoot(driver, "customers")
    customer = next(c for c in customers["customers"] if c["status"] != "COMPLETED")
    driver.get(base + "/#/customers/" + customer["username"])
    wait_for(driver, "#status-form")
    check("customer: the facts card shows the username and the status, not '[object …]'",
          customer["username"] in text(driver, "dl.facts") and "[object" not in text(driver, "#main"), text(driver, "dl.facts")[:300])
    _, detail = api.call("GET", "/v1/customers/" + customer["username"])
    if detail.get("geo"):
        marker = driver.find_elements(By.CSS_SELECTOR, "#map circle.marker")
        check("customer: the map marks the customer's location",
              len(marker) == 1 and float(marker[0].get_attribute("data-lat")) == float(detail["geo"]["lat"])
              and float(marker[0].get_attribute("data-lng")) == float(detail["geo"]["lng"]), detail["geo"])
    rows_before = len(driver.find_elements(By.CSS_SELECTOR, "#status-history tbody tr"))
    click(driver, '#new-status option[value="COMPLETED"]')
    type_into(driver, "#note", "done in the browser")
    click(driver, "#status-form button[type=submit]")
    check("customer: the status history gains the change",
          wait_until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#status-history tbody tr")) == rows_before + 1))
    _, shown = api.call("GET", "/v1/customers/" + customer["username"])
    check("customer: the API says COMPLETED", shown["status"] == "COMPLETED", shown["status"])
    shoot(driver, "customer")
    driver.get(base + "/#/register")
    wait_for(driver, "#r-username")
    for field, value in (("r-username", "web.client"), ("r-name", "Web Client"), ("r-email", "web@example.org"),
                         ("r-street", "1 Rue de la Paix"), ("r-city", "Lyon"), ("r-zipcode", "69001")):
        type_into(driver, "#" + field, value)
    click(driver, "form button[type=submit]")
    check("register: the customer is registered",
          wait_until(driver, lambda: "Registered web.client" in text(driver, "#register-out")), text(driver, "#register-out"))
    check("register: where the city was placed is said in words, not as JSON",
          text(driver, "#placement").startswith('Placed "Lyon" at Lyon') and "{" not in text(driver, "#placement"),
          text(driver, "#placement"))
    status, registered = api.call("GET", "/v1/customers/web.client")
    check("register: the API shows the customer AWAITED", status == 200 and registered["status"] == "AWAITED", registered)

    # Goals: the ring.
    driver.get(base + "/#/goals?user=kwan")
    wait_for(driver, "#month")
    _, goals = api.call("GET", "/v1/goals/kwan")
    if goals["metrics"]:
        wait_for(driver, "#ring")
        first = goals["metrics"][0]
        progress = attribute(driver, "#ring", "data-progress")
        check("goals: the ring shows the API's progress", progress == str(first["progress"]), progress)
    else:
        check("goals: no metric says so", len(driver.find_elements(By.ID, "no-goals")) == 1)
    shoot(driver, "goals")
    driver.get(base + "/#/goals")
    wait_for(driver, "#goal-form")
    click(driver, '#goal-metric option[value="scans"]')
    driver.execute_script("const r = document.getElementById('goal-target'); r.value = 1200;"
                          "r.dispatchEvent(new Event('input'));")
    check("goals: the ruler shows the goal it sets", text(driver, "#goal-shown") == "1200", text(driver, "#goal-shown"))
    click(driver, "#goal-form button[type=submit]")
    own = lambda: api.call("GET", "/v1/goals/admin")[1]
    check("goals: the goal set on the ruler is the API's",
          wait_until(driver, lambda: any(m["metric"] == "scans" and m["target"] == 1200 for m in own()["metrics"])), own())
    check("goals: the ring shows it", wait_until(driver, lambda: "Goal: 1200" in text(driver, "#ring")), text(driver, "#main")[:300])
    click(driver, '#goal-metric option[value="scans"]')
    check("goals: a scans goal goes by ones (a goal of 50 can be set)",
          driver.execute_script("const r = document.getElementById('goal-target'); r.value = 50; return r.value") == "50")
    # A commit that changes nothing of this month's goals leaves an editor being used as it is.
    click(driver, '#goal-metric option[value="jumps"]')
    driver.execute_script("const r = document.getElementById('goal-target'); r.value = 4200;"
                          "r.dispatchEvent(new Event('input')); document.activeElement.blur();")
    subprocess.run([VT, "search", "unrelated", "--store", store, "--as", "kwan"], env=env, capture_output=True)
    time.sleep(1.0)
    check("goals: an unrelated commit leaves the editor's choice", text(driver, "#goal-shown") == "4200", text(driver, "#goal-shown"))

    # Audit.
    driver.get(base + "/#/audit")
    wait_for(driver, "[data-events]")
    _, log = api.call("GET", "/v1/log/status")
    check("audit: the event count is the API's", attribute(driver, "[data-events]", "data-events") == str(log["events"]))
    click(driver, "#verify")
    check("audit: verify says verified", wait_until(driver, lambda: text(driver, "#verify-out").startswith("Verified")),
          text(driver, "#verify-out"))
    checkpoint = text(driver, "#checkpoint")
    check("audit: the checkpoint is shown", "\n\u2014 " in checkpoint or "— " in checkpoint)
    def arrives(words):
        subprocess.run([VT, "search", words, "--store", store, "--as", "kwan"], env=env, capture_output=True)
        _, log = api.call("GET", "/v1/log/status")
        return wait_until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, f'[data-seq="{log["head"]["seq"]}"]')) == 1,
                          timeout=8)
    check("audit: an event written elsewhere arrives in the list", arrives("audited"))
    earlier = console_errors(driver, allowed=("/v1/heads",))
    restart()
    check("audit: after the server restarted, the list follows again", arrives("audited again"))
    console_errors(driver)  # what the page asked while the server was down failed, on purpose
    shoot(driver, "audit")

    # A session ended elsewhere ends the live stream with it (server.md §2), and the screen goes back to sign-in.
    driver.get(base + "/#/")
    wait_for(driver, "#stats")
    token = driver.execute_script("return JSON.parse(sessionStorage.getItem('veritrail.session')).token")
    ended = urllib.request.Request(base + "/v1/sessions/current", method="DELETE", headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(ended, timeout=10) as res:
        check("session: signed out from elsewhere", res.status == 204, res.status)
    subprocess.run([VT, "search", "ended-elsewhere", "--store", store, "--as", "kwan"], env=env, capture_output=True)
    check("session: the dashboard goes back to sign-in once its stream ends",
          wait_until(driver, lambda: "#/signin" in driver.current_url, timeout=5), driver.current_url)
    check("session: no live mark is left on the sign-in screen", wait_until(driver, lambda: text(driver, "#live") == ""),
          text(driver, "#live"))

    # A customer's own page: their details, editable but the email.
    sign_in(driver, base, "bret")
    wait_for(driver, "#me-form")
    check("me: the email is shown and can not be edited", attribute(driver, "#me-email", "disabled") is not None)
    phone = driver.find_element(By.ID, "me-phone")
    phone.clear()
    phone.send_keys("+33 4 00 00 00 00")
    click(driver, "#me-form button[type=submit]")
    check("me: the new phone is the API's",
          wait_until(driver, lambda: api.call("GET", "/v1/customers/bret")[1].get("phone") == "+33 4 00 00 00 00"),
          api.call("GET", "/v1/customers/bret")[1].get("phone"))
    shoot(driver, "me")

    errors = earlier + console_errors(driver, allowed=("/v1/heads",))
    check("the browser console holds no error", not errors, errors)


# The contrast of each status colour's text on its background (WCAG 2.1 relative luminance): the badges, and
# the text of the customers' rows (names, contacts, dates) on their row's colour.
LUMINANCE_JS = """
const lum = (rgb) => {
  const [r, g, b] = rgb.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((v) => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
"""
ROW_CONTRAST_JS = LUMINANCE_JS + """
const out = [];
for (const row of document.querySelectorAll("#customers li")) {
  const bg = getComputedStyle(row).backgroundColor;
  for (const el of row.querySelectorAll("a.item, a.item *")) out.push(ratio(getComputedStyle(el).color, bg));
}
return out;
"""
CONTRAST_JS = LUMINANCE_JS + """
const out = {};
for (const s of ["AWAITED", "FAILEDTOREACH", "ONBOARDED", "INPROCESS", "COMPLETED", "DENIED"]) {
  const el = document.createElement("span"); el.className = "status s-" + s; el.textContent = s;
  document.body.append(el);
  const cs = getComputedStyle(el);
  out[s] = ratio(cs.color, cs.backgroundColor);
  el.remove();
}
return out;
"""

if __name__ == "__main__":
    main()
