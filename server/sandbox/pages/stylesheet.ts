/**
 * The one stylesheet of the sandbox's pages, served from /assets/sandbox.css so the pages can
 * keep a strict Content-Security-Policy (no inline style or script).
 */
export const STYLESHEET_PATH = '/assets/sandbox.css';

export const STYLESHEET = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #f6f8fa; --card: #fff;
  --accent: #0b5cad; --danger: #b3261e; --ok: #1a7f37; --line: #d0d7de; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --card: #161b22;
  --accent: #58a6ff; --danger: #ff7b72; --ok: #3fb950; --line: #30363d; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
.skip-link { position: absolute; left: -999px; }
.skip-link:focus { left: 8px; top: 8px; background: var(--card); padding: 8px; z-index: 1; }
header { padding: 12px 24px; border-bottom: 1px solid var(--line); display: flex; justify-content: space-between; flex-wrap: wrap; gap: 8px; }
header p { margin: 0; }
.brand { font-weight: 600; }
.test-mode { color: var(--muted); }
main { max-width: 34rem; margin: 32px auto; padding: 24px; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
h1 { font-size: 1.5rem; margin: 0 0 16px; }
h2 { font-size: 1.125rem; }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0 0 24px; }
dl.summary dt { color: var(--muted); }
dl.summary dd { margin: 0; overflow-wrap: anywhere; }
.amount { font-size: 1.25rem; font-weight: 600; }
label, legend { display: block; font-weight: 600; margin-bottom: 4px; padding: 0; }
fieldset { border: 0; padding: 0; margin: 0 0 16px; }
.field { margin-bottom: 16px; }
.hint { color: var(--muted); font-size: 0.875rem; margin: 0 0 4px; }
.row { display: flex; gap: 12px; }
.row .field { flex: 1; }
input { width: 100%; font: inherit; padding: 8px 10px; border: 1px solid var(--muted); border-radius: 6px; background: var(--card); color: var(--fg); }
input[aria-invalid="true"] { border: 2px solid var(--danger); }
input:focus-visible, button:focus-visible, a:focus-visible, .error-summary:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
.field-error { color: var(--danger); font-weight: 600; margin: 0 0 4px; }
.error-summary { border: 2px solid var(--danger); border-radius: 6px; padding: 12px 16px; margin-bottom: 24px; }
.error-summary h2 { margin: 0 0 8px; }
.error-summary ul { margin: 0; padding-left: 20px; }
.error-summary a { color: var(--danger); }
.actions { display: flex; gap: 12px; flex-wrap: wrap; align-items: center; margin-top: 24px; }
button { font: inherit; font-weight: 600; padding: 10px 18px; border-radius: 6px; border: 1px solid transparent; cursor: pointer; background: var(--accent); color: #fff; }
button.secondary { background: transparent; color: var(--danger); border-color: var(--danger); }
a { color: var(--accent); }
.outcome-success { color: var(--ok); }
.outcome-failure { color: var(--danger); }
details { margin-top: 24px; }
table { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); }
td.number { font-variant-numeric: tabular-nums; white-space: nowrap; }
main:has(> .inspector) { max-width: 72rem; }
.requests { list-style: none; padding: 0; margin: 0 0 24px; }
.requests > li { border-bottom: 1px solid var(--line); padding: 6px 0; }
.requests summary { cursor: pointer; overflow-wrap: anywhere; }
.requests h3 { font-size: 1rem; margin: 16px 0 4px; }
.requests pre { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px; overflow-x: auto; font-size: 0.8125rem; margin: 0 0 8px; }
.method { font-weight: 600; }
.status-ok { color: var(--ok); font-weight: 600; }
.status-refused, .status-error { color: var(--danger); font-weight: 600; }
.notes li, .webhooks li { margin-bottom: 4px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
