// Veritrail dashboard: the seeds' screens over the HTTP API of server.md, and nothing else.
// Plain JavaScript written for this project, no library and no build step. Every text that comes from the store
// reaches the page through text nodes (`h` below), never as HTML, so user text can not become markup.
"use strict";

const PAGE = 20;
const REASONS = ["packaging", "label", "serial", "price", "seller", "other"];
const STATUSES = ["AWAITED", "FAILEDTOREACH", "ONBOARDED", "INPROCESS", "COMPLETED", "DENIED"];
const STATUS_WORDS = {
  AWAITED: "Awaited (not contacted yet)", FAILEDTOREACH: "Failed to reach", ONBOARDED: "Onboarded (confirmation and payment)",
  INPROCESS: "In process", COMPLETED: "Completed", DENIED: "Denied",
};
const METRIC_WORDS = { jumps: "Jumps", calories: "Calories", scans: "Scans" };

const state = { session: loadSession(), refresh: null, liveAbort: null, lockTimer: null };

// ---- DOM -------------------------------------------------------------------------------------------------

/** Makes an element: attributes (on* are listeners) and children (strings become text nodes). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "style") el.style.cssText = v; // through the CSSOM: the server's CSP refuses style attributes
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  // Children nest as the screens build them (a list of [dt, dd] pairs, say): flattened all the way down.
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
const $ = (sel, root = document) => root.querySelector(sel);
function show(...nodes) {
  const main = $("#main");
  // A screen's optional parts are null when absent: they are left out, never shown as "null".
  main.replaceChildren(...nodes.flat(Infinity).filter((n) => n !== undefined && n !== null && n !== false));
}
function fmtTime(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
function timeEl(iso) { return h("time", { datetime: iso || "", title: iso || "" }, fmtTime(iso)); }
function percent(x) { return (Math.round(x * 1000) / 10).toFixed(1) + " %"; }
function errorBox(err) { return h("p", { class: "error", role: "alert" }, err.message || String(err)); }

// ---- The API ---------------------------------------------------------------------------------------------

function loadSession() {
  try { return JSON.parse(sessionStorage.getItem("veritrail.session") || "null"); } catch { return null; }
}
function saveSession(s) {
  state.session = s;
  if (s) sessionStorage.setItem("veritrail.session", JSON.stringify(s));
  else sessionStorage.removeItem("veritrail.session");
}

/** One API call. A refusal throws an Error carrying the problem (RFC 9457) and its status; a token that is no
 *  longer valid ends the session and leads back to sign-in. */
async function api(method, path, body, { text = false, signal } = {}) {
  const headers = { Accept: text ? "text/plain" : "application/json" };
  if (state.session) headers.Authorization = "Bearer " + state.session.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body) });
  const raw = await res.text();
  if (!res.ok) {
    let problem = null;
    try { problem = JSON.parse(raw); } catch { /* not a problem body */ }
    const err = new Error((problem && problem.detail) || `${res.status} ${res.statusText}`);
    err.status = res.status; err.problem = problem; err.retryAfter = Number(res.headers.get("Retry-After")) || 0;
    if (res.status === 401 && state.session && !path.startsWith("/v1/sessions")) {
      saveSession(null); stopLive(); location.hash = "#/signin?ended=1";
    }
    throw err;
  }
  if (text) return raw;
  return raw ? JSON.parse(raw) : null;
}
function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? "?" + s : "";
}
const me = () => state.session && state.session.user;
const isAdmin = () => state.session && state.session.role === "admin";
const isCustomer = () => state.session && state.session.role === "customer";

// ---- Live: the heads stream (server.md §5) ---------------------------------------------------------------

/** Reads an NDJSON stream line by line until it ends or `signal` aborts it. */
async function readLines(res, onLine) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) { try { onLine(JSON.parse(line)); } catch { /* a line that is not JSON is skipped */ } }
    }
  }
}
/** Asks the open screen's projections again after a commit; while a field of it is being edited, waits until
 *  the focus leaves it, so that nobody's typing is drawn over. */
function refreshOpenScreen() {
  const active = document.activeElement;
  if (active && $("#main").contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.id !== "search") {
    active.addEventListener("blur", () => setTimeout(refreshOpenScreen, 0), { once: true });
    return;
  }
  if (state.refresh) state.refresh().catch(() => {});
}

/** Calls `draw(answer)` when `answer` differs from the one drawn last: a commit that changed nothing on the
 *  screen leaves it as it is. */
function changed() {
  let last = null;
  return (answer) => {
    const key = JSON.stringify(answer);
    if (key === last) return false;
    last = key;
    return true;
  };
}

function stopLive() { if (state.liveAbort) state.liveAbort.abort(); state.liveAbort = null; $("#live").textContent = ""; }
/** Follows the commits so that the open screen asks its projections again; reconnects after a drop. */
async function startLive() {
  stopLive();
  const ctl = new AbortController();
  state.liveAbort = ctl;
  let pending = null;
  while (!ctl.signal.aborted && state.session) {
    try {
      const res = await fetch("/v1/heads?follow=true", {
        headers: { Accept: "application/x-ndjson", Authorization: "Bearer " + state.session.token }, signal: ctl.signal });
      if (!res.ok) {
        // The session is over (the server ends a stream with it): back to sign-in, as a refused call does.
        if (res.status === 401) { $("#live").textContent = ""; saveSession(null); location.hash = "#/signin?ended=1"; return; }
        throw new Error(String(res.status));
      }
      $("#live").textContent = "live";
      await readLines(res, (line) => {
        if (line.seq === undefined) return;
        clearTimeout(pending);
        pending = setTimeout(refreshOpenScreen, 60);
      });
    } catch (e) {
      if (ctl.signal.aborted) return;
    }
    $("#live").textContent = "reconnecting…";
    await new Promise((r) => setTimeout(r, 1500));
  }
}

// ---- Routing ---------------------------------------------------------------------------------------------

function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, qs] = raw.split("?");
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(qs || "") };
}
function go(path, params) { location.hash = "#" + path + (params ? query(params) : ""); }

function navItems() {
  if (isCustomer()) return [["me", "My status"], ["goals", "Goals"], ["settings", "Settings"]];
  const items = [["home", "Home"], ["history", "History"]];
  if (isAdmin()) items.push(["customers", "Customers"]);
  items.push(["goals", "Goals"], ["settings", "Settings"]);
  if (isAdmin()) items.push(["audit", "Audit"]);
  return items;
}
function drawChrome(current) {
  const top = $("#top");
  top.hidden = !state.session;
  if (!state.session) return;
  $("#nav").replaceChildren(...navItems().map(([key, label]) =>
    h("a", { href: "#/" + key, "aria-current": key === current ? "page" : null }, label)));
  $("#who").textContent = `${state.session.user} (${state.session.role})`;
}

