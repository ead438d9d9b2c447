// The playground page (runs in the browser, served by src/transport/playground.ts). It asks the node for its
// contract (rpc.discover), lists every method with its docs and schemas, sends calls same-origin (POST /), and
// judges each result with the method's result schema from that same contract (./schema-check.js).
// Contract text is only ever inserted as text, never as HTML.

import { isObject, type JsonObject } from "../../contract/json.js";
import { deref as derefIn, schemaRefOf } from "../../contract/refs.js";
import { checkSchema, type Verdict } from "./schema-check.js";

interface ContentDescriptor {
  name: string;
  description?: string;
  summary?: string;
  required?: boolean;
  schema?: unknown;
}

interface ExamplePairing {
  name?: string;
  description?: string;
  params?: { name: string; value: unknown }[];
  result?: { name?: string; value: unknown };
}

interface Method {
  name: string;
  summary?: string;
  description?: string;
  /** The contract version that introduced it ("x-since"). */
  since?: string;
  deprecated: boolean;
  tags?: { name: string }[];
  params: ContentDescriptor[];
  result?: ContentDescriptor;
  errors: { code: number; message: string; data?: unknown }[];
  examples: ExamplePairing[];
}

interface Outcome {
  /** the JSON-RPC request as sent */
  request: JsonObject;
  /** the parsed response body, when there was one */
  response?: unknown;
  /** HTTP status, or 0 when the request never got an answer */
  status: number;
  ms: number;
  /** a failure before any JSON-RPC answer (network, non-JSON body) */
  failure?: string;
}

interface HistoryEntry {
  id: number;
  method: string;
  /** param texts as typed */
  texts: string[];
  at: string;
  outcome?: Outcome;
  verdictText: string;
  verdictClass: "ok-text" | "bad-text" | "warn-text";
}

const HISTORY_KEY = "evm-node-playground-history";
const HISTORY_LIMIT = 50;

let doc: JsonObject = {};
const methods = new Map<string, Method>();
const requestHistory: HistoryEntry[] = [];
let selected: Method | undefined;
let nextRequestId = 1;

// ---------------------------------------------------------------------------------------------
// DOM helpers

type Child = Node | string | null | undefined | false;

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from the page`);
  return el as T;
}

const pretty = (v: unknown): string => JSON.stringify(v, null, 2) ?? String(v);

/** Follows reference objects (content descriptors, examples, errors may be refs) in the served contract. */
function deref<T>(v: unknown): T {
  return derefIn<T>(doc, v);
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC over same-origin POST /

async function send(method: string, params: unknown[]): Promise<Outcome> {
  const request: JsonObject = { jsonrpc: "2.0", id: nextRequestId++, method, params };
  const started = performance.now();
  try {
    const res = await fetch("/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
      credentials: "same-origin",
    });
    const text = await res.text();
    const ms = Math.round(performance.now() - started);
    try {
      return { request, response: JSON.parse(text), status: res.status, ms };
    } catch {
      return { request, status: res.status, ms, failure: `HTTP ${res.status}: the body is not JSON: ${text.slice(0, 300)}` };
    }
  } catch (error) {
    return { request, status: 0, ms: Math.round(performance.now() - started), failure: `request failed: ${(error as Error).message}` };
  }
}

// ---------------------------------------------------------------------------------------------
// Method list

function methodTag(m: Method): string {
  const t = (m.tags ?? []).map((x) => deref<{ name?: string }>(x)).find((x) => typeof x?.name === "string");
  return t?.name ?? "other";
}

function renderMethodList(): void {
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
          "aria-current": selected?.name === m.name ? "true" : undefined,
        },
        m.name,
      );
      b.addEventListener("click", () => selectMethod(m.name));
      list.append(b);
    }
  }
}

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
// Method detail: docs, a form per method, Send

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

function selectMethod(name: string, texts?: string[], outcome?: Outcome): void {
  const m = methods.get(name);
  if (!m) return;
  selected = m;
  if (location.hash !== `#${name}`) window.history.replaceState(null, "", `#${name}`);
  renderMethodList();
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
  sendButton.addEventListener("click", () => void onSend(m, sendButton, localError));

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

