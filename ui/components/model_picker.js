// The model picker (ui/model_picker.py; its module docstring gives the rules): an ARIA combobox.
const norm = (s) => (s || "").toLowerCase().replace(/[\s_\-/:,()·]+/g, " ").trim();
const KIND_RANK = { model: 0, uncounted: 0, encoding: 0, own: 0, source: 1 };

const esc = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// A query word as patterns: where it ends (or starts) with a digit, the number must end (start)
// there too, so "4" finds "llama 4" and "gpt 4o" but not "405b", and "3.1" not "3.10".
function matcher(w) {
  const body = esc(w) + (/\d$/.test(w) ? "(?!\\d)" : "");
  return { start: new RegExp("^" + body), any: new RegExp((/^\d/.test(w) ? "(?<!\\d)" : "") + body) };
}

// 0 exact, 1 prefix at a word boundary, 2 prefix, 3 every word starts a word of the name,
// 4 every word is in the name, id or terms; null: no match
function score(o, q, whole, parts) {
  const name = o._name, id = o._id;
  if (name === q || id === q) return 0;
  for (const s of [name, id]) {
    if (whole.start.test(s)) return (s.length === q.length || s[q.length] === " ") ? 1 : 2;
  }
  const nameWords = name.split(" ");
  if (parts.every((m) => nameWords.some((n) => m.start.test(n)))) return 3;
  if (parts.every((m) => m.any.test(o._all))) return 4;
  return null;
}

// A catalog model whose name the query names (score 3 or better) comes before everything else,
// an encoding of the same name included: "llama 4" + Enter adds Llama 4 Scout, not the encoding.
const namesModel = (h) => (h.o.kind === "model" || h.o.kind === "uncounted") && h.s <= 3;

function rank(options, query) {
  const q = norm(query);
  if (!q) return [];
  const whole = matcher(q);
  const parts = q.split(" ").map(matcher);
  const hits = [];
  options.forEach((o, i) => {
    const s = score(o, q, whole, parts);
    if (s !== null) hits.push({ o, s, i });
  });
  // models the query names first; then an exact name, wherever it is; then the app's own entries
  // before the price source's
  hits.sort((a, b) => namesModel(b) - namesModel(a) || (a.s > 0) - (b.s > 0)
    || KIND_RANK[a.o.kind] - KIND_RANK[b.o.kind] || a.s - b.s || a.i - b.i);
  return hits.map((h) => h.o);
}