async function route() {
  clearInterval(state.lockTimer);
  state.refresh = null;
  const { parts, params } = parseHash();
  const screen = parts[0] || (state.session ? (isCustomer() ? "me" : "home") : "signin");
  if (!state.session && screen !== "signin" && screen !== "join") return go("/signin");
  drawChrome(screen === "customers" && parts[1] === me() ? "me" : screen);
  const screens = { signin, join, home, scan: newScan, history: historyScreen, scans: scanDetails, settings, customers, me: myStatus,
    register, goals, audit };
  const draw = screens[screen];
  if (!draw) return show(h("h1", {}, "Not found"), h("p", {}, "There is no such screen. "), h("a", { href: "#/" }, "Home"));
  try {
    await draw(parts.slice(1), params);
  } catch (err) {
    if (err.status !== 401) show(h("h1", {}, "Something went wrong"), errorBox(err));
  }
  const main = $("#main");
  if (document.activeElement === document.body) main.focus({ preventScroll: true });
}

// ---- Sign-in: the passcode keypad (brief 001) ------------------------------------------------------------

/** The keypad of the passcode gate: digits from its buttons or the keyboard, shown as dots. */
function keypad({ onChange, onEnter }) {
  let digits = "";
  const dots = h("div", { class: "dots", "aria-live": "polite", "aria-label": "passcode entered" });
  const set = (d) => { digits = d.slice(0, 8); dots.textContent = "•".repeat(digits.length); onChange(digits); };
  const press = (k) => {
    if (pad.dataset.disabled === "true") return;
    if (k === "del") set(digits.slice(0, -1)); else if (k === "ok") onEnter(); else set(digits + k);
  };
  const key = (k, label, aria) => h("button", { type: "button", "data-key": k, "aria-label": aria || label, onclick: () => press(k) }, label);
  const pad = h("div", { class: "keypad", role: "group", "aria-label": "passcode keypad" },
    ..."123456789".split("").map((d) => key(d, d)), key("del", "⌫", "delete"), key("0", "0"), key("ok", "OK", "sign in"));
  const onKey = (e) => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) return;
    if (/^[0-9]$/.test(e.key)) press(e.key);
    else if (e.key === "Backspace") press("del");
    else if (e.key === "Enter") press("ok");
  };
  return {
    nodes: [dots, pad], onKey, clear: () => set(""), get value() { return digits; },
    disable(on) {
      pad.dataset.disabled = on ? "true" : "false";
      for (const b of pad.querySelectorAll("button")) b.disabled = on;
    },
  };
}

async function signin(_, params) {
  const user = h("input", { id: "user", autocomplete: "username", autocapitalize: "none", spellcheck: "false" });
  const message = h("p", { id: "signin-message", role: "alert" });
  const button = h("button", { type: "submit", id: "signin-button", disabled: true }, "Sign in");
  const pad = keypad({ onChange: () => update(), onEnter: () => form.requestSubmit() });
  const update = () => { button.disabled = !(user.value.trim() && pad.value.length >= 4) || pad.locked; };
  user.addEventListener("input", update);
  const lock = (seconds) => {
    let left = seconds;
    pad.locked = true; pad.disable(true); update();
    const tick = () => {
      message.className = "error";
      message.textContent = `Locked out: try again in ${left} s`;
      if (left-- <= 0) {
        clearInterval(state.lockTimer); pad.locked = false; pad.disable(false); update();
        message.className = ""; message.textContent = "You can try again.";
      }
    };
    tick();
    state.lockTimer = setInterval(tick, 1000);
  };
  const form = h("form", { class: "card", onsubmit: async (e) => {
    e.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    try {
      const s = await api("POST", "/v1/sessions", { user: user.value.trim(), passcode: pad.value });
      saveSession(s);
      startLive();
      go(s.role === "customer" ? "/me" : "/home");
    } catch (err) {
      pad.clear();
      if (err.status === 423) return lock(err.retryAfter || 60);
      message.className = "error";
      message.textContent = err.message;
      const m = /locked out for (\d+) s/.exec(err.message);
      if (m) lock(Number(m[1]));
      update();
    }
  } },
  h("label", { for: "user" }, "Username"), user,
  h("label", {}, "Passcode"), ...pad.nodes, message, button);
  document.onkeydown = pad.onKey;
  show(h("div", { class: "signin" }, h("h1", {}, "Sign in"),
    params.get("ended") ? h("p", { class: "notice" }, "Your session ended: sign in again.") : null,
    form, h("p", {}, "New customer? ", h("a", { href: "#/join" }, "Register"))));
  user.focus();
}

// ---- Home: stats and recent scans ------------------------------------------------------------------------

function scanItem(scan) {
  return h("li", {}, h("a", { class: "item", href: "#/scans/" + encodeURIComponent(scan.scanId), "data-scan": scan.scanId },
    h("span", { class: "main" }, h("strong", {}, scan.productName), " ", h("span", { class: "sub" }, scan.category),
      h("br"), h("span", { class: "sub" }, scan.code)),
    h("span", { class: "side" }, h("span", { class: "result-" + scan.result }, scan.result === "authentic" ? "Authentic" : "Counterfeit"),
      h("br"), timeEl(scan.at))));
}
function statCard(key, label, value) {
  return h("div", { class: "stat", "data-stat": key }, h("span", { class: "n" }, value), h("span", { class: "l" }, label));
}

