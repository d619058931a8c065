#!/usr/bin/env python3
"""The fabric view (docs/fabric-view.md) in a real browser: Debian's headless chromium driven by chromedriver
through python3-selenium.

    check_fabric_view.py URL --netfile NET [--console FIFO --raise NODE PORT COUNTER VALUE STATE ...]
                         [--screenshot PNG] [--timeout S] [--load-only [--hold S]]

Counts the switches and switch-switch cables (and CAs, when the page draws them) the page drew and compares
them with counts read from the ibsim netfile here, by its own parser (no smd code). Each --raise writes
`PerformanceSet "NODE"[PORT] PortCounters.COUNTER=VALUE` into ibsim's console FIFO and waits until the
cable at NODE port PORT is drawn with state STATE in its colour, then opens that node's page and finds the
counter's total there. Prints the page load time (navigation start to the first drawn poll). Saves a screenshot.
Everything it starts (chromedriver, chromium) is ended by PID on the way out, on failure too.
"""
import argparse
import os
import re
import shutil
import signal
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

COLOURS = {"errors": "#ef6c00", "unhealthy": "#d32f2f", "isolated": "#8e24aa"}  # view.js COLOURS


def read_netfile(path):
    """(switches, cas, switch_links): node names by type and the set of switch-switch cables."""
    kind = {}
    ends = []
    node = None
    for line in open(path):
        m = re.match(r'\s*(Switch|Hca)\s+\d+\s+"([^"]+)"', line)
        if m:
            node = m.group(2)
            kind[node] = m.group(1)
            continue
        m = re.match(r'\s*\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
        if m and node:
            ends.append(((node, int(m.group(1))), (m.group(2), int(m.group(3)))))
    switch_links = set()
    for a, b in ends:
        if kind.get(a[0]) == "Switch" and kind.get(b[0]) == "Switch":
            switch_links.add(tuple(sorted((a, b))))
    switches = sorted(n for n, k in kind.items() if k == "Switch")
    cas = sorted(n for n, k in kind.items() if k == "Hca")
    return switches, cas, switch_links


def end_pid(pid, what):
    """SIGTERM, then SIGKILL after 3 s, for one process this script started."""
    if not pid:
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.time() + 3
    while time.time() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    print(f"check_fabric_view: {what} (pid {pid}) ignored SIGTERM, killing it", file=sys.stderr)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def children_of(pid):
    """The PIDs of `pid`'s children, from /proc (every thread's children list)."""
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def drawn(driver, selector):
    return len(driver.find_elements(By.CSS_SELECTOR, selector))


def main():
    # SIGTERM (the test's `timeout`) unwinds through the finally below, which ends the browser by PID.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("--netfile", required=True)
    ap.add_argument("--console")
    ap.add_argument("--raise", dest="raise_", nargs=5, action="append", default=[],
                    metavar=("NODE", "PORT", "COUNTER", "VALUE", "STATE"),
                    help="raise COUNTER to VALUE, then expect the cable drawn in STATE (errors, unhealthy, isolated)")
    ap.add_argument("--screenshot")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--load-only", action="store_true", help="only load the page and print the load time")
    ap.add_argument("--hold", type=float, default=0, help="with --load-only: keep the page open (polling) this long")
    args = ap.parse_args()

    switches, cas, switch_links = read_netfile(args.netfile)
    profile = tempfile.mkdtemp(prefix="smd-view-chromium.")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1600,1000", f"--user-data-dir={profile}", "--no-first-run"):
        options.add_argument(flag)
    service = Service(executable_path="/usr/bin/chromedriver")
    driver = None
    browser_pids = []
    try:
        driver = webdriver.Chrome(service=service, options=options)
        # The browser's own PIDs (chromedriver's children), so they can be ended by PID if quit() does not.
        browser_pids = children_of(service.process.pid)
        driver.set_page_load_timeout(args.timeout)
        driver.set_script_timeout(args.timeout)
        driver.get(args.url)
        wait = WebDriverWait(driver, args.timeout, poll_frequency=0.1)
        wait.until(lambda d: int(d.execute_script("return document.body.dataset.polls || 0")) >= 1)
        nav = driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "return [n.responseEnd, n.domContentLoadedEventEnd, Number(document.body.dataset.firstDrawMs || -1)];")
        print(f"page load: document {nav[0]:.0f} ms, DOMContentLoaded {nav[1]:.0f} ms, "
              f"first fabric drawn {nav[2]:.0f} ms after navigation start")
        if args.load_only:
            time.sleep(args.hold)
            polls = driver.execute_script("return document.body.dataset.polls")
            last = driver.execute_script("return document.getElementById('poll-line').textContent")
            print(f"page polled {polls} times, last: {last}")
            return 0

        got_switches = drawn(driver, "svg#fabric rect.switch")
        got_links = drawn(driver, "svg#fabric line.cable.sw-sw")
        got_cas = drawn(driver, "svg#fabric circle.ca")
        print(f"drawn: {got_switches} switches, {got_links} switch-switch cables, {got_cas} CAs; "
              f"netfile: {len(switches)} switches, {len(switch_links)} switch-switch cables, {len(cas)} CAs")
        assert got_switches == len(switches), "switch count differs from the netfile"
        assert got_links == len(switch_links), "switch-switch cable count differs from the netfile"
        aggregated = driver.execute_script("return document.getElementById('layout-line').textContent")
        if "counted per leaf" in aggregated:
            badges = driver.execute_script(
                "return [...document.querySelectorAll('svg#fabric text.badge')].reduce((s, t) => s + Number(t.textContent), 0)")
            assert badges == len(cas), f"CA badges add up to {badges}, the netfile has {len(cas)} CAs"
        else:
            assert got_cas == len(cas), "CA count differs from the netfile"
        names = set(driver.execute_script(
            "return [...document.querySelectorAll('svg#fabric rect.switch')].map(e => e.dataset.name)"))
        assert names == set(switches), f"switch names differ: {sorted(names ^ set(switches))[:5]}"

        for node, port, counter, value, state in args.raise_:
            guid = driver.execute_script(
                "return [...document.querySelectorAll('svg#fabric [data-name]')].find(e => e.dataset.name === arguments[0]).dataset.guid",
                node)
            end = f"{guid}/{port}"
            find_cable = ("return [...document.querySelectorAll('svg#fabric line.cable')]"
                          ".filter(e => e.dataset.a === arguments[0] || e.dataset.b === arguments[0])"
                          ".map(e => [e.dataset.state, e.getAttribute('stroke')])")
            before = driver.execute_script(find_cable, end)
            assert len(before) == 1, f"{len(before)} cables drawn at {node} port {port} ({end})"
            print(f"cable at {node} port {port} before: state {before[0][0]}, stroke {before[0][1]}")
            assert before[0][0] not in COLOURS, before
            with open(args.console, "w") as console:
                console.write(f'PerformanceSet "{node}"[{port}] PortCounters.{counter}={value}\n')
            raised = time.time()
            try:
                wait.until(lambda d: d.execute_script(find_cable, end)[0] == [state, COLOURS[state]])
            except Exception:
                print(f"cable at {node} port {port} after {args.timeout} s: {driver.execute_script(find_cable, end)}",
                      file=sys.stderr)
                raise
            print(f"cable at {node} port {port} after {counter}={value}: state {state}, stroke {COLOURS[state]} "
                  f"({time.time() - raised:.1f} s after the console command)")
            # The node's page names the counter that moved, with its total.
            driver.execute_script(
                "[...document.querySelectorAll('svg#fabric [data-name]')].find(e => e.dataset.name === arguments[0])"
                ".dispatchEvent(new MouseEvent('click', {bubbles: true}))", node)
            wait.until(lambda d: f"{counter} {value}" in d.execute_script(
                "const t = document.getElementById('node-ports'); return t ? t.textContent : ''"))
            print(f"node page of {node} shows {counter} {value}")
        if args.screenshot:
            os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
            assert driver.save_screenshot(args.screenshot), "screenshot not written"
            print(f"screenshot: {args.screenshot}")
        return 0
    finally:
        chromedriver_pid = service.process.pid if getattr(service, "process", None) else None
        if driver is not None:
            try:
                driver.quit()
            except Exception as e:  # the browser may be gone already: the PIDs below still get ended
                print(f"check_fabric_view: quit: {e}", file=sys.stderr)
        for pid in browser_pids:
            end_pid(pid, "chromium")
        end_pid(chromedriver_pid, "chromedriver")
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
