/**
 * The preview page's HTML and CSS, served from memory: the page needs no
 * network but the server's own, and nothing but the package.
 */

export const INDEX_HTML: string = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>theway-context preview</title>
<link rel="stylesheet" href="/style.css">
<script type="module" src="/app.js"></script>
</head>
<body data-state="loading">
<header class="top">
  <h1>theway-context <span>preview</span></h1>
  <label>Template set <select id="set"></select></label>
  <span id="status" class="status">connecting…</span>
</header>
<div class="layout">
  <nav class="sessions" aria-label="Sessions">
    <input id="filter" type="search" placeholder="Filter sessions" aria-label="Filter sessions">
    <label class="sort">Sort by <select id="sort">
      <option value="name">name</option>
      <option value="size">size, largest first</option>
      <option value="date">date, newest first</option>
      <option value="messages">messages, most first</option>
    </select></label>
    <p id="count" class="muted"></p>
    <ul id="session-list"></ul>
    <button id="more" type="button" hidden>Show more</button>
  </nav>
  <main>
    <p id="loading" class="loading" role="status"></p>
    <p id="summary" class="summary"></p>
    <div id="overview" class="overview" aria-label="Tokens by part"></div>
    <p id="legend" class="legend"></p>
    <div class="find">
      <form id="jump"><label>Go to message # <input id="jump-to" type="number" min="0" inputmode="numeric"></label> <span id="jump-note" class="muted"></span></form>
      <input id="search" type="search" placeholder="Search the prompt and messages" aria-label="Search the prompt and messages">
      <button id="search-previous" type="button" title="Previous match (Shift+Enter)">↑</button>
      <button id="search-next" type="button" title="Next match (Enter)">↓</button>
      <span id="search-count" class="muted" role="status"></span>
    </div>
    <section id="replay" class="replay" aria-label="Replay"></section>
    <section id="eval" class="eval" aria-label="Eval"></section>
    <p id="place" class="place" hidden></p>
    <section id="failure" class="failure" hidden></section>
    <section id="prompt"></section>
    <section id="messages"></section>
    <section id="warnings"></section>
  </main>