async function home() {
  const fresh = changed();
  const draw = async () => {
    const s = await api("GET", "/v1/stats");
    if (!fresh(s)) return;
    const max = Math.max(1, ...s.byCategory.map((c) => c.total));
    show(
      h("h1", {}, "Home"),
      h("div", { class: "row" }, h("a", { class: "button", href: "#/scan" }, "Scan now"),
        h("a", { class: "button secondary", href: "#/history" }, "View all")),
      h("h2", {}, "Scans"),
      h("div", { class: "grid", id: "stats" },
        statCard("total", "Scans", s.total), statCard("authentic", "Authentic", s.authentic),
        statCard("counterfeit", "Counterfeit", s.counterfeit), statCard("counterfeitRate", "Counterfeit rate", percent(s.counterfeitRate)),
        statCard("reported", "Reported", s.reported), statCard("today", "Today", s.today),
        statCard("last7d", "Last 7 days", s.last7d), statCard("last30d", "Last 30 days", s.last30d)),
      h("div", { class: "split" },
        h("section", { class: "card" }, h("h2", {}, "By category"),
          s.byCategory.length ? h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Category"), h("th", {}, "Scans"), h("th", {}, "Counterfeit"))),
            h("tbody", {}, s.byCategory.map((c) => h("tr", { "data-category": c.category }, h("td", {}, c.category,
              h("div", { class: "bar", "aria-hidden": "true" }, h("span", { style: `width:${(100 * c.total / max).toFixed(1)}%` }))),
              h("td", {}, c.total), h("td", {}, c.counterfeit))))) : h("p", { class: "sub" }, "No scans yet.")),
        h("section", { class: "card" }, h("h2", {}, "Recent scans"),
          s.recent.length ? h("ul", { class: "list", id: "recent" }, s.recent.map(scanItem)) : h("p", { class: "sub" }, "No scans yet."))));
    // When the stats were first drawn after the page loaded: issue 22's bar, read by scripts/dashboard_bench.py.
    if (!performance.getEntriesByName("veritrail-stats").length) performance.mark("veritrail-stats");
  };
  state.refresh = draw;
  await draw();
}

// ---- Scanning (manual entry, brief 002) ------------------------------------------------------------------

async function newScan() {
  const settings = await api("GET", `/v1/settings/${encodeURIComponent(me())}`);
  const f = (id, label, attrs = {}) => [h("label", { for: id }, label), h("input", { id, ...attrs })];
  const result = h("select", { id: "result" }, h("option", { value: "authentic" }, "Authentic"), h("option", { value: "counterfeit" }, "Counterfeit"));
  const source = h("select", { id: "source" }, ["manual", "camera", "gallery"].map((s) => h("option", { value: s }, s)));
  const flash = h("input", { id: "flash", type: "checkbox", style: "width:auto", checked: settings.flash });
  const out = h("div", { id: "scan-result" });
  const form = h("form", { class: "card", onsubmit: async (e) => {
    e.preventDefault();
    const v = (id) => $("#" + id, form).value.trim();
    const body = { code: $("#code", form).value, productName: v("productName"), category: v("category"), result: result.value,
      source: source.value, flash: flash.checked, mode: settings.captureMode };
    for (const k of ["brand", "location", "notes"]) if (v(k)) body[k] = v(k);
    try {
      const scan = await api("POST", "/v1/scans", body);
      out.replaceChildren(h("div", { class: "card" },
        h("p", { class: "result-" + scan.result }, scan.result === "authentic" ? "Genuine product" : "Counterfeit!"),
        scan.seenBefore ? h("p", { class: "notice" }, `This code was scanned ${scan.seenBefore} time(s) before.`) : null,
        h("div", { class: "row" }, h("a", { class: "button", href: "#/scans/" + encodeURIComponent(scan.scanId) }, "Details"),
          h("a", { class: "button secondary", href: "#/scans/" + encodeURIComponent(scan.scanId) + "?report=1" }, "Report counterfeit"),
          h("button", { type: "button", class: "secondary", onclick: () => { form.reset(); out.replaceChildren(); } }, "Continue scanning"))));
    } catch (err) { out.replaceChildren(errorBox(err)); }
  } },
  ...f("code", "Code (what the QR code or plate says)", { required: true }), ...f("productName", "Product", { required: true }),
  ...f("category", "Category", { required: true }), h("label", { for: "result" }, "Result"), result,
  ...f("brand", "Brand (optional)"), ...f("location", "Location (optional)"), ...f("notes", "Notes (optional)"),
  h("label", { for: "source" }, "Source"), source,
  h("label", { for: "flash" }, flash, " Flash on"), h("p", { class: "sub" }, `Capture mode: ${settings.captureMode}`),
  h("button", { type: "submit" }, "Record scan"));
  show(h("h1", {}, "Scan"), form, out);
}

// ---- History, filters and search -------------------------------------------------------------------------

