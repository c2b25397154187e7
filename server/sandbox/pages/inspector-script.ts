/**
 * The inspector page's one script, served from /assets/inspector.js so the page keeps a strict
 * Content-Security-Policy (script from 'self' only, no inline script). Every 2 seconds it asks
 * for the list again — already escaped HTML rendered by the server — and swaps it in when it
 * changed, keeping open entries open and the focus where it was. Without it the page is the
 * same list, current when loaded.
 */
export const INSPECTOR_SCRIPT_PATH = '/assets/inspector.js';

export const INSPECTOR_SCRIPT = `'use strict';
(() => {
  let list = document.getElementById('requests');
  if (!list) return;
  const source = list.dataset.source;
  let shown = '';
  let busy = false;
  const idOf = (element) => element?.closest('[data-id]')?.dataset.id;
  async function refresh() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const answer = await fetch(source, { headers: { Accept: 'text/html' }, cache: 'no-store' });
      if (!answer.ok) return;
      const html = await answer.text();
      if (html === shown) return;
      shown = html;
      const open = new Set(Array.from(list.querySelectorAll('details[open]'), idOf));
      const focused = list.contains(document.activeElement) ? idOf(document.activeElement) : undefined;
      const template = document.createElement('template');
      template.innerHTML = html;
      const fresh = template.content.firstElementChild;
      if (!fresh) return;
      for (const details of fresh.querySelectorAll('details')) details.open = open.has(idOf(details));
      list.replaceWith(fresh);
      list = fresh;
      if (focused) list.querySelector('[data-id="' + CSS.escape(focused) + '"] > summary')?.focus();
    } catch {
      // The sandbox is restarting or gone: the next tick tries again.
    } finally {
      busy = false;
    }
  }
  setInterval(refresh, 2000);
})();
`;
