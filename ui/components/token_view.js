// The light token view (ui/token_view.py): one span per token, built from compact data.
const GLYPHS = { " ": "\u22c5", "\t": "\u2192", "\n": "\u21b5\n", "\r": "\u240d" };
let HUE_CSS = null;

function hueCss() {
  if (HUE_CSS === null) {
    const rules = [];
    for (let h = 0; h < 360; h++) rules.push(`.tw-tokens .h${h}{background:hsl(${h} 75% 84%)}`);
    HUE_CSS = rules.join("\n");
  }
  return HUE_CSS;
}

// same as tokenizer_core.render.token_hue
const hue = (id) => Math.floor((id * 137.508) % 360);

function hex(bytes) {
  const n = Math.min(bytes.length, 24);
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = bytes[i].toString(16).padStart(2, "0");
  return out.join(" ") + (bytes.length > 24 ? " ..." : "");
}

// code point offsets (Python's) -> UTF-16 offsets (JavaScript's); null when they are the same
function unitIndex(text) {
  if (!/[\ud800-\udfff]/.test(text)) return null;
  const idx = [];
  let u = 0;
  for (const ch of text) { idx.push(u); u += ch.length; }
  idx.push(u);
  return idx;
}

function drawPane(d, p, box) {
  const text = p.text !== undefined ? p.text : d.text;
  const base = p.base !== undefined ? p.base : d.base;
  const units = unitIndex(text);
  const lens = p.len, ids = p.ids, n = lens.length;
  const counts = new Map();
  const nn = p.n || [];
  for (let j = 0; j < nn.length; j += 2) counts.set(nn[j], nn[j + 1]);
  const special = new Set(p.sp || []);
  const marks = new Set();
  let acc = 0;
  for (const gap of p.mk || []) { acc += gap; marks.add(acc); }
  const hexes = p.hex || {};
  const starts = new Int32Array(n + 1);   // code point offset of each piece in `text`
  const idAt = new Int32Array(n + 1);     // index of each piece's first id in `ids`
  const idsMode = d.mode === "ids";
  const frag = document.createDocumentFragment();
  let cp = p.at, k = 0;
  for (let i = 0; i < n; i++) {
    const c = counts.has(i) ? counts.get(i) : 1;
    starts[i] = cp; idAt[i] = k;
    const a = units ? units[cp] : cp, b = units ? units[cp + lens[i]] : cp + lens[i];
    cp += lens[i];
    let body;
    if (idsMode) {
      if (c === 0) { k += c; continue; }
      body = ids.slice(k, k + c).join(" ") + " ";
    } else {
      body = text.slice(a, b);
      if (d.ws) body = body.replace(/[ \t\n\r]/g, (ch) => GLYPHS[ch]);
    }
    let cls = c ? "t h" + hue(ids[k]) : "t x";
    if (body.length > 24) cls += " lg";
    if (special.has(i)) cls += " s";
    if (marks.has(i)) cls += " m";
    if (idsMode) cls += " ids";
    k += c;
    // a newline ends the line between two boxes of the same token, never inside a box
    const lines = body.split("\n");
    for (let j = 0; j < lines.length; j++) {
      if (j) frag.appendChild(document.createTextNode("\n"));
      if (!lines[j]) continue;
      const s = document.createElement("span");
      s.className = cls;
      s.textContent = lines[j];
      s._i = i;
      frag.appendChild(s);
    }
  }
  starts[n] = cp; idAt[n] = k;
  box.appendChild(frag);
  const encoder = new TextEncoder();
  const tip = (i) => {
    const c = idAt[i + 1] - idAt[i];
    const a = starts[i], b = starts[i + 1];
    if (!c) return `not a token (${b - a} chars dropped by the tokenizer)`;
    const tid = ids.slice(idAt[i], idAt[i + 1]);
    let raw = hexes[i];
    if (raw === undefined) {
      const ua = units ? units[a] : a, ub = units ? units[b] : b;
      raw = hex(encoder.encode(text.slice(ua, ub)));
    }
    const extra = special.has(i) ? ` (${d.spl || "special token"})` : "";
    const head = c === 1 ? `id ${tid[0]}` : `ids ${tid.join(", ")}`;
    return `${head}${extra} | bytes ${raw} | chars ${base + a}-${base + b}`;
  };
  // hover details are written when first needed, not for every token up front
  box.addEventListener("mouseover", (e) => {
    const s = e.target;
    if (s._i !== undefined && !s.title) s.title = tip(s._i);
  });
}

export default function (component) {
  const { data, parentElement } = component;
  // finish the layout other elements of this rerun left pending, so the time below is ours
  void document.body.offsetHeight;
  const t0 = performance.now();
  const d = JSON.parse(new TextDecoder().decode(data));
  let root = parentElement.querySelector(".tw-view");
  if (!root) {
    root = document.createElement("div");
    root.className = "tw-view";
    parentElement.appendChild(root);
  }
  if (!parentElement.querySelector("style[data-tw-hues]")) {
    const style = document.createElement("style");
    style.dataset.twHues = "1";
    style.textContent = hueCss();
    parentElement.appendChild(style);
  }
  const grid = document.createElement("div");
  grid.className = "tw-grid";
  grid.style.setProperty("--cols", String(Math.min(Math.max(d.panes.length, 1), 2)));
  for (const p of d.panes) {
    const pane = document.createElement("div");
    pane.className = "tw-pane";
    if (p.title || p.note) {
      const hd = document.createElement("div");
      hd.className = "tw-hd";
      const name = document.createElement("span");
      name.className = "tw-name";
      name.textContent = p.title || "";
      hd.appendChild(name);
      if (p.note) hd.appendChild(document.createTextNode(" \u00b7 " + p.note));
      pane.appendChild(hd);
    }
    if (p.caption) {
      const cap = document.createElement("div");
      cap.className = "tw-cap";
      cap.textContent = p.caption;
      pane.appendChild(cap);
    }
    const box = document.createElement("div");
    box.className = "tw-tokens";
    if (p.len.length) drawPane(d, p, box);
    else {
      const em = document.createElement("em");
      em.className = "tw-empty";
      em.textContent = d.empty || "";
      box.appendChild(em);
    }
    // after the spans: with dir=auto each insertion would scan the text again
    box.dir = d.dir || "auto";
    if (d.lang) box.lang = d.lang;
    pane.appendChild(box);
    grid.appendChild(pane);
  }
  const t1 = performance.now();
  root.replaceChildren(grid);
  void root.offsetHeight;  // lay out now, so the time below includes it
  const t2 = performance.now();
  root.dataset.buildMs = (t1 - t0).toFixed(1);
  root.dataset.drawMs = (t2 - t0).toFixed(1);
  root.dataset.draws = String(Number(root.dataset.draws || 0) + 1);
}