async function onSend(m: Method, button: HTMLButtonElement, localError: HTMLElement): Promise<void> {
  localError.textContent = "";
  const read = readParams(m);
  if (typeof read === "string") {
    localError.textContent = read;
    return;
  }
  button.disabled = true;
  try {
    const outcome = await send(m.name, read.params);
    const verdict = renderOutcome(m, outcome);
    byId("response").scrollIntoView({ block: "start" });
    addHistory({ id: outcome.request.id as number, method: m.name, texts: read.texts, at: new Date().toLocaleTimeString(), outcome, ...verdict });
  } finally {
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Response: verdict, error, result

function verdictOfResult(m: Method, result: unknown): Verdict {
  if (!m.result) return { valid: "unknown", reason: "the contract declares no result" };
  return checkSchema(doc, m.result.schema, result);
}

function renderOutcome(m: Method, o: Outcome): Pick<HistoryEntry, "verdictText" | "verdictClass"> {
  const box = byId("response");
  box.replaceChildren(h("h2", {}, "Response ", h("span", { class: "muted" }, `HTTP ${o.status || "—"} · ${o.ms} ms`)));
  const verdictEl = h("div", { id: "verdict", class: "verdict" });
  box.append(verdictEl);
  let summary: Pick<HistoryEntry, "verdictText" | "verdictClass">;

  const msg = o.response as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
  if (o.failure !== undefined || !isObject(msg)) {
    verdictEl.classList.add("bad");
    verdictEl.textContent = `✗ no JSON-RPC answer: ${o.failure ?? "unexpected body"}`;
    summary = { verdictText: "no answer", verdictClass: "bad-text" };
  } else if (msg.error !== undefined) {
    const e = isObject(msg.error) ? msg.error : {};
    const declared = m.errors.some((d) => d.code === e.code);
    verdictEl.classList.add(declared ? "bad" : "unknown");
    verdictEl.textContent = `error ${String(e.code)} — ${declared ? "a code this method declares in the contract" : "a code this method does not declare in the contract"}`;
    const dl = h(
      "dl",
      { id: "error", class: "error-box" },
      h("dt", {}, "code"),
      h("dd", { id: "error-code" }, String(e.code)),
      h("dt", {}, "message"),
      h("dd", { id: "error-message" }, String(e.message)),
    );
    if ("data" in e) dl.append(h("dt", {}, "data"), h("dd", { id: "error-data" }, pretty(e.data)));
    box.append(dl);
    summary = { verdictText: `error ${String(e.code)}`, verdictClass: "bad-text" };
  } else {
    const v = verdictOfResult(m, msg.result);
    if (v.valid === true) {
      verdictEl.classList.add("ok");
      verdictEl.textContent = "✓ result is valid against the contract's result schema";
      summary = { verdictText: "✓ valid", verdictClass: "ok-text" };
    } else if (v.valid === false) {
      verdictEl.classList.add("bad");
      verdictEl.textContent = `✗ result violates the contract's result schema: result${v.issue.path}: ${v.issue.message}`;
      summary = { verdictText: "✗ schema violation", verdictClass: "bad-text" };
    } else {
      verdictEl.classList.add("unknown");
      verdictEl.textContent = `? ${v.reason}`;
      summary = { verdictText: "? unchecked", verdictClass: "warn-text" };
    }
    box.append(h("h3", {}, "Result"), h("pre", { id: "result" }, pretty(msg.result)));
  }
  box.append(
    h("details", {}, h("summary", {}, "request"), h("pre", { id: "request" }, pretty(o.request))),
    h("details", {}, h("summary", {}, "raw response"), h("pre", { id: "raw-response" }, o.response === undefined ? "" : pretty(o.response))),
  );
  return summary;
}

// ---------------------------------------------------------------------------------------------
// History

function addHistory(entry: HistoryEntry): void {
  requestHistory.unshift(entry);
  requestHistory.splice(HISTORY_LIMIT);
  saveHistory();
  renderHistory();
}

function saveHistory(): void {
  try {
    // Responses can be large (rpc.discover); keep requests and verdicts only.
    const light = requestHistory.map(({ outcome: _outcome, ...rest }) => rest);
    localStorage.setItem(HISTORY_KEY, JSON.stringify(light));
  } catch {
    // storage full or disabled: history stays in memory
  }
}

function loadHistory(): void {
  try {
    const stored = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? "[]") as HistoryEntry[];
    if (Array.isArray(stored)) requestHistory.push(...stored.filter((e) => methods.has(e.method)).slice(0, HISTORY_LIMIT));
  } catch {
    // ignore a corrupt entry
  }
}

function renderHistory(): void {
  const ol = byId("history");
  ol.replaceChildren();
  if (requestHistory.length === 0) ol.append(h("li", { class: "muted" }, "No requests yet."));
  for (const e of requestHistory) {
    const b = h(
      "button",
      { type: "button", "data-history-id": String(e.id) },
      h("span", { class: "h-method" }, e.method),
      h("span", { class: e.verdictClass }, e.verdictText),
      h("span", { class: "muted" }, ` · ${e.at}${e.outcome ? ` · ${e.outcome.ms} ms` : ""}`),
    );
    b.addEventListener("click", () => selectMethod(e.method, e.texts, e.outcome));
    ol.append(h("li", {}, b));
  }
}

// ---------------------------------------------------------------------------------------------
// Start

function toMethod(raw: unknown): Method | undefined {
  const m = deref<JsonObject>(raw);
  if (!isObject(m) || typeof m.name !== "string") return undefined;
  const list = <T>(v: unknown): T[] => (Array.isArray(v) ? v.map((x) => deref<T>(x)) : []);
  return {
    name: m.name,
    summary: typeof m.summary === "string" ? m.summary : undefined,
    description: typeof m.description === "string" ? m.description : undefined,
    since: typeof m["x-since"] === "string" ? m["x-since"] : undefined,
    deprecated: m.deprecated === true,
    tags: list<{ name: string }>(m.tags),
    params: list<ContentDescriptor>(m.params),
    result: m.result === undefined ? undefined : deref<ContentDescriptor>(m.result),
    errors: list<{ code: number; message: string; data?: unknown }>(m.errors),
    examples: list<ExamplePairing>(m.examples),
  };
}

async function start(): Promise<void> {
  const info = byId("contract-info");
  const outcome = await send("rpc.discover", []);
  const msg = outcome.response as { result?: unknown; error?: { message?: string } } | undefined;
  if (!isObject(msg) || !isObject(msg.result)) {
    info.textContent = `cannot load the contract: ${outcome.failure ?? msg?.error?.message ?? "no result"}`;
    info.classList.add("bad-text");
    return;
  }
  doc = msg.result;
  for (const raw of Array.isArray(doc.methods) ? doc.methods : []) {
    const m = toMethod(raw);
    if (m) methods.set(m.name, m);
  }
  const docInfo = isObject(doc.info) ? doc.info : {};
  info.textContent = `${String(docInfo.title ?? "contract")} ${String(docInfo.version ?? "")} · ${methods.size} methods · OpenRPC ${String(doc.openrpc ?? "")}`;
  byId<HTMLInputElement>("filter").addEventListener("input", renderMethodList);
  byId("clear-history").addEventListener("click", () => {
    requestHistory.splice(0);
    saveHistory();
    renderHistory();
  });
  loadHistory();
  renderHistory();
  const fromHash = decodeURIComponent(location.hash.slice(1));
  if (methods.has(fromHash)) selectMethod(fromHash);
  else renderMethodList();
  document.body.dataset.ready = "true";
}

void start();