function noteFor(notes, query) {
  const q = norm(query);
  if (q.length < 3) return "";
  const hit = notes.find((n) => n.keys.some((k) => q.includes(k) || (q.length >= 4 && k.startsWith(q))));
  return hit ? hit.text : "";
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const root = parentElement.querySelector(".tw-pick");
  const input = root.querySelector(".tw-pick-input");
  const chips = root.querySelector(".tw-pick-chips");
  const pop = root.querySelector(".tw-pick-pop");
  const list = root.querySelector(".tw-pick-list");
  const note = root.querySelector(".tw-pick-note");
  const status = root.querySelector(".tw-pick-status");
  let s = root.__tw;
  if (!s) {
    s = { data, results: [], active: -1, seq: 0 };
    root.__tw = s;
    const uid = "tw-pick-" + Math.random().toString(36).slice(2, 9);
    list.id = uid + "-list";
    input.id = uid + "-input";
    root.querySelector(".tw-pick-label").htmlFor = input.id;
    input.setAttribute("aria-controls", list.id);
    const send = (op, id) => { s.seq += 1; setTriggerValue("action", { op, id, seq: s.seq }); };
    s.send = send;
    const chosen = () => new Set(s.data.chosen);
    const close = () => {
      pop.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    };
    const setActive = (i) => {
      s.active = i;
      list.querySelectorAll("li[role=option]").forEach((li, j) => li.setAttribute("aria-selected", j === i ? "true" : "false"));
      const li = list.querySelector(`li[data-i="${i}"]`);
      if (li) { input.setAttribute("aria-activedescendant", li.id); li.scrollIntoView({ block: "nearest" }); }
      else input.removeAttribute("aria-activedescendant");
    };
    const add = (o) => {
      if (!o) {
        status.textContent = input.value.trim() ? `No model or tokenizer matches "${input.value.trim()}".` : "";
        return;
      }
      if (chosen().has(o.id)) { status.textContent = `${o.name} is already chosen.`; return; }
      status.textContent = `${o.name} added.`;
      input.value = "";
      close();
      send("add", o.id);
    };
    const render = () => {
      const q = input.value;
      const results = rank(s.data.options, q).slice(0, 60);
      s.results = results;
      const text = noteFor(s.data.notes, q);
      note.hidden = !text;
      note.textContent = text;
      list.replaceChildren();
      const picked = chosen();
      let shownSource = false;
      results.forEach((o, i) => {
        if (o.kind === "source" && !shownSource) {
          shownSource = true;
          const head = document.createElement("li");
          head.className = "tw-pick-head";
          head.setAttribute("role", "presentation");
          head.textContent = s.data.source_heading;
          list.appendChild(head);
        }
        const li = document.createElement("li");
        li.setAttribute("role", "option");
        li.id = `${list.id}-${i}`;
        li.dataset.i = String(i);
        const n = document.createElement("span");
        n.className = "n";
        n.textContent = o.name + (picked.has(o.id) ? " (chosen)" : "");
        const d = document.createElement("span");
        d.className = "d";
        d.textContent = picked.has(o.id) ? "Already chosen: it is in the list above." : o.detail;
        li.append(n, d);
        if (picked.has(o.id)) li.setAttribute("aria-disabled", "true");
        li.addEventListener("mousedown", (e) => { e.preventDefault(); add(o); });
        list.appendChild(li);
      });
      if (q.trim() && !results.length) {
        const li = document.createElement("li");
        li.className = "tw-pick-head";
        li.setAttribute("role", "presentation");
        li.textContent = text ? "Nothing to add for this search." : `No model or tokenizer matches "${q.trim()}".`;
        list.appendChild(li);
      }
      const open = !!q.trim();
      pop.hidden = !open;
      input.setAttribute("aria-expanded", open ? "true" : "false");
      setActive(results.length ? 0 : -1);
    };
    s.render = render;
    input.addEventListener("input", () => { status.textContent = ""; render(); });
    input.addEventListener("focus", () => { if (input.value.trim()) render(); });
    input.addEventListener("blur", close);
    input.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        if (pop.hidden) { render(); return; }
        const n = s.results.length;
        if (!n) return;
        setActive(((s.active + (e.key === "ArrowDown" ? 1 : -1)) % n + n) % n);
      } else if (e.key === "Enter") {
        e.preventDefault();
        if (!input.value.trim()) return;
        add(s.results[s.active] || null);
      } else if (e.key === "Escape") {
        if (!pop.hidden) { e.preventDefault(); close(); }
      }
    });
  }
  data.options = data.options.map(([id, name, detail, terms, kind]) =>
    ({ id, name, detail, terms, kind, _name: norm(name), _id: norm(id), _all: norm(name + " " + id + " " + terms) }));
  s.data = data;
  root.querySelector(".tw-pick-label").textContent = data.label;
  input.placeholder = data.placeholder;
  const byId = new Map(data.options.map((o) => [o.id, o]));
  chips.replaceChildren();
  for (const id of data.chosen) {
    const o = byId.get(id);
    const chip = document.createElement("span");
    chip.className = "tw-pick-chip";
    chip.setAttribute("role", "listitem");
    const t = document.createElement("span");
    t.textContent = o ? o.name : id;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "\u00d7";
    b.setAttribute("aria-label", `Remove ${o ? o.name : id}`);
    b.title = `Remove ${o ? o.name : id}`;
    b.addEventListener("click", () => { status.textContent = `${o ? o.name : id} removed.`; s.send("remove", id); });
    chip.append(t, b);
    chips.appendChild(chip);
  }
  if (!pop.hidden) s.render();
}
