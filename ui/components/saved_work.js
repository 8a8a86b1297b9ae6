// Work kept in the browser's local storage (ui/saved_work.py): reads, writes and clears it.
// Per page: its snapshot under data.key, and its light values (a click's) under data.key + "#light".
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  const s = parentElement.__twSaved || (parentElement.__twSaved = { asked: null, cleared: null });
  if (data.ping) {  // the saved work is back in the session: ask for the run that shows it
    if (s.pinged !== data.ping) { s.pinged = data.ping; setTriggerValue("applied", data.ping); }
    return;
  }
  let store;
  try { store = window.localStorage; } catch (e) { store = null; }
  if (!store) {  // storage off (a private window that forbids it, a policy): say so once
    if (s.asked !== "off") { s.asked = "off"; setTriggerValue("stored", { key: data.key, raw: null, off: true }); }
    return;
  }
  try {
    if (data.clear && data.clear !== s.cleared) {
      s.cleared = data.clear;
      for (let i = store.length - 1; i >= 0; i--) {
        const k = store.key(i);
        if (k && k.startsWith(data.prefix)) store.removeItem(k);
      }
    }
    if (data.load && s.asked !== data.key) {  // a new session on this page: what the browser kept
      s.asked = data.key;
      const raw = store.getItem(data.key), light = store.getItem(data.key + "#light");
      if (raw !== null || light !== null) {  // send it, once, and write nothing until it is back in the session
        s.holding = true;
        const nav = performance.getEntriesByType("navigation")[0];
        const reloaded = !!nav && nav.type === "reload";
        setTriggerValue("stored", { key: data.key, raw, light, reloaded });
        return;
      }  // nothing kept: no run to ask for, this run's snapshot is the page's work
    }
    if (data.restored) s.holding = false;
    if (s.holding) return;
    if (typeof data.light === "string") store.setItem(data.key + "#light", data.light);  // small: a click's values
    if (typeof data.snapshot === "string") {
      store.setItem(data.key, data.snapshot);
      store.setItem(data.key + "#digest", data.digest);
    } else if (data.digest && store.getItem(data.key + "#digest") !== data.digest && s.resent !== data.digest) {
      s.resent = data.digest;  // a snapshot that never reached the browser: ask for it again, once
      setTriggerValue("resend", data.digest);
    }
  } catch (e) {  // full storage: Python says what was not kept
    setTriggerValue("failed", data.digest || "");
  }
}
