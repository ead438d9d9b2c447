// The playground's HTML shell and stylesheet. Everything else is rendered by app.ts from rpc.discover.

export const PLAYGROUND_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>evm-node playground</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/playground/style.css">
<script type="module" src="/playground/app.js"></script>
</head>
<body>
<header>
  <h1>evm-node <span class="muted">playground</span></h1>
  <span id="contract-info" class="muted">loading the contract (rpc.discover)…</span>
</header>
<main>
  <nav id="methods" aria-label="methods">
    <input id="filter" type="search" placeholder="filter methods" aria-label="filter methods" autocomplete="off">
    <div id="method-list"></div>
  </nav>
  <section id="detail" aria-live="polite">
    <p class="muted">Pick a method on the left.</p>
  </section>
  <aside id="history-pane" aria-label="request history">
    <h2>History <button id="clear-history" type="button" class="small">clear</button></h2>
    <ol id="history"></ol>
  </aside>
</main>
<noscript>The playground needs JavaScript; the JSON-RPC endpoint is POST / on this server.</noscript>
</body>
</html>
`;

export const PLAYGROUND_CSS = `
:root { --fg: #1d232a; --muted: #66707a; --line: #d8dde3; --bg: #f6f8fa; --accent: #0b5cad; --ok: #1a7f37; --bad: #c0262d; --warn: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
header { display: flex; align-items: baseline; gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: var(--bg); }
h1 { font-size: 1.15rem; margin: 0; }
h2 { font-size: 1.05rem; margin: 1rem 0 .4rem; }
h3 { font-size: .95rem; margin: .9rem 0 .3rem; }
.muted { color: var(--muted); font-weight: normal; }
main { display: grid; grid-template-columns: 310px minmax(0, 1fr) 260px; height: calc(100vh - 46px); }
nav, aside { overflow: auto; padding: .6rem; background: var(--bg); }
nav { border-right: 1px solid var(--line); }
aside { border-left: 1px solid var(--line); }
#detail { overflow: auto; padding: .4rem 1.2rem 2rem; }
#filter { width: 100%; padding: .35rem .5rem; border: 1px solid var(--line); border-radius: 4px; }
.tag { margin: .8rem 0 .2rem; font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.method-link { display: block; width: 100%; text-align: left; border: 0; background: none; padding: .2rem .4rem; border-radius: 4px; cursor: pointer; font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--fg); overflow-wrap: anywhere; }
.method-link:hover { background: #e6ebf0; }
.method-link[aria-current="true"] { background: var(--accent); color: #fff; }
.method-name { font: 600 1.2rem ui-monospace, SFMono-Regular, Menlo, monospace; margin: .8rem 0 .2rem; }
.summary { font-weight: 600; margin: .2rem 0; }
.description { white-space: pre-wrap; margin: .3rem 0; }
.param { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .7rem; margin: .5rem 0; }
.param label { font: 600 13px ui-monospace, SFMono-Regular, Menlo, monospace; }
.badge { display: inline-block; font-size: .72rem; padding: 0 .4rem; border-radius: 8px; border: 1px solid var(--line); margin-left: .4rem; color: var(--muted); }
.badge.required { color: var(--bad); border-color: #f0b4b7; }
.badge.deprecated { color: var(--warn); border-color: #e6c36a; }
#method-status .badge:first-child { margin-left: 0; }
.method-link.deprecated { text-decoration: line-through; }
textarea { width: 100%; min-height: 2.4rem; font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; padding: .35rem; border: 1px solid var(--line); border-radius: 4px; resize: vertical; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: .5rem; overflow: auto; max-height: 28rem; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; margin: .3rem 0; }
details { margin: .3rem 0; }
details > summary { cursor: pointer; color: var(--accent); }
.refs { margin-left: 1rem; }
.actions { display: flex; gap: .6rem; align-items: center; margin: .7rem 0; }
button { font: inherit; }
.primary { background: var(--accent); color: #fff; border: 0; border-radius: 5px; padding: .4rem 1.1rem; cursor: pointer; font-weight: 600; }
.primary:disabled { opacity: .6; cursor: wait; }
.small { font-size: .75rem; padding: 0 .4rem; cursor: pointer; }
select { font: inherit; }
#response { border-top: 1px solid var(--line); margin-top: 1rem; }
.verdict { display: inline-block; font-weight: 600; padding: .15rem .6rem; border-radius: 5px; margin: .3rem 0; }
.verdict.ok { color: var(--ok); background: #dafbe1; }
.verdict.bad { color: var(--bad); background: #ffebe9; }
.verdict.unknown { color: var(--warn); background: #fff8c5; }
.error-box { border: 1px solid #f0b4b7; background: #fff5f5; border-radius: 6px; padding: .5rem .7rem; margin: .4rem 0; }
.error-box dt { font-weight: 600; float: left; width: 5.5rem; clear: left; }
.error-box dd { margin: 0 0 .25rem 5.5rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: .3rem 0; }
td, th { border: 1px solid var(--line); padding: .15rem .5rem; text-align: left; font-size: 12.5px; }
#history { list-style: none; padding: 0; margin: 0; }
#history li button { display: block; width: 100%; text-align: left; border: 1px solid var(--line); background: #fff; border-radius: 5px; padding: .3rem .45rem; margin-bottom: .35rem; cursor: pointer; font-size: 12px; }
#history .h-method { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 600; display: block; }
.ok-text { color: var(--ok); } .bad-text { color: var(--bad); } .warn-text { color: var(--warn); }
.local-error { color: var(--bad); font-weight: 600; }
`;