</div>
</body>
</html>
`;

export const STYLE_CSS: string = `:root {
  --bg: #fbfbfa; --fg: #1d1d1f; --muted: #6b6b70; --line: #dedee3;
  --harness: #2f6fdb; --tools: #1f9d6b; --environment: #c2780a; --lineage: #9b4dca;
  --frame: #b4532a; --bar: #5b7fd6; --error: #b3261e; --panel: #ffffff;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; }
.top {
  display: flex; gap: 1.5rem; align-items: center; padding: .6rem 1rem;
  border-bottom: 1px solid var(--line); background: var(--panel); position: sticky; top: 0; z-index: 2;
}
.top h1 { font-size: 1rem; margin: 0; }
.top h1 span { font-weight: 400; color: var(--muted); }
.status { margin-left: auto; font-size: .85rem; color: var(--muted); }
.status.live::before { content: "●"; color: var(--tools); margin-right: .35rem; }
.status.down::before, .status.failing::before { content: "●"; color: var(--error); margin-right: .35rem; }
.top h1, .top label { flex-shrink: 0; white-space: nowrap; }
.status.failing { color: var(--error); min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.layout { display: grid; grid-template-columns: 17rem 1fr; min-height: calc(100vh - 3rem); }
.sessions {
  border-right: 1px solid var(--line); padding: .75rem; background: var(--panel);
  position: sticky; top: 2.9rem; align-self: start; height: calc(100vh - 2.9rem); overflow-y: auto;
}
.sessions input { width: 100%; padding: .35rem .5rem; border: 1px solid var(--line); border-radius: 4px; }
.sessions ul { list-style: none; margin: 0; padding: 0; }
.sessions li button {
  width: 100%; text-align: left; background: none; border: 0; padding: .25rem .4rem;
  border-radius: 4px; cursor: pointer; font: 12px ui-monospace, monospace; overflow-wrap: anywhere;
}
.sessions li button:hover { background: #eef1f8; }
.sessions li button[aria-current="true"] { background: #dfe7fb; font-weight: 600; }
.sessions li button .id { display: block; }
.sessions li button .facts { display: block; font: 11px system-ui, sans-serif; color: var(--muted); font-weight: 400; }
.sessions .sort { display: block; margin: .45rem 0 0; font-size: .8rem; color: var(--muted); }
.loading { display: none; margin: 0 0 .4rem; font-weight: 600; color: var(--harness); }
body[data-state="loading"] .loading { display: block; }
body[data-state="loading"] main > :not(.loading) { opacity: .3; pointer-events: none; }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1rem; margin: 0 0 .5rem; font-size: .78rem; color: var(--muted); }
.legend:empty { display: none; }
.legend .key { display: inline-flex; align-items: center; gap: .3rem; }
.legend .key i { display: inline-block; width: .8rem; height: .6rem; border-radius: 2px; background: #8a8f99; }
.legend .key i.seg-harness { background: var(--harness); }
.legend .key i.seg-tools { background: var(--tools); }
.legend .key i.seg-environment { background: var(--environment); }
.legend .key i.seg-lineage { background: var(--lineage); }
.legend .key i.seg-framed { background: var(--frame); }
.find {
  display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; padding: .35rem 0;
  position: sticky; top: var(--find-top, 2.72rem); z-index: 1; background: var(--bg); font-size: .85rem;
  border-bottom: 1px solid var(--line); margin: 0 -1.5rem; padding: .4rem 1.5rem;
}
body[data-state^="failed"] .find { display: none; }
.find form { margin: 0; }
.find #jump-to { width: 5rem; }
.find #search { flex: 0 1 18rem; padding: .2rem .4rem; }
mark { background: #ffe066; color: inherit; }
.hit-current { outline: 2px solid #e0a800; outline-offset: 1px; }
.flash { animation: flash 1.2s ease-out; }
@keyframes flash { from { box-shadow: 0 0 0 4px #ffd54f; } to { box-shadow: 0 0 0 4px transparent; } }
.content-block { margin: .35rem .6rem; border-radius: 4px; }
.content-block > pre { padding: .3rem .5rem; }
.content-block .block-label { display: inline-block; margin: .25rem .5rem 0; font: 600 11px ui-monospace, monospace; text-transform: uppercase; letter-spacing: .04em; }
.content-block .block-label b { margin-left: .4rem; text-transform: none; letter-spacing: 0; }
.block-thinking { background: #f4f1fa; border: 1px dashed #b9a6dc; }
.block-thinking .block-label { color: var(--lineage); }
.block-thinking > pre { color: #4a4458; font-style: italic; }
.block-toolCall { background: #eef7f2; border: 1px solid #a8d5bf; }
.block-toolCall .block-label { color: var(--tools); }
.block-image, .block-other { background: #f3f3f5; border: 1px solid var(--line); }
#more { margin-top: .5rem; width: 100%; }
main { padding: 1rem 1.5rem 3rem; min-width: 0; }
h2 { font-size: 1rem; margin: 1.4rem 0 .5rem; }
h2 .size { font-weight: 400; color: var(--muted); font-size: .85rem; margin-left: .5rem; }
.muted { color: var(--muted); font-size: .85rem; }
.summary { color: var(--muted); margin: 0; }
.summary b { color: var(--fg); font-weight: 600; }
.place {
  position: sticky; top: var(--place-top, 5.3rem); z-index: 1; background: #fff8e1; border: 1px solid #f0d890;
  border-radius: 4px; padding: .4rem .6rem; font-family: ui-monospace, monospace; font-size: 12px;
}
.block { scroll-margin-top: calc(var(--stuck-bottom, 6rem) + .5rem); border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 4px; margin: .5rem 0; background: var(--panel); }
.block > header { display: flex; gap: .75rem; align-items: center; padding: .3rem .6rem; border-bottom: 1px solid var(--line); cursor: pointer; flex-wrap: wrap; }
.block > header .name { font-weight: 600; font-family: ui-monospace, monospace; }
.block > header .template { font: 12px ui-monospace, monospace; color: var(--muted); background: none; border: 0; padding: 0; cursor: pointer; text-decoration: underline dotted; }
.block > header .size { margin-left: auto; font-size: .8rem; color: var(--muted); white-space: nowrap; }
.section-harness { border-left-color: var(--harness); }
.section-tools { border-left-color: var(--tools); }
.section-environment { border-left-color: var(--environment); }
.section-lineage { border-left-color: var(--lineage); }
.framed { border: 2px dashed var(--frame); border-left-width: 4px; }
.framed > header .name { color: var(--frame); }
.kind-user { border-left-color: #6b8e23; }
.kind-assistant { border-left-color: var(--harness); }
.kind-toolResult { border-left-color: #888; }
.bar { display: inline-block; width: 10rem; height: .55rem; background: #eceef3; border-radius: 3px; overflow: hidden; }
.bar > span { display: block; height: 100%; background: var(--bar); }
.bar.over > span { background: var(--error); }
.parts { list-style: none; margin: 0; padding: .2rem .6rem; border-bottom: 1px solid var(--line); font-size: .8rem; }
.parts li { display: flex; gap: .75rem; align-items: center; }
.parts li.depth-2 { padding-left: 1rem; }
.parts .template { font: 12px ui-monospace, monospace; color: var(--muted); }
.parts .size { margin-left: auto; color: var(--muted); }
.overview { display: flex; height: .9rem; margin: .6rem 0; border-radius: 3px; overflow: hidden; background: #eceef3; }
.overview:empty { display: none; }
.overview > a { display: block; flex: 0 1 0; min-width: 0; height: 100%; border-right: 1px solid #fff; background: #8a8f99; }
.overview.dense > a { border-right: 0; }
.overview > a.seg-harness { background: var(--harness); }
.overview > a.seg-tools { background: var(--tools); }
.overview > a.seg-environment { background: var(--environment); }
.overview > a.seg-lineage { background: var(--lineage); }
.overview > a.seg-framed { background: var(--frame); }
pre { margin: 0; padding: .5rem .7rem; white-space: pre-wrap; overflow-wrap: anywhere; font: 12.5px/1.45 ui-monospace, "SFMono-Regular", Menlo, monospace; }
.more-lines { margin: 0 .7rem .5rem; font-size: .8rem; }
.failure { margin-top: .6rem; border: 1px solid var(--error); border-left: 4px solid var(--error); border-radius: 4px; background: #fff5f4; padding: .5rem 1rem 1rem; }
.failure h2 { color: var(--error); margin-top: .5rem; }
.diagnostic { margin: .6rem 0; }
.diagnostic .where { font: 12.5px ui-monospace, monospace; font-weight: 600; }
.diagnostic .code { font-size: .8rem; color: var(--muted); margin-left: .5rem; }
.diagnostic pre { background: #fff; border: 1px solid #f1c9c5; border-radius: 4px; margin-top: .3rem; }
details.warnings summary { cursor: pointer; color: var(--muted); }
.replay-chart { width: 100%; height: 160px; display: block; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; }
.replay-chart .cached, .key-cached i { fill: #9db4ea; background: #9db4ea; }
.replay-chart .new, .key-new i { fill: #e0803a; background: #e0803a; }
.replay-chart .output, .key-output i { fill: #b9b9c0; background: #b9b9c0; }
.replay-chart .recorded { fill: none; stroke: var(--fg); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
.key-recorded i { background: var(--fg); height: 2px !important; }
.replay-legend .key { margin-right: 1rem; }
.eval-table { width: 100%; border-collapse: collapse; font-size: .85rem; }
.eval-table td, .eval-table th { border-bottom: 1px solid var(--line); padding: .2rem .4rem; text-align: left; vertical-align: top; }
.eval-table .move { white-space: pre-wrap; word-break: break-word; font-family: var(--mono, monospace); }
.eval-table tr.flip { background: #fbe3c8; }
.replay-legend i { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: middle; }
`;
