// The browser's side of saved work (ui/saved_work.py): pages' work in local storage, own tokenizers'
// files in IndexedDB. A session's element (data.stage) answers what a stage asks for, again every few
// seconds until the server moves on (a message can be lost); a page's element (data.key) writes.
const DB = "tokenizer-workbench", FILES = "own-tokenizers", AGAIN_MS = 4000;

function request(r) {
  return new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
}

async function files(mode) {
  const open = window.indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(FILES, { keyPath: "id" });
  return (await request(open)).transaction(FILES, mode).objectStore(FILES);
}

const storage = () => { try { return window.localStorage; } catch (e) { return null; } };

async function answer(prefix) {
  const store = storage(), pages = {};
  for (let i = 0; store && i < store.length; i++) {
    const k = store.key(i);
    if (k && k.startsWith(prefix) && !k.endsWith("#digest")) pages[k.slice(prefix.length)] = store.getItem(k);
  }
  const own = await files("readonly").then((s) => request(s.getAll()))
    .then((all) => all.map((e) => ({ id: e.id, name: e.name })), () => null);
  const nav = performance.getEntriesByType("navigation")[0];
  return { pages, own, off: !store, reloaded: !!nav && nav.type === "reload" };
}

function session(tab, data) {
  const at = (what) => Date.now() - (tab.sent[what] || 0) > AGAIN_MS;
  const send = (what, value) => { tab.sent[what] = Date.now(); tab.send(what, value); };
  if (data.clear && tab.cleared !== data.clear) {
    tab.cleared = data.clear;
    const store = storage();
    for (let i = store ? store.length - 1 : -1; i >= 0; i--) if (store.key(i).startsWith(data.prefix)) store.removeItem(store.key(i));
    tab.chain = tab.chain.then(async () => request((await files("readwrite")).clear()));
  }
  for (const id of data.drop) tab.chain = tab.chain.then(async () => request((await files("readwrite")).delete(id)));
  for (const e of data.put) {
    if (tab.told[e.id]) { if (at("kept")) send("kept", { id: e.id, why: tab.told[e.id] }); continue; }
    if (tab.told[e.id] === null) continue;  // being written
    tab.told[e.id] = null;
    tab.chain = tab.chain.then(async () => {
      const all = await request((await files("readonly")).getAll());
      const others = all.filter((o) => o.id !== e.id).reduce((n, o) => n + o.data.length, 0);
      let why = "kept";
      if ((others + e.data.length) * 3 / 4 > data.max_all) why = "full";
      else try { await request((await files("readwrite")).put(e)); } catch (err) { why = "refused"; }
      tab.told[e.id] = why;
      send("kept", { id: e.id, why });
    });
  }
  if (data.stage === "asking" && at("answer")) tab.chain = tab.chain.then(async () => send("answer", await answer(data.prefix)));
  if (data.stage === "files" && data.need.length && at("file:" + data.need[0])) {
    const id = data.need[0];
    tab.sent["file:" + id] = Date.now();
    tab.chain = tab.chain.then(async () => send("file", { id, entry: (await request((await files("readonly")).get(id))) || null }));
  }
  if (data.stage === "go" && at("go")) send("go", data.mark);
  tab.chain = tab.chain.catch(() => {});
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
  Object.assign(tab, { send: setTriggerValue, data });
  document.documentElement.dataset.savedWork = data.stage;  // the tests' marker
  session(tab, data);
  window.clearInterval(tab.timer);
  if (data.stage !== "done" || data.put.length) tab.timer = window.setInterval(() => session(tab, tab.data), AGAIN_MS);
}
