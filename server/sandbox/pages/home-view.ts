/** The sandbox's front page: what it is, the default project's id, the test cards, the control plane. */
import { html } from 'hono/html';
import type { Project } from '../config.js';
import { SANDBOX_DOCS } from '../docs.js';
import { layout } from './layout.js';
import type { Markup } from './layout.js';
import { testCardTable } from './page-parts.js';

export function homePage(project: Project): Markup {
  return layout(
    'Sandbox gateway',
    html`<h1>payform sandbox gateway</h1>
<p>An offline twin of the card payment gateway: the API lives under <code>/api/v1</code>, the health check at
<a href="/health">/health</a> and the control plane under <a href="/_sandbox">/_sandbox</a>.</p>
<dl class="summary">
<dt>Test project</dt><dd>${project.name}</dd>
<dt>pos_id</dt><dd><code>${project.posId}</code></dd>
<dt>Currency</dt><dd>${project.currency}</dd>
</dl>
<p>Credentials are printed by <code>payform-sandbox</code> when it starts; test cards, the control plane and every behaviour are described in <a href="${SANDBOX_DOCS}">its documentation</a>.</p>
${testCardTable()}`,
  );
}
