/**
 * The inspector at /_sandbox: the recent requests, newest first, each opening onto its notes
 * (what was ignored, coerced, waived or refused, what it warns of, and the rule behind it), the
 * request and the answer, and the webhooks it caused. Every value goes through `html`, which
 * escapes it; the data is masked already (inspector/recorder.ts).
 */
import { html } from 'hono/html';
import type { Project } from '../config.js';
import type { InspectedRequest, Listing } from '../inspector/listing.js';
import type { InspectorNote } from '../inspector/notes.js';
import { layout } from './layout.js';
import type { Markup } from './layout.js';
import { INSPECTOR_SCRIPT_PATH } from './inspector-script.js';

/** Where the page fetches the list from (the same list, as an HTML fragment). */
export const LIST_SOURCE = '/_sandbox/requests?format=html';

export function inspectorPage(listing: Listing, projects: readonly Project[]): Markup {
  return layout(
    'Request inspector',
    html`<div class="inspector">
<h1>Request inspector</h1>
<p>The last requests the sandbox answered, newest first: every request to <code>/api/v1</code> and every
<code>POST</code>, <code>PUT</code> and <code>DELETE</code>. Card data and credentials are masked. Open one to see what
the sandbox ignored, coerced, waived, refused or warns of, the request and answer, and the webhooks it caused.</p>
<h2>Requests</h2>
<p class="hint">The list refreshes itself every 2 seconds. As JSON: <a href="/_sandbox/requests">/_sandbox/requests</a>.</p>
${requestList(listing)}
<h2>Projects</h2>
<table>
<thead><tr><th scope="col">pos_id</th><th scope="col">Name</th><th scope="col">Currencies</th><th scope="col">3-D Secure</th></tr></thead>
<tbody>
${projects.map((project) => html`<tr><td><code>${project.posId}</code></td><td>${project.name}</td><td>${project.currencies.join(' ')}</td><td>${project.threeDSecure}</td></tr>`)}
</tbody>
</table>
<script src="${INSPECTOR_SCRIPT_PATH}" defer></script>
</div>`,
  );
}

/** The list alone: the page's body, and what its script fetches to stay current. */
export function requestList(listing: Listing): Markup {
  return html`<ol id="requests" class="requests" data-source="${LIST_SOURCE}" aria-label="Requests, newest first">
${listing.requests.length === 0 ? html`<li class="empty">No requests yet.</li>` : listing.requests.map(requestItem)}
</ol>`;
}

function requestItem(request: InspectedRequest): Markup {
  const tone = request.status >= 500 ? 'status-error' : request.status >= 400 ? 'status-refused' : 'status-ok';
  return html`<li>
<details data-id="request-${request.id}">
<summary><span class="method">${request.method}</span> <code>${request.path}</code> <span class="${tone}">${request.status}</span>
<span class="hint">#${request.id} · ${request.at} · ${count(request.notes.length, 'note')} · ${count(request.webhooks.length, 'webhook')}</span></summary>
${request.notes.length > 0 ? html`<h3>Notes</h3><ul class="notes">${request.notes.map(noteItem)}</ul>` : ''}
<h3>Request</h3>
${Object.keys(request.query).length > 0 ? html`<p>Query</p>${json(request.query)}` : ''}
<p>Headers</p>${json(request.headers)}
${request.body === null ? html`<p>No body</p>` : html`<p>Body</p>${json(request.body)}`}
<h3>Answer: ${request.status} <span class="hint">in ${request.duration_ms} ms</span></h3>
${Object.keys(request.response.headers).length > 0 ? json(request.response.headers) : ''}
${request.response.body === null ? html`<p>No body</p>` : json(request.response.body)}
<h3>Webhooks</h3>
${request.webhooks.length === 0
  ? html`<p>None caused by this request.</p>`
  : html`<ul class="webhooks">${request.webhooks.map(
      (webhook) => html`<li><details data-id="webhook-${webhook.id}">
<summary>${webhook.method} ${webhook.event_status} → <code>${webhook.target}</code> · ${webhook.status}, ${count(webhook.attempts.length, 'attempt')}${webhook.duplicate_of ? ' (duplicate)' : ''}</summary>
${json(webhook.event)}
${webhook.attempts.length > 0 ? json(webhook.attempts) : ''}
</details></li>`,
    )}</ul>`}
</details>
</li>`;
}

function noteItem(note: InspectorNote): Markup {
  const field = note.field ? html` <code>${note.field}</code>` : '';
  const rule = note.rule ? html` <span class="hint">Rule: ${note.rule}</span>` : '';
  switch (note.kind) {
    case 'refused':
      return html`<li><strong>Refused</strong>${field}: ${note.reason}.${rule}</li>`;
    case 'ignored':
      return html`<li><strong>Ignored</strong>${field}: ${note.what}.${rule}</li>`;
    case 'coerced':
      return html`<li><strong>Coerced</strong>${field}: ${note.what} (from <code>${note.from}</code> to <code>${note.to}</code>).${rule}</li>`;
    case 'waived':
      return html`<li><strong>Waived</strong>${field}: ${note.what}.${rule}</li>`;
    case 'warning':
      return html`<li><strong>Warning</strong>${field}: ${note.what}.${rule}</li>`;
  }
}

function json(value: unknown): Markup {
  return html`<pre>${JSON.stringify(value, null, 2)}</pre>`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
