// Work kept in the browser's local storage (ui/saved_work.py): reads, writes and clears it.
// Per page: its snapshot under data.key, and its light values (a click's) under data.key + "#light".
// Python asks for the saved work (data.load: the session's mark) in every run until the answer is
// back; the browser reads once per mark, and sends again, now and then, while runs still ask.
const RESEND_MS = 4000, MAX_SENDS = 5;

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  const tab = window.__twSaved || (window.__twSaved = { cleared: null, pages: {} });
  if (data.ping) {  // the saved work is back in the session: ask for the run that shows it
    if (data.heard && tab.pages[data.heard]) tab.pages[data.heard].heard = true;
    const p = parentElement.__twPing || (parentElement.__twPing = {});
    if (p.pinged !== data.ping) { p.pinged = data.ping; setTriggerValue("applied", data.ping); }
    return;
  }
  // per tab and page, not per element: the run that restores the work draws none of the page
  const s = tab.pages[data.key] || (tab.pages[data.key] = { asked: null, holding: false, sends: 0, at: 0 });
  let store;
  try { store = window.localStorage; } catch (e) { store = null; }
  if (!store) {  // storage off (a private window that forbids it, a policy): say so once per session
    if (data.load && s.asked !== data.load) { s.asked = data.load; setTriggerValue("stored", { key: data.key, raw: null, off: true }); }
    return;
  }
  s.send = setTriggerValue;  // the page's element now (a trigger of one no longer drawn is lost)
  const { key } = data, mark = data.load;
  const answer = () => {  // what the browser kept for the page, to Python
    const raw = store.getItem(key), light = store.getItem(key + "#light");
    if (raw === null && light === null) return false;  // nothing kept: no run to ask for
    const nav = performance.getEntriesByType("navigation")[0];
    s.sends += 1;
    s.at = Date.now();
    s.send("stored", { key, raw, light, reloaded: !!nav && nav.type === "reload" });
    // not back in the session in a while (its run cut short, or no run since): send it again
    setTimeout(() => {
      if (s.holding && !s.heard && s.asked === mark && s.sends < MAX_SENDS && Date.now() - s.at >= RESEND_MS) answer();
    }, RESEND_MS);
    return true;
  };
  try {
    if (data.clear && data.clear !== tab.cleared) {
      tab.cleared = data.clear;
      for (let i = store.length - 1; i >= 0; i--) {
        const k = store.key(i);
        if (k && k.startsWith(data.prefix)) store.removeItem(k);
      }
    }
    if (data.load && s.asked !== data.load) {  // a new session on this page: what the browser kept
      s.asked = data.load;
      s.sends = 0;
      s.heard = false;
      s.holding = answer();  // kept: write nothing until it is back in the session
      if (s.holding) return;
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
