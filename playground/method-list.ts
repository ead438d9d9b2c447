// The list of methods on the left, grouped by tag and narrowed by the filter box.

import { methodTag, methods, type Method } from "./contract.js";
import { byId, h } from "./dom.js";

export function renderMethodList(selected: string | undefined, onPick: (name: string) => void): void {
  const list = byId("method-list");
  const filter = byId<HTMLInputElement>("filter").value.trim().toLowerCase();
  list.replaceChildren();
  const groups = new Map<string, Method[]>();
  for (const m of methods.values()) {
    const hay = `${m.name} ${m.summary ?? ""}`.toLowerCase();
    if (filter && !hay.includes(filter)) continue;
    const tag = methodTag(m);
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag)!.push(m);
  }
  for (const [tag, ms] of groups) {
    list.append(h("div", { class: "tag" }, tag));
    for (const m of ms) {
      const b = h(
        "button",
        {
          type: "button",
          class: m.deprecated ? "method-link deprecated" : "method-link",
          "data-method": m.name,
          title: m.deprecated ? `deprecated: ${m.summary ?? ""}` : (m.summary ?? ""),
          "aria-current": selected === m.name ? "true" : undefined,
        },
        m.name,
      );
      b.addEventListener("click", () => onPick(m.name));
      list.append(b);
    }
  }
}
