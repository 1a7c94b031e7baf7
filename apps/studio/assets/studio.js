// tfgrpo studio: keyboard navigation of the review queue, live updates over server-sent events, a word counter.
// Served from this package (no CDN, no build step). The server enforces everything; this only helps the person.
(() => {
  const body = document.body;

  // Review queue: j / k (or arrow keys on an item) move between items, a approves, r rejects, n keeps all of a group.
  const typing = (target) =>
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    const items = [...document.querySelectorAll(".queue-item")];
    if (items.length === 0) return;
    const current =
      document.activeElement instanceof Element ? document.activeElement.closest(".queue-item") : null;
    const index = current ? items.indexOf(current) : -1;
    const move = (step) => {
      const next = items[Math.min(items.length - 1, Math.max(0, index + step))];
      next.focus();
      next.scrollIntoView({ block: "nearest" });
      event.preventDefault();
    };
    if (event.key === "j" || (event.key === "ArrowDown" && current)) return move(1);
    if (event.key === "k" || (event.key === "ArrowUp" && current)) return move(-1);
    if (!current) return;
    const button = current.querySelector(`button[data-key="${event.key}"]`);
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // Word counter next to lesson fields.
  for (const field of document.querySelectorAll("textarea[data-word-limit]")) {
    const limit = Number(field.dataset.wordLimit);
    const counter = document.createElement("span");
    counter.className = "word-count";
    counter.setAttribute("aria-live", "polite");
    field.after(counter);
    const update = () => {
      const words = field.value.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
      counter.textContent = `${words} / ${limit} words`;
      counter.classList.toggle("over", words > limit);
    };
    field.addEventListener("input", update);
    update();
  }

  // Live updates: when a watched head moves, refresh the page's main region, unless the person has typed something
  // (then say so and leave their draft alone; saving it will say the library changed).
  const live = body.dataset.live;
  if (!live || live === "off" || !window.EventSource) return;
  const notice = document.getElementById("live-notice");
  const say = (text) => {
    notice.textContent = text;
    notice.hidden = false;
  };
  // A draft, or a field the person is in (the search box), is left alone.
  const dirty = () => {
    const active = document.activeElement;
    if (active?.closest("#main") && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
    return [
      ...document.querySelectorAll("#main textarea, #main input[type=text], #main input:not([type])"),
    ].some((field) => field.value !== field.defaultValue);
  };
  const domain = body.dataset.domain || "";
  const head = () => document.getElementById("main")?.dataset.head ?? "";
  const source = new EventSource(
    `/events?${new URLSearchParams(domain ? { domain, head: head() } : {}).toString()}`,
  );
  source.addEventListener("head", (event) => {
    const change = JSON.parse(event.data);
    if (live === "domain" && change.domain !== domain) return;
    const version = change.head === null ? "no version" : `v${change.head}`;
    if (live === "domain" && String(change.head ?? "") === head()) return;
    if (dirty()) {
      say(
        `The library changed: ${change.domain} is now at ${version}. Reload to see it (your unsaved text stays until then).`,
      );
      return;
    }
    window.htmx
      .ajax("GET", location.pathname + location.search, {
        target: "#main",
        select: "#main",
        swap: "outerHTML",
      })
      .then(() => say(`Updated: ${change.domain} is now at ${version}.`));
  });
})();
