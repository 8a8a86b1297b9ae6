// The browser's side of saved work (ui/saved_work.py): pages' work in local storage, own tokenizers'
// files in IndexedDB. A session's element (data.stage) answers what a stage asks for, again every few
// seconds until the server moves on (a message can be lost); a page's element (data.key) writes.
const DB = "tokenizer-workbench", FILES = "own-tokenizers", AGAIN_MS = 4000;

const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

async function files(mode) {
  const open = window.indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(FILES, { keyPath: "id" });
  return (await request(open)).transaction(FILES, mode).objectStore(FILES);
}

const storage = () => { try { return window.localStorage; } catch (e) { return null; } };
const keys = (prefix) => Object.keys(storage() || {}).filter((k) => k.startsWith(prefix));

async function answer(prefix) {
  const store = storage(), pages = {};
  for (const k of keys(prefix)) if (!k.endsWith("#digest")) pages[k.slice(prefix.length)] = store.getItem(k);
  const own = await files("readonly").then((s) => request(s.getAll()))
    .then((all) => all.map((e) => ({ id: e.id, name: e.name })), () => null);
  return { pages, own, off: !store, reloaded: performance.getEntriesByType("navigation")[0]?.type === "reload" };
}

function session(tab, data) {
  const at = (what) => Date.now() - (tab.sent[what] || 0) > AGAIN_MS;
  const send = (what, value) => { tab.sent[what] = Date.now(); tab.send(what, value); };
  const later = (step) => { tab.chain = tab.chain.then(step).catch(() => {}); };  // one at a time, in order
  if (data.clear && tab.cleared !== data.clear) {
    tab.cleared = data.clear;
    for (const k of keys(data.prefix)) window.localStorage.removeItem(k);
    later(async () => request((await files("readwrite")).clear()));
  }
  for (const id of data.drop) later(async () => request((await files("readwrite")).delete(id)));
  for (const id of Object.keys(tab.told)) if (!data.put.some((e) => e.id === id)) delete tab.told[id];  // heard: added again, written again
  for (const e of data.put) {
    if (tab.told[e.id] && at("kept")) send("kept", { id: e.id, why: tab.told[e.id] });  // again: it can be lost
    if (e.id in tab.told) continue;  // written, or being written (null)
    tab.told[e.id] = null;
    later(async () => {
      const all = await request((await files("readonly")).getAll());
      const others = all.filter((o) => o.id !== e.id).reduce((n, o) => n + o.data.length, 0);
      let why = "kept";
      if ((others + e.data.length) * 3 / 4 > data.max_all) why = "full";
      else try { await request((await files("readwrite")).put(e)); } catch (err) { why = "refused"; }
      tab.told[e.id] = why;
      send("kept", { id: e.id, why });
    });
  }
  if (data.stage === "asking" && at("answer")) later(async () => send("answer", await answer(data.prefix)));
  const id = data.stage === "files" && data.need[0];  // one file at a time: each may be 16 MB
  if (id && at("file:" + id)) {
    tab.sent["file:" + id] = Date.now();
    later(async () => tab.send("file", { id, entry: (await request((await files("readonly")).get(id))) || null }));
  }
  if (data.stage === "go" && at("go")) send("go", data.mark);
}

function page(data, setTriggerValue) {
  const store = storage();
  if (!store) return;
  try {
    for (const [key, text, digest] of [[data.key, data.text, data.text_digest], [data.key + "#light", data.light, data.light_digest]]) {
      if (typeof text === "string") { store.setItem(key, text); store.setItem(key + "#digest", digest); }
      else if (digest && store.getItem(key + "#digest") !== digest) setTriggerValue("resend", digest);  // a write lost on the way
    }
  } catch (e) {  // full storage: the page says what is not kept
    setTriggerValue("failed", data.text_digest || "");
  }
}

export default function (component) {
  const { data, setTriggerValue } = component;
  if (!data) return;
  if (!data.stage) { page(data, setTriggerValue); return; }
  // per tab, not per element: the timer goes on sending through the element drawn last
  const tab = window.__twSaved || (window.__twSaved = { sent: {}, told: {}, chain: Promise.resolve() });
  if (tab.mark !== data.mark) Object.assign(tab, { mark: data.mark, sent: {} });
  tab.send = setTriggerValue;
  session(tab, data);
  window.clearInterval(tab.timer);
  if (data.stage !== "done" || data.put.length) tab.timer = window.setInterval(() => session(tab, data), AGAIN_MS);
}
