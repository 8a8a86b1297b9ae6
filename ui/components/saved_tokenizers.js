// A user's own tokenizers kept in this browser's IndexedDB (ui/saved_tokenizers.py): keeps the
// files Python sends, removes those the user removed, and sends them back, one per message, in a
// new session. Each entry: {id, kind, file_name, name, pattern, data (compressed, base64)}.
const DB = "tokenizer-workbench", STORE = "own-tokenizers", RESEND_MS = 10000, POLL_MS = 1000;

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
    chain: Promise.resolve(), cleared: null, dropped: new Set(), put: new Set(), queue: null, waiting: null, loaded: null,
  });
  s.send = setTriggerValue;  // the element on the page now (a trigger of one gone is lost)
  const then = (f) => { s.chain = s.chain.then(f).catch(() => {}); };
  if (!window.indexedDB) {
    if (data.load && s.loaded !== data.load) { s.loaded = data.load; setTriggerValue("off", true); }
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
  const tag = (e) => e.id + "/" + e.data.length + "/" + e.name;
  const puts = (data.put || []).filter((e) => !s.put.has(tag(e)));
  // Kept already, yet Python still sends them: its answer was lost (a run cut short); say it again
  const told = (data.put || []).filter((e) => s.put.has(tag(e)) && s.told && s.told[e.id]);
  if (told.length && Date.now() - (s.toldAt || 0) > RESEND_MS / 3) {
    s.toldAt = Date.now();
    s.send("kept", {
      kept: told.filter((e) => s.told[e.id] === true).map((e) => e.id),
      failed: told.filter((e) => s.told[e.id] !== true).map((e) => ({ id: e.id, why: s.told[e.id] })),
    });
  }
  if (puts.length) {
    puts.forEach((e) => { s.put.add(tag(e)); s.dropped.delete(e.id); if (s.told) delete s.told[e.id]; });
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
      s.told = s.told || {};
      kept.forEach((id) => { s.told[id] = true; });
      failed.forEach((f) => { s.told[f.id] = f.why; });
      s.toldAt = Date.now();
      s.send("kept", { kept, failed });
    });
  }
  if (data.load && s.loaded !== data.load) {  // a new session (its mark): what this browser kept
    s.loaded = data.load;
    s.queue = [];
    s.waiting = null;
    then(async () => {
      s.queue = (await done((await store("readonly")).getAllKeys())).map(String);
    });
  }
  if (s.waiting !== null && (data.got || []).includes(s.waiting)) s.waiting = null;
  then(next);
  // A file is still being read by a run a newer one cut short (a click meanwhile): ask for a run a
  // second later, so that what it adds reaches the page without waiting for the user's next click
  clearTimeout(s.poll);
  if (data.adding) s.poll = setTimeout(() => s.send("poll", Date.now()), POLL_MS);

  // One at a time: each is a message of up to ~21 MB. A trigger can be lost (sent while another
  // run is asked for): not answered in time, it is sent again, from here (the element is drawn
  // again only when its data changes, so no later render may come to send it).
  async function next() {
    if (s.waiting !== null || !s.queue || !s.queue.length) return;
    const key = s.queue.shift(), mark = s.loaded;
    const entry = await done((await store("readonly")).get(key));
    s.waiting = key;
    s.send("back", { key, entry: entry || null, more: s.queue.length });
    setTimeout(() => {
      if (s.waiting !== key || s.loaded !== mark) return;
      s.waiting = null;
      s.queue.unshift(key);
      then(next);
    }, RESEND_MS);
  }
}