async function historyScreen(_, params) {
  const [settings, searches] = await Promise.all([
    api("GET", `/v1/settings/${encodeURIComponent(me())}`),
    api("GET", `/v1/searches/${encodeURIComponent(me())}`),
  ]);
  const f = {
    type: params.get("type") || "all", window: params.get("window") || settings.historyWindow,
    category: params.get("category") || "", search: params.get("search") || "", offset: Number(params.get("offset")) || 0,
  };
  const results = h("div", { id: "results" });
  const recent = h("div", { class: "chips", id: "recent-searches" });
  const typeTabs = h("div", { class: "tabs", role: "group", "aria-label": "type" });
  const windowSel = h("select", { id: "window" }, settings.windows.map((w) => h("option", { value: w, selected: w === f.window }, w)));
  const categorySel = h("select", { id: "category" }, h("option", { value: "" }, "every category"));
  const search = h("input", { id: "search", type: "search", value: f.search, placeholder: "Search every field", autocomplete: "off",
    list: "search-suggestions" });
  const suggestions = h("datalist", { id: "search-suggestions" });
  let recentQueries = searches.recent;
  let controller = null, ticket = 0;

  const drawRecent = (list) => {
    recentQueries = list;
    recent.replaceChildren(...list.map((q) =>
      h("button", { type: "button", onclick: () => { search.value = q; f.search = q; f.offset = 0; load(); } }, q)));
  };
  /** Suggestions as one types: recent searches, then the products, brands and categories of the scans found,
   *  that hold what was typed; at most eight. */
  const suggest = (items) => {
    const typed = f.search.trim().toLowerCase();
    const seen = new Set();
    const words = typed ? [...recentQueries, ...items.flatMap((i) => [i.productName, i.brand, i.category])]
      .filter((w) => w && w.toLowerCase().includes(typed) && !seen.has(w) && seen.add(w)).slice(0, 8) : [];
    suggestions.replaceChildren(...words.map((w) => h("option", { value: w })));
  };
  const drawTabs = () => typeTabs.replaceChildren(...[["all", "All"], ["success", "Success"], ["failed", "Failed"]].map(([k, label]) =>
    h("button", { type: "button", "data-type": k, "aria-pressed": String(f.type === k), onclick: () => { f.type = k; f.offset = 0; drawTabs(); load(); } }, label)));
  const load = async () => {
    if (controller) controller.abort();
    controller = new AbortController();
    const mine = ++ticket;
    window.history.replaceState(null, "", "#/history" + query({ type: f.type, window: f.window, category: f.category, search: f.search, offset: f.offset || "" }));
    try {
      const a = await api("GET", "/v1/history" + query({ type: f.type, window: f.window, category: f.category, search: f.search,
        limit: PAGE, offset: f.offset }), undefined, { signal: controller.signal });
      if (mine !== ticket) return;
      const chosen = categorySel.value || f.category;
      categorySel.replaceChildren(h("option", { value: "" }, "every category"),
        ...a.categories.map((c) => h("option", { value: c, selected: c === chosen }, c)));
      suggest(a.items);
      const from = a.total ? f.offset + 1 : 0, to = f.offset + a.items.length;
      results.replaceChildren(
        h("p", { class: "sub", id: "total", "data-total": a.total }, `${from}–${to} of ${a.total}`),
        a.items.length ? h("ul", { class: "list card" }, a.items.map(scanItem)) : h("p", { class: "card" }, "No scans match."),
        h("div", { class: "pager" },
          h("button", { type: "button", class: "secondary", disabled: f.offset === 0, onclick: () => { f.offset = Math.max(0, f.offset - PAGE); load(); } }, "Previous"),
          h("button", { type: "button", class: "secondary", disabled: to >= a.total, onclick: () => { f.offset += PAGE; load(); } }, "Next")));
    } catch (err) {
      if (err.name !== "AbortError" && mine === ticket) results.replaceChildren(errorBox(err));
    }
  };
  search.addEventListener("input", () => { f.search = search.value; f.offset = 0; load(); });
  search.addEventListener("keydown", async (e) => {
    if (e.key !== "Enter" || !search.value.trim()) return;
    e.preventDefault();
    try {
      await api("POST", "/v1/searches", { query: search.value.trim() });
      drawRecent((await api("GET", `/v1/searches/${encodeURIComponent(me())}`)).recent);
    } catch (err) { results.prepend(errorBox(err)); }
  });
  windowSel.addEventListener("change", () => { f.window = windowSel.value; f.offset = 0; load(); });
  categorySel.addEventListener("change", () => { f.category = categorySel.value; f.offset = 0; load(); });
  drawTabs();
  drawRecent(searches.recent);
  show(h("h1", {}, "History"), typeTabs,
    h("div", { class: "card" }, h("label", { for: "search" }, "Search"), search, suggestions,
      h("p", { class: "sub" }, "Recent searches (Enter keeps a search here)"), recent,
      h("div", { class: "row" }, h("div", {}, h("label", { for: "window" }, "Window"), windowSel),
        h("div", {}, h("label", { for: "category" }, "Category"), categorySel))),
    results);
  state.refresh = load;
  await load();
}

// ---- A scan's details and its report ---------------------------------------------------------------------

async function scanDetails([id], params) {
  const fresh = changed();
  const draw = async () => {
    const s = await api("GET", `/v1/scans/${encodeURIComponent(id)}`);
    if (!fresh(s)) return;
    const facts = [["Scan id", s.scanId], ["When", timeEl(s.at)], ["By", s.actor], ["Code", s.code], ["Product", s.productName],
      ["Brand", s.brand], ["Category", s.category], ["Result", h("span", { class: "result-" + s.result }, s.result)],
      ["Mode", s.mode], ["Source", s.source], ["Flash", s.flash ? "on" : "off"], ["Location", s.location],
      ["Batch", s.batchId], ["Notes", s.notes]].filter(([, v]) => v !== undefined);
    const parts = [h("h1", {}, s.productName),
      s.seenBefore ? h("p", { class: "notice", id: "seen-before" },
        `Seen before: this code was scanned ${s.seenBefore} time${s.seenBefore === 1 ? "" : "s"} before this scan. Worth a second look.`) : null,
      h("dl", { class: "facts card" }, facts.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]))];
    if (s.report) {
      parts.push(h("section", { class: "card", id: "report" }, h("h2", {}, "Reported as counterfeit"),
        h("dl", { class: "facts" }, h("dt", {}, "Reason"), h("dd", {}, s.report.reason),
          s.report.message ? [h("dt", {}, "Message"), h("dd", {}, s.report.message)] : null,
          h("dt", {}, "By"), h("dd", {}, s.report.by), h("dt", {}, "When"), h("dd", {}, timeEl(s.report.at)))));
    } else {
      const reason = h("select", { id: "reason" }, REASONS.map((r) => h("option", { value: r }, r)));
      const message = h("textarea", { id: "message", rows: 3, maxlength: 280 });
      const out = h("p", { role: "status" });
      parts.push(h("form", { class: "card", id: "report-form", onsubmit: async (e) => {
        e.preventDefault();
        const body = { reason: reason.value };
        if (message.value.trim()) body.message = message.value.trim();
        try {
          await api("POST", `/v1/scans/${encodeURIComponent(s.scanId)}/report`, body);
          await draw();
          $("#main").prepend(h("p", { class: "ok", role: "status", id: "reported" }, "Thank you: the counterfeit was reported."));
        } catch (err) { out.replaceChildren(errorBox(err)); }
      } }, h("h2", {}, "Report counterfeit"), h("label", { for: "reason" }, "Reason"), reason,
      h("label", { for: "message" }, "Message (required for other)"), message, out, h("button", { type: "submit" }, "Report")));
    }
    show(...parts);
    if (params.get("report") && $("#reason")) $("#reason").focus();
  };
  state.refresh = draw;
  await draw();
}

// ---- Settings --------------------------------------------------------------------------------------------

async function settings() {
  const fresh = changed();
  let said = "";
  const draw = async () => {
    const s = await api("GET", `/v1/settings/${encodeURIComponent(me())}`);
    if (!fresh(s)) return;
    const flash = h("input", { id: "flash", type: "checkbox", style: "width:auto", checked: s.flash });
    const mode = h("select", { id: "captureMode" }, ["single", "batch"].map((m) => h("option", { value: m, selected: m === s.captureMode }, m)));
    const win = h("select", { id: "historyWindow" }, s.windows.map((w) => h("option", { value: w, selected: w === s.historyWindow }, w)));
    const out = h("p", { role: "status", id: "settings-out", class: said ? "ok" : null }, said);
    show(h("h1", {}, "Settings"), h("form", { class: "card", onsubmit: async (e) => {
      e.preventDefault();
      // What differs from the settings drawn, which a change made elsewhere redraws (a commit), so that a save
      // never leaves a value other than the one shown.
      const body = {};
      if (flash.checked !== s.flash) body.flash = flash.checked;
      if (mode.value !== s.captureMode) body.captureMode = mode.value;
      if (win.value !== s.historyWindow) body.historyWindow = win.value;
      if (!Object.keys(body).length) { out.textContent = "Nothing to change."; return; }
      try {
        await api("PATCH", `/v1/settings/${encodeURIComponent(me())}`, body);
        Object.assign(s, body);
        said = "Saved.";
        out.className = "ok"; out.textContent = said;
      } catch (err) { out.replaceChildren(errorBox(err)); }
    } }, h("label", { for: "flash" }, flash, " Flash always on"),
    h("label", { for: "captureMode" }, "Capture mode"), mode,
    h("label", { for: "historyWindow" }, "History window (the history's default)"), win, out,
    h("button", { type: "submit" }, "Save")),
    h("p", { class: "sub" }, h("a", { href: "https://veritrail.invalid/help" }, "Help"), " · ",
      h("a", { href: "https://veritrail.invalid/feedback" }, "Feedback"), " · Veritrail dashboard"));
  };
  state.refresh = draw;
  await draw();
}

