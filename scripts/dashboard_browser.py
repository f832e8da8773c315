"""What the dashboard's test (scripts/dashboard_test.py) and its bench (scripts/dashboard_bench.py) share: `veritrail
serve` on a free loopback port, Debian's headless Chromium under Selenium, and signing in with the keypad."""
import shutil
import socket
import subprocess
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(vt, store, env, log_path, port=None):
    """`veritrail serve` on `store` (on `port`, or a free one), once it answers /v1/health (at most 20 s); returns the
    process and its base URL. Its stderr (the access log) goes to `log_path`."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "w") as log:
        server = subprocess.Popen([vt, "serve", "--store", store, "--listen", f"127.0.0.1:{port}"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(400):
        try:
            urllib.request.urlopen(base + "/v1/health", timeout=1)
            return server, base
        except Exception:
            time.sleep(0.05)
    stop(server)
    raise RuntimeError(f"veritrail serve did not answer on {base} (see {log_path})")


def stop(server):
    """SIGTERM, as a person's Ctrl-C; a server that has not stopped 15 s later is killed."""
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()


def chromium(console=False):
    """Headless Chromium from Debian, at 1280×900; with `console`, its console is kept for `driver.get_log`."""
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_window_size(1280, 900)
    return driver


def type_passcode(driver, digits):
    for d in digits:
        driver.find_element(By.CSS_SELECTOR, f'.keypad button[data-key="{d}"]').click()


def sign_in(driver, base, user, passcode):
    """The sign-in screen filled and sent; what follows is the caller's to wait for."""
    driver.get(base + "/#/signin")
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "user")).send_keys(user)
    type_passcode(driver, passcode)
    driver.find_element(By.ID, "signin-button").click()
