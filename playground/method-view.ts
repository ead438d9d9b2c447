// A method's page: its docs, result schema and declared errors, a form per param pre-filled from its examples,
// and Send, whose outcome is rendered below (response.ts) and reported to the caller for the history.

import { isObject } from "../shared/contract/json.js";
import { schemaRefOf } from "../shared/contract/refs.js";
import { deref, type ExamplePairing, type Method } from "./contract.js";
import { byId, h, pretty } from "./dom.js";
import { renderOutcome, type Summary } from "./response.js";
import { send, type Outcome } from "./rpc.js";

/** What Send reports: the outcome, the params as typed and the verdict in brief. */
export type OnSent = (outcome: Outcome, texts: string[], summary: Summary) => void;

// Schemas: JSON with the components it references, expandable on demand

function refsOf(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const s of schema) refsOf(s, out);
  else if (isObject(schema)) {
    const ref = schemaRefOf(schema);
    if (ref !== undefined && !out.includes(ref)) out.push(ref);
    for (const [k, v] of Object.entries(schema)) if (k !== "$ref") refsOf(v, out);
  }
  return out;
}

function schemaView(title: string, schema: unknown, open = false): HTMLDetailsElement {
  const details = h("details", { open }, h("summary", {}, title));
  let rendered = false;
  const render = (): void => {
    if (rendered) return;
    rendered = true;
    details.append(h("pre", {}, pretty(schema)));
    const refs = refsOf(schema);
    if (refs.length) {
      const box = h("div", { class: "refs" });
      for (const ref of refs) box.append(schemaView(ref.replace(/^#\/components\/schemas\//, ""), deref({ $ref: ref })));
      details.append(box);
    }
  };
  if (open) render();
  details.addEventListener("toggle", () => details.open && render());
  return details;
}

// A form per method, Send

function exampleTexts(m: Method, example: ExamplePairing | undefined): string[] {
  return m.params.map((p) => {
    const given = example?.params?.map((x) => deref<{ name: string; value: unknown }>(x)).find((x) => x.name === p.name);
    return given === undefined ? "" : pretty(withoutNonce(given.value));
  });
}

/**
 * A transaction request as an example gives it, less its nonce: the example's nonce is right only on a fresh chain
 * (sent on any other it fails "nonce too low"), and the node fills in the sender's next one.
 */
function withoutNonce(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("from" in value) || !("nonce" in value)) return value;
  const rest: Record<string, unknown> = { ...value };
  delete rest.nonce;
  return rest;
}

function fillParams(texts: string[]): void {
  document.querySelectorAll<HTMLTextAreaElement>("textarea[data-param]").forEach((ta) => {
    ta.value = texts[Number(ta.dataset.param)] ?? "";
    ta.rows = Math.min(14, Math.max(2, ta.value.split("\n").length));
  });
}

/** Renders `m` into #detail: the params as `texts` (else its first example), and `outcome` when given. */
export function renderMethod(m: Method, onSent: OnSent, texts?: string[], outcome?: Outcome): void {
  const detail = byId("detail");
  detail.replaceChildren();
  detail.append(h("div", { class: "method-name", id: "method-name" }, m.name));
  detail.append(
    h(
      "p",
      { id: "method-status" },
      m.since ? h("span", { class: "badge", id: "method-since" }, `since ${m.since}`) : null,
      m.deprecated ? h("span", { class: "badge deprecated", id: "method-deprecated" }, "deprecated") : null,
    ),
  );
  if (m.summary) detail.append(h("p", { class: "summary" }, m.summary));
  if (m.description && m.description !== m.summary) detail.append(h("p", { class: "description" }, m.description));

  // Result schema and declared errors
  detail.append(h("h2", {}, "Result"));
  if (m.result) {
    detail.append(h("p", {}, h("code", {}, m.result.name), m.result.description ? ` — ${m.result.description}` : ""));
    detail.append(schemaView("result schema", m.result.schema));
  } else {
    detail.append(h("p", { class: "muted" }, "none (notification)"));
  }
  if (m.errors.length) {
    detail.append(h("h3", {}, "Declared errors"));
    const table = h("table", {}, h("tr", {}, h("th", {}, "code"), h("th", {}, "message"), h("th", {}, "data")));
    for (const e of m.errors) {
      table.append(h("tr", {}, h("td", {}, String(e.code)), h("td", {}, e.message), h("td", {}, e.data === undefined ? "" : JSON.stringify(e.data))));
    }
    detail.append(table);
  }

  // Examples
  let exampleSelect: HTMLSelectElement | undefined;
  if (m.examples.length > 1) {
    exampleSelect = h("select", { id: "example", "aria-label": "example" });
    m.examples.forEach((ex, i) => exampleSelect!.append(h("option", { value: String(i) }, ex.name ?? `example ${i + 1}`)));
    exampleSelect.addEventListener("change", () => fillParams(exampleTexts(m, m.examples[Number(exampleSelect!.value)])));
    detail.append(h("p", {}, "Example: ", exampleSelect));
  } else if (m.examples.length === 1) {
    detail.append(h("p", { class: "muted" }, `Pre-filled from the example "${m.examples[0]!.name ?? "example 1"}".`));
  }

  // Params
  detail.append(h("h2", {}, "Params"));
  if (m.params.length === 0) detail.append(h("p", { class: "muted" }, "none"));
  m.params.forEach((p, i) => {
    const id = `param-${i}`;
    const ta = h("textarea", { id, "data-param": String(i), spellcheck: "false", placeholder: p.required ? "JSON value (required)" : "JSON value, or empty to omit" });
    detail.append(
      h(
        "div",
        { class: "param" },
        h("label", { for: id }, `${i}: ${p.name}`),
        h("span", { class: p.required ? "badge required" : "badge" }, p.required ? "required" : "optional"),
        p.description ? h("div", { class: "description" }, p.description) : null,
        ta,
        schemaView("param schema", p.schema),
      ),
    );
  });
  fillParams(texts ?? exampleTexts(m, m.examples[0]));

  const sendButton = h("button", { id: "send", type: "button", class: "primary" }, "Send");
  const resetButton = h("button", { id: "reset", type: "button" }, "Reset to example");
  const localError = h("span", { id: "local-error", class: "local-error" });
  detail.append(h("div", { class: "actions" }, sendButton, resetButton, localError));
  resetButton.addEventListener("click", () => fillParams(exampleTexts(m, m.examples[Number(exampleSelect?.value ?? 0)])));
  sendButton.addEventListener("click", () => void onSend(m, sendButton, localError, onSent));

  detail.append(h("section", { id: "response" }));
  if (outcome) renderOutcome(m, outcome);
}

function readParams(m: Method): { params: unknown[]; texts: string[] } | string {
  const texts: string[] = [];
  const values: unknown[] = [];
  for (const ta of document.querySelectorAll<HTMLTextAreaElement>("textarea[data-param]")) {
    const i = Number(ta.dataset.param);
    const text = ta.value;
    texts[i] = text;
    if (text.trim() === "") {
      values[i] = undefined;
      continue;
    }
    try {
      values[i] = JSON.parse(text);
    } catch (error) {
      return `param ${i} (${m.params[i]?.name}) is not valid JSON: ${(error as Error).message}`;
    }
  }
  // Empty trailing params are omitted; an empty one before a given one is sent as null (as JSON would).
  let end = values.length;
  while (end > 0 && values[end - 1] === undefined) end--;
  return { params: values.slice(0, end).map((v) => (v === undefined ? null : v)), texts };
}

async function onSend(m: Method, button: HTMLButtonElement, localError: HTMLElement, onSent: OnSent): Promise<void> {
  localError.textContent = "";
  const read = readParams(m);
  if (typeof read === "string") {
    localError.textContent = read;
    return;
  }
  button.disabled = true;
  try {
    const outcome = await send(m.name, read.params);
    const summary = renderOutcome(m, outcome);
    byId("response").scrollIntoView({ block: "start" });
    onSent(outcome, read.texts, summary);
  } finally {
    button.disabled = false;
  }
}