// ---- Customers (brief 003) -------------------------------------------------------------------------------

function statusBadge(status) { return h("span", { class: "status s-" + status, "data-status": status }, status); }

async function customers(parts, params) {
  if (parts.length) return customerPage(parts[0]);
  const status = params.get("status") || "";
  const fresh = changed();
  const draw = async () => {
    const a = await api("GET", "/v1/customers" + query({ status }));
    if (!fresh(a)) return;
    show(h("h1", {}, "Customers"),
      h("div", { class: "row" }, h("a", { class: "button", href: "#/register" }, "Register a customer")),
      h("div", { class: "chips", role: "group", "aria-label": "status filter" },
        h("button", { type: "button", "aria-pressed": String(!status), onclick: () => go("/customers") }, "All"),
        STATUSES.map((s) => h("button", { type: "button", class: "s-" + s, "data-count": s, "aria-pressed": String(status === s),
          onclick: () => go("/customers", { status: s }) }, `${s} ${a.counts[s]}`))),
      a.customers.length ? h("ul", { class: "list", id: "customers" }, a.customers.map((c) =>
        h("li", { class: "status-row s-" + c.status, "data-user": c.username },
          h("a", { class: "item", href: "#/customers/" + encodeURIComponent(c.username) },
            h("span", { class: "main" }, h("strong", {}, c.name), " ", c.username, h("br"), c.email, c.phone ? " · " + c.phone : "", " · ", c.city),
            h("span", { class: "side" }, c.status, h("br"), "since ", timeEl(c.since)))))) : h("p", { class: "card" }, "No customers."));
  };
  state.refresh = draw;
  await draw();
}

