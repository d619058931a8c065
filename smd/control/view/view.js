// smd's fabric view (docs/fabric-view.md). Polls the JSON API under /api/v1 and draws the fabric as SVG:
// switches by tier (or on rings for tori and random graphs), cables coloured by the state the server
// judged (fabric_view_json.h), a node's page on click, the SM with a timeline of the sweeps and repairs
// seen while the page is open, and the SA's answer rates. Read-only: it only ever sends GET.
"use strict";

const API_VERSION = 1;
const POLL_MS = 2000;
const SVGNS = "http://www.w3.org/2000/svg";
// Cable colours by state; "traffic" is shaded by rate (trafficColour). The CSS legend uses the same values.
const COLOURS = {
  isolated: "#8e24aa",
  unhealthy: "#d32f2f",
  drained: "#616161",
  errors: "#ef6c00",
  idle: "#b0bec5",
};
const TIMELINE_SPAN_MS = 10 * 60 * 1000;

let drawnKey = "";          // the node set and layout drawn now; another one redraws the nodes
let positions = new Map();  // node GUID -> {x, y}
let selected = null;        // GUID of the node whose page is shown
let lastSm = null;          // the previous /api/v1/sm answer, to see new sweeps and repairs
let lastSa = null;          // {t, answers: Map attribute -> count}, for the SA's rates
const timeline = [];        // {t: Date, kind, text}: status.history as drawn

