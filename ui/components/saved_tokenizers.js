// A user's own tokenizers kept in this browser's IndexedDB (ui/saved_tokenizers.py): keeps the
// files Python sends, removes those the user removed, and sends them back, one per message, in a
// new session. Each entry: {id, kind, file_name, name, pattern, data (compressed, base64)}.
const DB = "tokenizer-workbench", STORE = "own-tokenizers", RESEND_MS = 10000;

function opened() {
  return new Promise((resolve, reject) => {
    const r = window.indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: "id" });
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function done(r) {
  return new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
}

async function store(mode) {
  return (await opened()).transaction(STORE, mode).objectStore(STORE);
}

export default function (component) {
  const { data, setTriggerValue } = component;
  if (!data) return;
  // per tab, not per element: a run that restores a page's work draws no sidebar, and the element
  // drawn again after it must go on sending what is left
  const s = window.__twOwn || (window.__twOwn = {
    chain: Promise.resolve(), cleared: null, dropped: new Set(), put: new Set(), queue: null, waiting: null,
  });
  s.send = setTriggerValue;  // the element on the page now (a trigger of one gone is lost)
  const then = (f) => { s.chain = s.chain.then(f).catch(() => {}); };
  if (!window.indexedDB) {
    if (data.load && s.queue === null) { s.queue = []; setTriggerValue("off", true); }
    return;
  }
  if (data.clear && data.clear !== s.cleared) {
    s.cleared = data.clear;
    const nonce = data.clear;
    then(async () => { await done((await store("readwrite")).clear()); s.send("cleared", nonce); });
  }
  for (const id of data.drop || []) {
    if (s.dropped.has(id)) continue;
    s.dropped.add(id);
    then(async () => { await done((await store("readwrite")).delete(id)); });
  }
  const puts = (data.put || []).filter((e) => !s.put.has(e.id + "/" + e.data.length + "/" + e.name));
  if (puts.length) {
    puts.forEach((e) => { s.put.add(e.id + "/" + e.data.length + "/" + e.name); s.dropped.delete(e.id); });
    then(async () => {
      const kept = [], failed = [];
      for (const e of puts) {
        try {
          const all = await done((await store("readonly")).getAll());
          const others = all.filter((o) => o.id !== e.id).reduce((n, o) => n + (o.data || "").length, 0);
          if ((others + e.data.length) * 3 / 4 > data.max_all) { failed.push({ id: e.id, why: "full" }); continue; }
          await done((await store("readwrite")).put(e));
          kept.push(e.id);
        } catch (err) {
          failed.push({ id: e.id, why: "refused" });
        }
      }
      s.send("kept", { kept, failed });
    });
  }
  if (data.load && s.queue === null) {  // a new session: what this browser kept
    s.queue = [];
    then(async () => {
      s.queue = (await done((await store("readonly")).getAllKeys())).map(String);
    });
  }
  if (s.waiting !== null && (data.got || []).includes(s.waiting)) s.waiting = null;
  then(async () => {  // one at a time: each is a message of up to ~21 MB
    if (s.waiting !== null || !s.queue || !s.queue.length) return;
    const key = s.queue.shift();
    const entry = await done((await store("readonly")).get(key));
    s.waiting = key;
    s.send("back", { key, entry: entry || null, more: s.queue.length });
    // A trigger sent while another run is asked for can be lost: not answered in time, send it again
    setTimeout(() => {
      if (s.waiting !== key) return;
      s.waiting = null;
      s.queue.unshift(key);
      s.send("again", Date.now());  // a run, whose render sends it
    }, RESEND_MS);
  });
}
