// The link to copy (ui/link_box.py): selects the address on focus; the button copies it.
export default function ({ data, parentElement }) {
  const box = parentElement.querySelector(".tw-link-text");
  const button = parentElement.querySelector(".tw-link-copy");
  box.setAttribute("aria-label", data.label);
  if (box.value !== data.link) box.value = data.link;
  if (button.__tw) return;
  button.__tw = true;
  box.addEventListener("focus", () => box.select());
  button.addEventListener("click", async () => {
    box.focus();
    box.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(box.value);  // a secure page (https or localhost) only
      copied = true;
    } catch (e) {
      copied = document.execCommand ? document.execCommand("copy") : false;
    }
    button.textContent = copied ? "Copied" : "Selected: press Ctrl+C";
    setTimeout(() => { button.textContent = "Copy link"; }, 2000);
  });
}