async function getJson(path) {
  const r = await fetch(path, { cache: "no-store" });
  const body = await r.json();
  if (body.version !== API_VERSION) throw new Error(`${path}: API version ${body.version}, this page reads ${API_VERSION}`);
  if (!body.ok) throw new Error(`${path}: ${body.error}`);
  return body.result;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function html(tag, text, parent, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  if (parent) parent.appendChild(e);
  return e;
}

function trafficColour(rate) {
  // 1 kB/s light blue .. 10 GB/s dark blue, on a log scale.
  const f = Math.min(1, Math.max(0, (Math.log10(Math.max(rate, 1)) - 3) / 7));
  return `hsl(212, 80%, ${Math.round(70 - 42 * f)}%)`;
}

function cableColour(state, rate) {
  return state === "traffic" ? trafficColour(rate) : COLOURS[state] || COLOURS.idle;
}

function formatRate(bytesPerSecond) {
  const units = ["B/s", "kB/s", "MB/s", "GB/s"];
  let v = bytesPerSecond;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(v < 10 && u > 0 ? 1 : 0)} ${units[u]}`;
}

// --- Layout -------------------------------------------------------------------------------------------

// The switch each listed CA is cabled to (its first cable to a switch), from the links.
function leafOfCa(view) {
  const type = new Map(view.nodes.map((n) => [n.guid, n.type]));
  const leaf = new Map();
  for (const l of view.links) {
    if (type.get(l.a.guid) === "ca" && type.get(l.b.guid) === "switch" && !leaf.has(l.a.guid)) leaf.set(l.a.guid, l.b.guid);
    if (type.get(l.b.guid) === "ca" && type.get(l.a.guid) === "switch" && !leaf.has(l.b.guid)) leaf.set(l.b.guid, l.a.guid);
  }
  return leaf;
}

// Rows by tier, the highest on top, CAs (tier 0) at the bottom in the order of their leaves.
function layoutTiers(view) {
  const rows = new Map();
  for (const n of view.nodes) {
    if (!rows.has(n.tier)) rows.set(n.tier, []);
    rows.get(n.tier).push(n);
  }
  const widest = Math.max(1, ...[...rows.values()].map((r) => r.length));
  const width = Math.max(800, widest * 16);
  // Rows spread over the drawing's own aspect ratio, so a wide tree is not drawn as a thin band.
  const area = document.getElementById("drawing");
  const aspect = area.clientWidth > 0 ? area.clientHeight / area.clientWidth : 0.6;
  const top = 30;
  const rowGap = Math.max(110, (width * aspect - top - 40) / Math.max(1, view.tiers - 1));
  const pos = new Map();
  const yOf = (tier) => top + (view.tiers - 1 - tier) * rowGap;
  for (const [tier, row] of rows) {
    if (tier === 0) continue;
    row.forEach((n, i) => pos.set(n.guid, { x: ((i + 0.5) * width) / row.length, y: yOf(tier) }));
  }
  const cas = rows.get(0) || [];
  const leaf = leafOfCa(view);
  const xOf = (n) => (pos.get(leaf.get(n.guid)) || { x: 0 }).x;
  cas.sort((a, b) => xOf(a) - xOf(b));
  cas.forEach((n, i) => pos.set(n.guid, { x: ((i + 0.5) * width) / cas.length, y: yOf(0) }));
  return { pos, width, height: yOf(0) + 40 };
}

// Tori and random graphs: switches on concentric rings by hop distance from the centre switch (tier 1 is
// the centre), each CA just outside its switch.
function layoutRings(view) {
  const rings = new Map();
  for (const n of view.nodes) {
    if (n.type !== "switch") continue;
    if (!rings.has(n.tier)) rings.set(n.tier, []);
    rings.get(n.tier).push(n);
  }
  const ringGap = 90;
  const outer = (Math.max(1, ...rings.keys()) + 1) * ringGap;
  const c = outer + 20;
  const pos = new Map();
  for (const [tier, ring] of rings) {
    const r = tier === 1 && ring.length === 1 ? 0 : (tier - 0.5) * ringGap;
    ring.forEach((n, i) => {
      // Every other ring turned by half a step, so the rings' first switches do not stack up in one column.
      const a = (2 * Math.PI * (i + (tier % 2) * 0.5)) / ring.length - Math.PI / 2;
      pos.set(n.guid, { x: c + r * Math.cos(a), y: c + r * Math.sin(a) });
    });
  }
  const leaf = leafOfCa(view);
  const perLeaf = new Map();
  for (const n of view.nodes) {
    if (n.type === "switch") continue;
    const s = pos.get(leaf.get(n.guid)) || { x: c, y: c };
    const k = perLeaf.get(leaf.get(n.guid)) || 0;
    perLeaf.set(leaf.get(n.guid), k + 1);
    // Fanned out around the switch, pointing away from the centre (upwards for the centre switch itself).
    const outward = s.x === c && s.y === c ? -Math.PI / 2 : Math.atan2(s.y - c, s.x - c);
    const a = outward + (k % 2 ? 1 : -1) * 0.5 * Math.ceil(k / 2);
    pos.set(n.guid, { x: s.x + 16 * Math.cos(a), y: s.y + 16 * Math.sin(a) });
  }
  return { pos, width: 2 * c, height: 2 * c };
}

// --- Drawing ------------------------------------------------------------------------------------------

// Wheel zooms around the pointer, dragging pans: the viewBox changes, nothing is redrawn.
let viewBox = null;  // [x, y, w, h] as drawn now; null until the first drawing
function setViewBox(svg, box) {
  viewBox = box;
  svg.setAttribute("viewBox", box.map((v) => v.toFixed(1)).join(" "));
}
function enableZoom(svg) {
  svg.addEventListener("wheel", (e) => {
    if (!viewBox) return;
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    const f = e.deltaY < 0 ? 0.8 : 1.25;
    const [x, y, w, h] = viewBox;
    const px = x + ((e.clientX - r.left) / r.width) * w;
    const py = y + ((e.clientY - r.top) / r.height) * h;
    setViewBox(svg, [px - (px - x) * f, py - (py - y) * f, w * f, h * f]);
  }, { passive: false });
  let drag = null;
  svg.addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY, box: viewBox }; });
  window.addEventListener("mouseup", () => { drag = null; });
  svg.addEventListener("mousemove", (e) => {
    if (!drag || !drag.box) return;
    const r = svg.getBoundingClientRect();
    const [x, y, w, h] = drag.box;
    setViewBox(svg, [x - ((e.clientX - drag.x) / r.width) * w, y - ((e.clientY - drag.y) / r.height) * h, w, h]);
  });
  svg.addEventListener("dblclick", () => { if (drawnBox) setViewBox(svg, drawnBox); });
}
let drawnBox = null;  // the whole drawing, for a double click to return to

function drawNodes(view) {
  const svg = document.getElementById("fabric");
  const g = document.getElementById("nodes");
  g.replaceChildren();
  const laid = view.layout === "tiers" ? layoutTiers(view) : layoutRings(view);
  positions = laid.pos;
  drawnBox = [0, 0, laid.width, laid.height];
  setViewBox(svg, drawnBox);
  for (const n of view.nodes) {
    const p = positions.get(n.guid);
    const title = `${n.name} (${n.guid}) LID ${n.lid} tier ${n.tier}`;
    let shape;
    if (n.type === "switch") {
      shape = el("rect", { x: p.x - 6, y: p.y - 5, width: 12, height: 10, rx: 2, class: "switch" }, g);
    } else {
      shape = el("circle", { cx: p.x, cy: p.y, r: 3.5, class: "ca" }, g);
    }
    shape.dataset.guid = n.guid;
    shape.dataset.name = n.name;
    el("title", {}, shape).textContent = title;
    shape.addEventListener("click", () => selectNode(n.guid));
    if (n.cas !== undefined && n.cas > 0) {
      // Aggregated CAs: a count badge under the leaf and a bar in the colour of its worst CA cable.
      const bar = el("line", { x1: p.x - 6, x2: p.x + 6, y1: p.y + 9, y2: p.y + 9, "stroke-width": 3,
                               class: "ca-summary" }, g);
      bar.dataset.guid = n.guid;
      el("title", {}, bar);
      el("text", { x: p.x, y: p.y + 18, class: "badge" }, g).textContent = String(n.cas);
    }
  }
}

// Cables drawn now, by their two ends; a poll updates only the ones whose state or figures changed, so a
// 2-second poll of the 1728-host tree does not rebuild 3456 lines.
let cableEls = new Map();

function drawCables(view) {
  const g = document.getElementById("cables");
  const type = new Map(view.nodes.map((n) => [n.guid, n.type]));
  const marked = new Set();
  const seen = new Set();
  for (const l of view.links) {
    const a = positions.get(l.a.guid);
    const b = positions.get(l.b.guid);
    if (!a || !b) continue;
    const key = `${l.a.guid}/${l.a.port}-${l.b.guid}/${l.b.port}`;
    seen.add(key);
    let line = cableEls.get(key);
    if (!line) {
      const swsw = type.get(l.a.guid) === "switch" && type.get(l.b.guid) === "switch";
      line = el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }, g);
      line.dataset.kind = swsw ? "sw-sw" : "sw-ca";
      line.dataset.a = `${l.a.guid}/${l.a.port}`;
      line.dataset.b = `${l.b.guid}/${l.b.port}`;
      el("title", {}, line);
      cableEls.set(key, line);
    }
    const sig = `${l.state}|${l.rate}|${l.errors}|${l.reason || ""}`;
    if (line.dataset.sig !== sig) {
      line.dataset.sig = sig;
      line.dataset.state = l.state;
      line.setAttribute("stroke", cableColour(l.state, l.rate));
      line.setAttribute("stroke-width", l.state === "idle" ? 0.8 : 1.8);
      line.setAttribute("class", `cable ${line.dataset.kind} ${l.state}`);
      line.firstChild.textContent =
        `${l.a.guid} port ${l.a.port} - ${l.b.guid} port ${l.b.port}: ${l.state}` +
        (l.errors ? `, ${l.errors} error increments` : "") + (l.rate ? `, ${formatRate(l.rate)}` : "") +
        (l.reason ? ` (${l.reason})` : "");
    }
    if (l.state === "isolated" || l.state === "unhealthy") {
      marked.add(l.a.guid);
      marked.add(l.b.guid);
    }
  }
  for (const [key, line] of cableEls) {
    if (!seen.has(key)) {
      line.remove();
      cableEls.delete(key);
    }
  }
  for (const n of view.nodes) {
    if (n.ca_links && (n.ca_links.worst === "isolated" || n.ca_links.worst === "unhealthy")) marked.add(n.guid);
  }
  for (const s of document.querySelectorAll("#nodes .switch, #nodes .ca")) {
    s.classList.toggle("marked", marked.has(s.dataset.guid));
    s.classList.toggle("selected", s.dataset.guid === selected);
  }
  const byGuid = new Map(view.nodes.map((n) => [n.guid, n]));
  for (const bar of document.querySelectorAll("#nodes .ca-summary")) {
    const n = byGuid.get(bar.dataset.guid);
    const s = n.ca_links || { worst: "idle", count: 0, states: {} };
    bar.setAttribute("stroke", cableColour(s.worst, 0));
    bar.dataset.state = s.worst;
    bar.firstChild.textContent = `${s.count} CA cables: ` +
      Object.entries(s.states).map(([k, v]) => `${v} ${k}`).join(", ");
  }
}

function drawFabric(view) {
  const key = view.layout + "|" + view.nodes.map((n) => n.guid).join(",");
  if (key !== drawnKey) {
    document.getElementById("cables").replaceChildren();
    cableEls = new Map();
    drawNodes(view);
    drawnKey = key;
  }
  drawCables(view);
  const c = view.counts;
  document.getElementById("layout-line").textContent =
    `layout: ${view.layout}, ${c.switches} switches, ${c.cas} CAs, ${c.links} cables` +
    (view.aggregated ? " (CAs counted per leaf)" : "");
  document.getElementById("perf-line").textContent = view.perf
    ? `PerfMgr: ${view.perf.passes} passes every ${view.perf.interval_s} s` +
      (view.perf.end ? `, last ${view.perf.end}` : "")
    : "PerfMgr off: colours by health only";
}

// --- Panels -------------------------------------------------------------------------------------------

function table(parent, headers, rows) {
  const t = html("table", null, parent);
  const head = html("tr", null, t);
  for (const h of headers) html("th", h, head);
  for (const r of rows) {
    const tr = html("tr", null, t);
    for (const cell of r) {
      if (cell instanceof Node) tr.appendChild(html("td")).appendChild(cell);
      else html("td", cell, tr);
    }
  }
  return t;
}

// The error counters that ever moved on a port (totals since smd first read it), with the last interval's
// increments: "SymbolErrorCounter 5 (+5)".
function errorSummary(counters) {
  if (!counters) return "";
  return Object.entries(counters.total || {})
    .filter(([name, v]) => name !== "PortXmitWait" && (v > 0 || counters.delta[name] > 0))
    .map(([name, v]) => `${name} ${v}` + (counters.delta[name] > 0 ? ` (+${counters.delta[name]})` : ""))
    .join(", ");
}

async function selectNode(guid) {
  selected = guid;
  for (const s of document.querySelectorAll("#nodes .switch, #nodes .ca")) {
    s.classList.toggle("selected", s.dataset.guid === selected);
  }
  await showNode();
}

async function showNode() {
  if (!selected) return;
  const panel = document.getElementById("node-panel");
  let node;
  try {
    node = await getJson(`/api/v1/node/${encodeURIComponent(selected)}`);
  } catch (e) {
    panel.replaceChildren(html("h2", "Node"), html("p", e.message, null, "bad"));
    return;
  }
  panel.replaceChildren();
  html("h2", `${node.name} (${node.type})`, panel);
  html("p", `${node.guid}, LIDs ${node.lids.join(", ") || "none"}, DR path ${node.dr_path}`, panel);
  if (node.port0_pkeys && node.port0_pkeys.length) html("p", `P_Keys (port 0): ${node.port0_pkeys.join(", ")}`, panel);
  for (const d of node.drained) html("p", `drained: ${d.what}${d.forced ? " (forced)" : ""}`, panel, "bad");
  const rows = node.ports.map((p) => {
    const peer = p.peer ? `${p.peer.name}/${p.peer.port}` : "";
    const mark = p.mark ? `${p.mark.isolated ? "isolated" : "unhealthy"}: ${p.mark.reason}` : "";
    const c = p.counters;
    const traffic = c ? `${formatRate(c.rate.xmit_bytes)} out, ${formatRate(c.rate.rcv_bytes)} in` : "";
    return [p.port, p.state, peer, p.lid !== undefined ? p.lid : "", (p.pkeys || []).join(" "),
            [mark, errorSummary(c)].filter((x) => x).join("; "), traffic];
  });
  const t = table(panel, ["port", "state", "peer", "LID", "P_Keys", "marks, errors", "traffic"], rows);
  t.id = "node-ports";
}

function drawSm(sm) {
  const s = sm.status;
  document.getElementById("sm-line").textContent =
    `SM ${s.state} (priority ${s.priority}), ${s.fabric.switches} switches, ${s.fabric.cas} CAs, engine ${s.engine || "-"}`;
  const body = document.getElementById("sm-body");
  body.replaceChildren();
  table(body, ["", ""], [
    ["this SM", `${s.sm_guid} LID ${s.sm_lid}`],
    ["master", `${s.master_guid} LID ${s.master_lid}`],
    ["masters seen", s.election.masters_seen],
    ["sweeps", `${s.sweeps.heavy} heavy, ${s.sweeps.light} light, ${s.sweeps.failed} failed, ${s.sweeps.repairs} repairs`],
    ["last sweep", s.last_sweep.time ? `${s.last_sweep.time}, ${s.last_sweep.total_ms} ms, ` +
      (s.last_sweep.subnet_up ? "SUBNET UP" : `${s.last_sweep.problems} problems`) : "none yet"],
    ["last repair", `${s.last_repair_ms} ms`],
    ["drained", s.drained.map((d) => d.what).join(", ") || "nothing"],
    ["sweeps off", s.sweeps_off ? `since ${s.sweeps_off.since} by ${s.sweeps_off.by}: ${s.sweeps_off.reason}` : "no"],
  ]);
  const phases = (sm.last_sweep.phases || []).filter((p) => p.ms >= 1);
  if (phases.length) {
    html("h2", "Last heavy sweep by phase", body);
    table(body, ["phase", "ms"], phases.map((p) => [p.phase, Math.round(p.ms)]));
  }
  if (s.election.other_sms.length) {
    html("h2", "Election peers", body);
    table(body, ["GUID", "priority", "state", "LID"],
          s.election.other_sms.map((p) => [p.guid, p.priority, p.state, p.lid]));
  }
  // A drained switch (`smctl drain SWITCH`) is drawn grey; its cables already are (state "drained").
  const drainedSwitches = new Set(s.drained.filter((d) => d.port === 0).map((d) => d.node_guid));
  for (const e of document.querySelectorAll("#nodes .switch")) {
    e.classList.toggle("drained", drainedSwitches.has(e.dataset.guid));
  }
  noteEvents(sm);
  drawTimeline();
}

// The daemon's recent history (status.history: its last sweeps and repairs, oldest first), so a page opened
// now shows what happened before it.
function noteEvents(sm) {
  const text = (e) => e.kind === "repair" ? `repair, ${e.ms.toFixed(1)} ms from change to consistent tables`
    : e.kind === "discovery" ? `discovery sweep, ${e.ms.toFixed(1)} ms (another SM is master)`
    : `heavy sweep, ${e.ms.toFixed(1)} ms, ` + (e.kind === "sweep" ? "SUBNET UP" : `${e.problems} problems`);
  timeline.length = 0;
  for (const e of sm.status.history || []) timeline.push({ t: new Date(e.time), kind: e.kind, text: text(e) });
  lastSm = sm;
}

function drawTimeline() {
  const svg = document.getElementById("timeline");
  svg.replaceChildren();
  const w = svg.clientWidth || 360;
  const now = Date.now();
  el("line", { x1: 0, x2: w, y1: 18, y2: 18, stroke: "#bbb" }, svg);
  const colour = { sweep: "#2e7d32", failed: "#d32f2f", repair: "#1565c0", discovery: "#9e9e9e" };
  for (const e of timeline) {
    const age = now - e.t.getTime();
    if (age > TIMELINE_SPAN_MS) continue;
    const x = w - (age / TIMELINE_SPAN_MS) * w;
    const mark = el("rect", { x: x - 2, y: e.kind === "repair" ? 20 : 6, width: 4, height: 10, fill: colour[e.kind] }, svg);
    el("title", {}, mark).textContent = `${e.t.toISOString()} ${e.text}`;
  }
  el("text", { x: 0, y: 34, "font-size": 9 }, svg).textContent = "-10 min";
  el("text", { x: w - 20, y: 34, "font-size": 9 }, svg).textContent = "now";
  const list = document.getElementById("timeline-list");
  list.replaceChildren();
  for (const e of timeline.slice(-30).reverse()) html("li", `${e.t.toISOString().slice(11, 19)} ${e.text}`, list);
}

function drawSa(sa) {
  const body = document.getElementById("sa-body");
  body.replaceChildren();
  if (!sa.enabled) {
    html("p", "The SA is turned off.", body);
    return;
  }
  const now = Date.now();
  const byAttr = new Map();
  for (const a of sa.answers) byAttr.set(a.attribute, (byAttr.get(a.attribute) || 0) + a.count);
  const dt = lastSa ? (now - lastSa.t) / 1000 : 0;
  const rows = [...byAttr].map(([attr, n]) => {
    const before = lastSa ? lastSa.answers.get(attr) || 0 : n;
    return [attr, n, dt > 0 ? ((n - before) / dt).toFixed(1) : "-"];
  });
  lastSa = { t: now, answers: byAttr };
  html("p", `${sa.serving ? "serving" : "not serving"}; mean latency ${sa.latency_mean_us} µs; queue ${sa.queue_depth}; ` +
    `${sa.mcast_groups} multicast groups, ${sa.mcast_members} members; ${sa.subscriptions} subscriptions`, body);
  table(body, ["attribute", "answers", "per second"], rows);
}

// --- Polling ------------------------------------------------------------------------------------------

async function poll() {
  const started = performance.now();
  try {
    const [view, sm, sa] = await Promise.all([getJson("/api/v1/fabric"), getJson("/api/v1/sm"), getJson("/api/v1/sa")]);
    drawFabric(view);
    drawSm(sm);
    drawSa(sa);
    await showNode();
    document.getElementById("poll-line").textContent =
      `updated ${new Date().toISOString().slice(11, 19)} (${Math.round(performance.now() - started)} ms)`;
    // For the browser test and the page-load figure: when the fabric was first drawn, after navigation start.
    if (!document.body.dataset.firstDrawMs) document.body.dataset.firstDrawMs = String(Math.round(performance.now()));
    document.body.dataset.polls = String(Number(document.body.dataset.polls || 0) + 1);
  } catch (e) {
    document.getElementById("poll-line").textContent = `error: ${e.message}`;
  }
  setTimeout(poll, POLL_MS);
}

enableZoom(document.getElementById("fabric"));
poll();
