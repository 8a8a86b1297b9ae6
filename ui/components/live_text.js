// The text box counted as you type (ui/live_text.py; its module docstring gives the rules).
// The module is imported once per browser tab, so `copies` outlives a page change.
const copies = new Map();  // box name -> {rev, text, sent}: what the box last held, and last sent
const ASK_MS = 300;  // the longest the rerun waits for the count route's answer
const words = (t) => t.replace(/\s+/g, " ").trim();  // a label as the page shows it

export default function (component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  const root = parentElement.querySelector(".tw-live");
  const box = root.querySelector(".tw-live-box");
  const note = root.querySelector(".tw-live-note");
  const button = root.querySelector(".tw-live-count");
  let s = root.__tw;
  if (!s) {
    s = { rev: null, sent: null, sending: null, timer: null, composing: false, data, asked: 0 };
    root.__tw = s;
    const manual = () => box.value.length > s.data.live_limit;
    const showMode = () => {
      const m = manual();
      button.hidden = !m;
      note.textContent = m ? s.data.manual_note : s.data.live_note;
      root.dataset.mode = m ? "manual" : "live";
    };
    // The counts of a text, asked of the server's count route (ui/count_api.py) before the text
    // is sent for a rerun: the rerun makes the browser draw the whole page, and an answer that
    // came meanwhile would wait for that. Shown on the count cards if the box still holds that
    // text and each card is the one asked for; else (or no route: a server started otherwise, or
    // no answer within ASK_MS) the rerun draws them, as it always does. Resolves when done.
    const ask = (text) => {
      const c = s.data.counts;
      if (!c || !text || text.length > s.data.live_limit) return Promise.resolve();  // "" shows no cards
      const asked = ++s.asked;
      const answered = fetch(c.url, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text, ids: c.ids, window: c.window, special: c.special }),
      }).then((r) => (r.ok ? r.json() : null)).then((answer) => {
        if (!answer || asked !== s.asked || box.value !== text) return;
        const cards = document.querySelectorAll(`.st-key-${c.cards} [data-testid=stMarkdown]`);
        if (cards.length !== c.labels.length || answer.tokens.length !== c.labels.length) return;
        const numbers = [...cards].map((card, i) => {
          const label = card.querySelector("p");
          const number = card.querySelector("h3 [data-heading-text]");
          const ok = label && number && number.firstChild && number.firstChild.nodeType === Node.TEXT_NODE;
          return ok && words(label.innerText) === words(c.labels[i]) ? number.firstChild : null;
        });
        if (numbers.includes(null)) return;
        // the text node itself, not textContent: React keeps that node and writes the rerun's number in it
        numbers.forEach((node, i) => { node.nodeValue = answer.tokens[i].toLocaleString("en-US"); });
      }).catch(() => {});
      return Promise.race([answered, new Promise((done) => setTimeout(done, ASK_MS))]);
    };
    const remember = () => copies.set(s.data.name, { rev: s.rev, text: box.value, sent: s.sent });
    const send = () => {
      clearTimeout(s.timer);
      s.timer = null;
      const text = box.value, rev = s.rev;
      if (s.composing || rev === null || text === s.sent || text === s.sending) return;
      s.sending = text;
      ask(text).then(() => {
        if (s.sending !== text || s.rev !== rev) return;  // typed on, or Python replaced it: sent later
        s.sending = null;
        s.sent = text;  // only now: a page left before this keeps the text to send on return
        remember();
        setStateValue("typed", { text, rev });
      });
    };
    const edited = () => {
      remember();
      showMode();
      clearTimeout(s.timer);
      if (!s.composing && !manual()) s.timer = setTimeout(send, s.data.pause_ms);
    };
    s.send = send;
    s.remember = remember;
    s.showMode = showMode;
    box.addEventListener("input", edited);
    box.addEventListener("compositionstart", () => { s.composing = true; clearTimeout(s.timer); });
    box.addEventListener("compositionend", () => { s.composing = false; edited(); });
    box.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); send(); }
    });
    box.addEventListener("blur", send);
    button.addEventListener("click", send);
  }
  s.data = data;
  root.querySelector(".tw-live-label").textContent = data.label;
  box.setAttribute("aria-label", data.label);  // the label above is not a <label for>: name the box itself
  box.placeholder = data.placeholder;
  box.style.height = box.style.height || data.height + "px";
  if (data.value !== null && data.value !== undefined && data.rev !== s.rev) {
    // Python replaced the text (sample, upload, link, file): the one time Python writes the box.
    box.value = data.value;
    s.asked++;  // counts asked for the text it replaces are of no use now
    s.sending = null;
    s.rev = data.rev;
    s.sent = data.value;
    s.remember();
  } else if (s.rev === null || s.rev !== data.rev) {
    const copy = copies.get(data.name);
    if (copy && copy.rev === data.rev) {
      box.value = copy.text;  // back on the page: the text this tab already had
      s.rev = copy.rev;
      s.sent = copy.sent;
      if (box.value.length <= data.live_limit) s.send();  // keys typed just before leaving
    } else {
      setTriggerValue("need_text", data.rev);  // nothing here to show: ask Python for it
    }
  }
  s.showMode();
}