async function customerPage(user) {
  const fresh = changed();
  const draw = async () => {
    const c = await api("GET", `/v1/customers/${encodeURIComponent(user)}`);
    if (!fresh(c)) return;
    const addr = c.address || {};
    const facts = [["Username", c.username], ["Name", c.name], ["Email", c.email], ["Phone", c.phone], ["Website", c.website],
      ["Address", [addr.street, addr.suite, addr.zipcode, addr.city].filter(Boolean).join(", ")],
      ["Location", c.geo ? `${c.geo.lat}, ${c.geo.lng}` : undefined], ["Company", c.company && c.company.name],
      ["Registered", timeEl(c.registeredAt)], ["Status", statusBadge(c.status)]].filter(([, v]) => v !== undefined && v !== "");
    const parts = [h("h1", {}, c.name), h("dl", { class: "facts card" }, facts.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
      c.geo ? h("section", { class: "card" }, h("h2", {}, "Location"), locationMap(c.geo, c.name)) : null,
      user === me() ? ownDetailsForm(c, draw) : null,
      h("section", { class: "card" }, h("h2", {}, "Status history"), h("table", { id: "status-history" },
        h("thead", {}, h("tr", {}, h("th", {}, "Status"), h("th", {}, "When"), h("th", {}, "By"), h("th", {}, "Note"))),
        h("tbody", {}, c.statusHistory.map((s) => h("tr", {}, h("td", {}, statusBadge(s.status)), h("td", {}, timeEl(s.at)),
          h("td", {}, s.by), h("td", {}, s.note || ""))))))];
    if (isAdmin()) {
      const next = h("select", { id: "new-status" }, STATUSES.filter((s) => s !== c.status).map((s) => h("option", { value: s }, `${s} — ${STATUS_WORDS[s]}`)));
      const note = h("input", { id: "note", maxlength: 200 });
      const out = h("p", { role: "status" });
      parts.push(h("form", { class: "card", id: "status-form", onsubmit: async (e) => {
        e.preventDefault();
        const body = { status: next.value };
        if (note.value.trim()) body.note = note.value.trim();
        try { await api("POST", `/v1/customers/${encodeURIComponent(user)}/status`, body); await draw(); }
        catch (err) { out.replaceChildren(errorBox(err)); }
      } }, h("h2", {}, "Change the status"), h("label", { for: "new-status" }, "New status"), next,
      h("label", { for: "note" }, "Note (optional)"), note, out, h("button", { type: "submit" }, "Change status")),
      h("p", {}, h("button", { type: "button", class: "secondary", onclick: async () => {
        if (!confirm(`Delete ${c.username}? Their data is not real: this can not be undone.`)) return;
        try { await api("DELETE", `/v1/accounts/${encodeURIComponent(user)}`, { reason: "data is not real" }); go("/customers"); }
        catch (err) { $("#main").prepend(errorBox(err)); }
      } }, "Delete this customer")));
    }
    show(...parts);
  };
  state.refresh = draw;
  await draw();
}

function myStatus() { return customerPage(me()); }

/** Where a customer is: a map drawn here (the dashboard loads nothing from elsewhere), the world as a grid of
 *  meridians and parallels every 30°, the equator and the prime meridian marked, and the customer's point. */
function locationMap(geo, name) {
  const lat = Number(geo.lat), lng = Number(geo.lng);
  const W = 360, H = 180, x = lng + 180, y = 90 - lat;
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const svg = el("svg", { id: "map", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", class: "map",
    "aria-label": `${name}: latitude ${lat}, longitude ${lng}` });
  svg.append(el("rect", { x: 0, y: 0, width: W, height: H, class: "sea" }));
  for (let m = 30; m < W; m += 30) svg.append(el("line", { x1: m, y1: 0, x2: m, y2: H, class: m === 180 ? "axis" : "grid" }));
  for (let p = 30; p < H; p += 30) svg.append(el("line", { x1: 0, y1: p, x2: W, y2: p, class: p === 90 ? "axis" : "grid" }));
  if (Number.isFinite(lat) && Number.isFinite(lng)) {
    const mark = el("circle", { cx: x, cy: y, r: 5, class: "marker", "data-lat": lat, "data-lng": lng });
    mark.append(el("title", {}, `${name}: ${lat}, ${lng}`));
    svg.append(mark);
  }
  return h("figure", {}, svg, h("figcaption", { class: "sub" }, `${lat}, ${lng} `,
    h("a", { href: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=12/${lat}/${lng}`, rel: "noopener noreferrer",
      target: "_blank" }, "Open in OpenStreetMap")));
}

/** A customer's own details, editable but the email (events.md account.updated); only what changed is sent. */
function ownDetailsForm(c, redraw) {
  const addr = c.address || {};
  const fields = [["name", "Name", c.name], ["phone", "Phone", c.phone], ["website", "Website", c.website],
    ["street", "Street", addr.street], ["suite", "Suite", addr.suite], ["city", "City", addr.city],
    ["zipcode", "Zip code", addr.zipcode], ["company", "Company", c.company && c.company.name]];
  const inputs = Object.fromEntries(fields.map(([k, , v]) => [k, h("input", { id: "me-" + k, value: v || "" })]));
  const out = h("p", { role: "status", id: "me-out" });
  return h("form", { class: "card", id: "me-form", onsubmit: async (e) => {
    e.preventDefault();
    const now = Object.fromEntries(Object.entries(inputs).map(([k, i]) => [k, i.value.trim()]));
    const before = Object.fromEntries(fields.map(([k, , v]) => [k, v || ""]));
    const body = {};
    for (const k of ["name", "phone", "website"]) if (now[k] !== before[k]) body[k] = now[k];
    if (["street", "suite", "city", "zipcode"].some((k) => now[k] !== before[k])) {
      body.address = Object.fromEntries(["street", "suite", "city", "zipcode"].filter((k) => now[k]).map((k) => [k, now[k]]));
    }
    if (now.company !== before.company) body.company = { ...(c.company || {}), name: now.company };
    if (!Object.keys(body).length) { out.textContent = "Nothing changed."; return; }
    try { await api("PATCH", `/v1/accounts/${encodeURIComponent(c.username)}`, body); await redraw(); }
    catch (err) { out.replaceChildren(errorBox(err)); }
  } }, h("h2", {}, "Your details"),
    h("label", { for: "me-email" }, "Email (can not be changed)"), h("input", { id: "me-email", value: c.email || "", disabled: true }),
    fields.map(([k, label]) => [h("label", { for: "me-" + k }, label), inputs[k]]), out, h("button", { type: "submit" }, "Save"));
}

/** Where the server placed an address's city (the answer's `placement`), as the command line says it: the place,
 *  or that it could not be placed; a guess names the places of similar size that bear the name too. */
function placementSentence(p) {
  const label = (q) => [q.name, q.region, q.country].filter(Boolean).join(", ");
  if (!p.placed) return `"${p.city}" could not be placed: the address is kept without a position on the map.`;
  const rivals = p.rivals || [];
  if (!rivals.length) return `Placed "${p.city}" at ${label(p)}.`;
  return `Placed "${p.city}" at ${label(p)}, by a guess: places of similar size bear that name too: `
    + rivals.slice(0, 3).map(label).join("; ") + ". Say which with \"City, Country\" to be sure.";
}

/** The registration form, for an admin registering a customer or a customer registering themselves (with a
 *  passcode, set twice). */
function registrationForm({ self }) {
  const f = (id, label, attrs = {}) => [h("label", { for: id }, label), h("input", { id, ...attrs })];
  const out = h("div", { role: "status", id: "register-out" });
  const form = h("form", { class: "card", onsubmit: async (e) => {
    e.preventDefault();
    const v = (id) => $("#" + id, form).value.trim();
    const body = { username: v("r-username"), role: "customer", name: v("r-name"), email: v("r-email"),
      address: { street: v("r-street"), city: v("r-city"), zipcode: v("r-zipcode") } };
    if (v("r-suite")) body.address.suite = v("r-suite");
    if (v("r-phone")) body.phone = v("r-phone");
    if (v("r-website")) body.website = v("r-website");
    if (v("r-company")) body.company = { name: v("r-company") };
    if (self) {
      if ($("#r-passcode", form).value !== $("#r-passcode2", form).value) { out.replaceChildren(errorBox(new Error("The two passcodes differ: enter the same one twice."))); return; }
      body.passcode = $("#r-passcode", form).value;
    }
    try {
      const answer = await api("POST", "/v1/accounts", body);
      const placement = answer && answer.placement;
      out.replaceChildren(h("p", { class: "ok" }, `Registered ${body.username}.`),
        placement ? h("p", { class: placement.rivals && placement.rivals.length ? "notice" : "sub", id: "placement" }, placementSentence(placement)) : null,
        self ? h("p", {}, h("a", { href: "#/signin" }, "Sign in")) : h("p", {}, h("a", { href: "#/customers/" + encodeURIComponent(body.username) }, "Open the customer")));
    } catch (err) { out.replaceChildren(errorBox(err)); }
  } },
  ...f("r-username", "Username", { required: true, autocapitalize: "none" }), ...f("r-name", "Name", { required: true }),
  ...f("r-email", "Email", { required: true, type: "email" }), ...f("r-phone", "Phone (optional)", { type: "tel" }),
  ...f("r-website", "Website (optional)"), ...f("r-street", "Street", { required: true }), ...f("r-suite", "Suite (optional)"),
  ...f("r-city", "City", { required: true }), ...f("r-zipcode", "Zip code", { required: true }), ...f("r-company", "Company (optional)"),
  self ? [...f("r-passcode", "Passcode (4 to 8 digits)", { required: true, type: "password", inputmode: "numeric", pattern: "[0-9]{4,8}" }),
    ...f("r-passcode2", "The passcode again", { required: true, type: "password", inputmode: "numeric", pattern: "[0-9]{4,8}" })] : null,
  out, h("button", { type: "submit" }, "Register"));
  return form;
}
function register() { show(h("h1", {}, "Register a customer"), registrationForm({ self: false })); }
function join() { document.onkeydown = null; show(h("h1", {}, "Register as a customer"), registrationForm({ self: true }), h("p", {}, h("a", { href: "#/signin" }, "Back to sign-in"))); }

// ---- Goals: the monthly ring (brief 004) -----------------------------------------------------------------

/** The goal ring: the outer circle is progress (blue done, grey rest), the inner orange arc one of three views;
 *  both start at 12 o'clock and grow into place. */
function ring(metric, view) {
  const size = 220, c = size / 2, R = 92, r = 70;
  const C = 2 * Math.PI * R, c2 = 2 * Math.PI * r;
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "style") e.style.cssText = v; else e.setAttribute(k, v);
    }
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "ring", role: "img",
    "aria-label": metric.message || `${metric.progress} ${METRIC_WORDS[metric.metric]}, ${metric.percent ?? 0} %` });
  const g = el("g", { transform: `rotate(-90 ${c} ${c})` });
  g.append(el("circle", { cx: c, cy: c, r: R, fill: "none", stroke: "var(--ring-rest)", "stroke-width": 16 }));
  const rg = metric.ring || { progress: 0, lastSession: { start: 0, end: 0 }, remaining: 1 };
  const arc = (radius, circ, from, to, color, width, name) => el("circle", { cx: c, cy: c, r: radius, fill: "none", stroke: color,
    "stroke-width": width, "stroke-dasharray": `0 ${circ}`, "stroke-dashoffset": String(-from * circ), "data-arc": name,
    "data-to": String((to - from) * circ), style: "transition: stroke-dasharray .8s ease-out" });
  g.append(arc(R, C, 0, rg.progress, "var(--ring-done)", 16, "progress"));
  const inner = view === "last" ? [rg.lastSession.start, rg.lastSession.end] : view === "remaining" ? [rg.progress, 1] : [0, rg.progress];
  g.append(arc(r, c2, inner[0], inner[1], "var(--ring-inner)", 12, "inner"));
  svg.append(g);
  const label = metric.message ? [metric.message] : [`${metric.progress} ${METRIC_WORDS[metric.metric]}`, metric.percent === null ? "no goal" : `${metric.percent}%`];
  label.forEach((t, i) => svg.append(el("text", { x: c, y: c + (i - (label.length - 1) / 2) * 22 + 6, "text-anchor": "middle",
    "font-size": i === 0 ? 17 : 15, fill: "currentColor" }, t)));
  requestAnimationFrame(() => requestAnimationFrame(() => {
    for (const a of svg.querySelectorAll("[data-arc]")) {
      const circ = a.getAttribute("r") === String(R) ? C : c2;
      a.setAttribute("stroke-dasharray", `${a.dataset.to} ${circ}`);
    }
  }));
  return svg;
}

async function goals(_, params) {
  const user = params.get("user") || me();
  let month = params.get("month") || "";
  let metricKey = params.get("metric") || "jumps";
  let view = "progress";
  const fresh = changed();
  // `fromCommit`: asked again after a commit, which redraws (and so resets an editor being used) only when the
  // answer changed; a click of the screen's own redraws.
  const draw = async (fromCommit) => {
    const g = await api("GET", `/v1/goals/${encodeURIComponent(user)}` + query({ month }));
    if (!fresh(g) && fromCommit === true) return;
    month = g.month;
    const metric = g.metrics.find((m) => m.metric === metricKey) || g.metrics[0];
    if (metric) metricKey = metric.metric;
    const idx = g.months.indexOf(g.month);
    const older = g.months[idx + 1], newer = idx > 0 ? g.months[idx - 1] : undefined;
    const parts = [h("h1", {}, user === me() ? "Goals" : `Goals of ${user}`),
      h("div", { class: "pager card", role: "group", "aria-label": "month" },
        h("button", { type: "button", class: "secondary", disabled: !older, onclick: () => { month = older; draw(); } }, "‹ Earlier"),
        h("strong", { id: "month" }, g.month),
        h("button", { type: "button", class: "secondary", disabled: !newer, onclick: () => { month = newer; draw(); } }, "Later ›"))];
    if (!g.metrics.length) {
      parts.push(h("p", { class: "card", id: "no-goals" }, "No jumps yet this month, and no goal set."));
    } else {
      parts.push(h("div", { class: "tabs", role: "group", "aria-label": "metric" }, g.metrics.map((m) =>
        h("button", { type: "button", "data-metric": m.metric, "aria-pressed": String(m.metric === metricKey),
          onclick: () => { metricKey = m.metric; draw(); } }, METRIC_WORDS[m.metric]))));
      parts.push(h("section", { class: "card ring-wrap", id: "ring", "data-metric": metric.metric, "data-progress": metric.progress,
        "data-percent": metric.percent ?? "" },
        ring(metric, view),
        h("p", { class: "sub" }, metric.target === null ? "No goal this month" : `Goal: ${metric.target} · remaining ${metric.remaining}`),
        metric.ring ? h("div", { class: "tabs", role: "group", "aria-label": "inner arc" }, [["progress", "Progress"], ["last", "Last session"], ["remaining", "Remaining"]]
          .map(([k, label]) => h("button", { type: "button", "aria-pressed": String(view === k), onclick: () => { view = k; draw(); } }, label))) : null));
      if (metric.lastSession) {
        const s = metric.lastSession;
        parts.push(h("section", { class: "card", id: "last-session" }, h("h2", {}, "Last session"),
          h("dl", { class: "facts" }, h("dt", {}, "Date"), h("dd", {}, s.date), h("dt", {}, "Park"), h("dd", {}, s.park),
            h("dt", {}, "Time"), h("dd", {}, `${s.startTime}–${s.endTime}`), h("dt", {}, "Jumps"), h("dd", {}, s.jumps),
            h("dt", {}, "Calories"), h("dd", {}, s.calories))));
      }
    }
    if (user === me() && month === g.months[0]) parts.push(goalEditor(g, metricKey, draw));
    show(...parts);
  };
  state.refresh = () => draw(true);
  await draw();
}

/** Edit goals (brief 004): a ruler for the month's goal of each metric; calories needs fitness settings, which
 *  the server says when they are missing. 0 turns a metric off for the month. */
/** Each metric's ruler: its end and its step. */
const RULERS = { jumps: [100000, 100], calories: [100000, 10], scans: [10000, 1] };

function goalEditor(g, chosen, redraw) {
  const current = (m) => (g.metrics.find((x) => x.metric === m) || {}).target || 0;
  const metric = h("select", { id: "goal-metric" }, ["jumps", "calories", "scans"].map((m) =>
    h("option", { value: m, selected: m === chosen }, METRIC_WORDS[m])));
  const ruler = h("input", { id: "goal-target", type: "range", min: 0 });
  const shown = h("output", { for: "goal-target", id: "goal-shown" });
  const out = h("p", { role: "status", id: "goal-out" });
  // Each metric's ruler in its own steps (a scans goal of 50 is a goal; jumps go by the hundred), reaching at least
  // the goal already set.
  const fit = () => {
    const [max, step] = RULERS[metric.value];
    ruler.max = Math.max(max, current(metric.value));
    ruler.step = step;
    ruler.value = current(metric.value);
    shown.textContent = ruler.value;
  };
  fit();
  ruler.addEventListener("input", () => { shown.textContent = ruler.value; });
  metric.addEventListener("change", fit);
  return h("form", { class: "card", id: "goal-form", onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api("PUT", `/v1/goals/${encodeURIComponent(me())}`, { metric: metric.value, target: Number(ruler.value), month: g.month });
      await redraw();
    } catch (err) { out.replaceChildren(errorBox(err)); }
  } }, h("h2", {}, "Edit goals"), h("label", { for: "goal-metric" }, "Metric"), metric,
    h("label", { for: "goal-target" }, "Goal for " + g.month), ruler, h("p", {}, shown), out, h("button", { type: "submit" }, "Set goal"));
}

// ---- The auditor's page (admins) -------------------------------------------------------------------------

async function audit() {
  const events = h("ul", { class: "list events", id: "live-events" });
  const verifyOut = h("div", { id: "verify-out", role: "status" });
  const replayOut = h("div", { id: "replay-out" });
  const asOf = h("input", { id: "as-of", type: "datetime-local", step: 1 });
  const statusBox = h("div", { id: "log-status" });
  const checkpointBox = h("pre", { id: "checkpoint" });
  const drawStatus = async () => {
    const [s, cp] = await Promise.all([api("GET", "/v1/log/status"), api("GET", "/v1/log/checkpoint", undefined, { text: true })]);
    statusBox.replaceChildren(h("dl", { class: "facts" }, h("dt", {}, "Events"), h("dd", { "data-events": s.events }, s.events),
      h("dt", {}, "Head"), h("dd", {}, `${s.head.seq}:${s.head.hash}`), h("dt", {}, "First"), h("dd", {}, timeEl(s.firstAt)),
      h("dt", {}, "Last"), h("dd", {}, timeEl(s.lastAt)), s.origin ? [h("dt", {}, "Origin"), h("dd", {}, s.origin)] : null));
    checkpointBox.textContent = cp;
  };
  const key = await api("GET", "/v1/log/key", undefined, { text: true });
  show(h("h1", {}, "Audit"),
    h("div", { class: "split" },
      h("section", { class: "card" }, h("h2", {}, "Log status"), statusBox,
        h("p", {}, h("button", { type: "button", id: "verify", onclick: async () => {
          verifyOut.textContent = "Verifying…";
          try {
            const v = await api("GET", "/v1/log/verify");
            verifyOut.replaceChildren(v.ok ? h("p", { class: "ok" }, `Verified: ${v.events} events, the chain, the tree and the signed checkpoint agree.`)
              : h("p", { class: "error" }, `Broken at seq ${v.firstBadSeq}: ${v.reason}`));
          } catch (err) { verifyOut.replaceChildren(errorBox(err)); }
        } }, "Verify the log")), verifyOut),
      h("section", { class: "card" }, h("h2", {}, "Latest signed checkpoint"), checkpointBox,
        h("h2", {}, "Verifier key"), h("pre", { id: "key" }, key.trim()))),
    h("section", { class: "card" }, h("h2", {}, "Replay as of a time"),
      h("form", { onsubmit: async (e) => {
        e.preventDefault();
        if (!asOf.value) return;
        const t = new Date(asOf.value + (asOf.value.length === 16 ? ":00" : "") + "Z").toISOString().replace(/\.\d{3}Z$/, "Z");
        try {
          const r = await api("GET", "/v1/replay" + query({ asOf: t }));
          replayOut.replaceChildren(h("dl", { class: "facts" },
            h("dt", {}, "As of"), h("dd", {}, `seq ${r.asOf.seq}`, r.asOf.at ? [" · ", timeEl(r.asOf.at)] : ""),
            h("dt", {}, "Scans"), h("dd", { "data-replay": "total" }, r.stats.total),
            h("dt", {}, "Counterfeit"), h("dd", {}, r.stats.counterfeit),
            h("dt", {}, "Accounts"), h("dd", {}, r.accounts.accounts.length),
            h("dt", {}, "Customers"), h("dd", {}, STATUSES.map((s) => `${s} ${r.customers.counts[s]}`).join(" · "))));
        } catch (err) { replayOut.replaceChildren(errorBox(err)); }
      } }, h("label", { for: "as-of" }, "Time (UTC)"), asOf, h("p", {}, h("button", { type: "submit" }, "Replay"))), replayOut),
    h("section", { class: "card" }, h("h2", {}, "Events as they arrive"), events));
  await drawStatus();
  state.refresh = drawStatus;
  followEvents(events);
}

/** The admins' event stream (server.md §5), newest first, the last 50 kept; ends when the screen changes. After a
 *  drop (a restarted server) it follows again from the seq after the last one shown, as the heads stream does. */
async function followEvents(list) {
  const ctl = new AbortController();
  const stop = () => { ctl.abort(); window.removeEventListener("hashchange", stop); };
  window.addEventListener("hashchange", stop);
  let next = null;
  while (!ctl.signal.aborted && state.session) {
    try {
      const res = await fetch("/v1/events?follow=true" + (next ? "&from=" + next : ""), { signal: ctl.signal,
        headers: { Accept: "application/x-ndjson", Authorization: "Bearer " + state.session.token } });
      // Not an admin's, or a session that is over (the heads stream takes the page to sign-in).
      if (res.status === 401 || res.status === 403) return;
      if (res.ok) {
        await readLines(res, (line) => {
          if (line.seq === undefined) return;
          next = line.seq + 1;
          list.prepend(h("li", { "data-seq": line.seq }, `${line.seq} · ${line.at} · ${line.actor} · ${line.type}`));
          while (list.children.length > 50) list.lastChild.remove();
        });
      }
    } catch { if (ctl.signal.aborted) return; }
    await new Promise((r) => setTimeout(r, 1500));
  }
}

// ---- Start -----------------------------------------------------------------------------------------------

$("#signout").addEventListener("click", async () => {
  try { await api("DELETE", "/v1/sessions/current"); } catch { /* ended already */ }
  saveSession(null); stopLive(); go("/signin");
});
window.addEventListener("hashchange", () => { document.onkeydown = null; route(); });
if (state.session) startLive();
route();
