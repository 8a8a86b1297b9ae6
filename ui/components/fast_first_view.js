// ui/fast_first.py: says when a fresh tab has painted the top of the page.
export default function ({ data, setTriggerValue }) {
  let done = false;
  const drawn = () => {
    const main = document.querySelector('[data-testid="stMain"]') || document.body;
    return main.querySelector("." + data.marker) && !main.querySelector('[data-testid="stSkeleton"]');
  };
  const tick = () => {
    if (done) return;
    if (!drawn()) { requestAnimationFrame(tick); return; }
    done = true;
    requestAnimationFrame(() => requestAnimationFrame(() => setTriggerValue("shown", true)));
  };
  tick();
  return () => { done = true; };
}
