// The fast-first handshake of ui/fast_first.py: the rest of a page once its counts are on screen.
const PAUSE_MS = Number("__PAUSE_MS__");  // filled in by ui/fast_first.py (REST_PAUSE_MS)
const asked = new Map();  // per tab: the last request each page's signal sent
const pending = new Map();  // per tab: the parts each page still waits for
const waiting = new Map();  // per tab: each page's timer for its last request
if (window.__twTyped === undefined) {  // once per tab: when text was last typed on the page
  window.__twTyped = -Infinity;  // (input events cross the components' shadow roots)
  document.addEventListener("input", () => { window.__twTyped = performance.now(); }, true);
}
function show(name) {
  const body = document.body;
  if (pending.get(name)?.size) body.dataset.twRestPending = name;
  else if (body.dataset.twRestPending === name) delete body.dataset.twRestPending;
}
export default function ({ data, setTriggerValue }) {
  if (data.done) {  // a part of the rest, drawn
    pending.get(data.name)?.delete(data.done);
    show(data.name);
    return;
  }
  if (!data.token) {  // a run of the whole page: nothing to ask for
    clearTimeout(waiting.get(data.name));
    pending.delete(data.name);
    show(data.name);
    return;
  }
  if (asked.get(data.name) === data.token) return;
  asked.set(data.name, data.token);
  document.body.dataset.twRestAsked = data.token;  // tests and benchmarks: this request was seen
  pending.set(data.name, new Set(data.parts));
  show(data.name);
  clearTimeout(waiting.get(data.name));  // a newer request replaces the one waiting
  let shown = true;  // not once the page has gone (another page, a closed tab)
  const when = () => {  // the counts are on screen: once typing pauses
    const left = window.__twTyped + PAUSE_MS - performance.now();
    if (left > 0) waiting.set(data.name, setTimeout(when, left));
    else if (shown) setTriggerValue("drawn", data.token);
  };
  requestAnimationFrame(() => requestAnimationFrame(when));
  return () => {
    shown = false;
    clearTimeout(waiting.get(data.name));
    pending.delete(data.name);
    show(data.name);
  };
}
