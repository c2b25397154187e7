/**
 * A receipt as a standalone HTML document: it must read well when saved or unpacked from a ZIP,
 * so its style is inline, and the Content-Security-Policy names that style by its hash.
 */
import { createHash } from 'node:crypto';
import { html } from 'hono/html';
import type { Receipt } from './receipt.js';

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;color:#1b1f24;max-width:32rem;margin:24px auto;padding:0 16px}
h1{font-size:1.375rem;margin:0 0 4px}.merchant{color:#57606a;margin:0 0 16px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 0;border-bottom:1px solid #d0d7de;vertical-align:top}
th{font-weight:400;color:#57606a;padding-right:16px;white-space:nowrap}td{overflow-wrap:anywhere}
.total th,.total td{font-weight:700;font-size:1.125rem;color:#1b1f24}.note{color:#57606a;font-size:.8125rem;margin-top:16px}`;

/** The Content-Security-Policy a receipt is served with. */
export const RECEIPT_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export async function receiptHtml(receipt: Receipt): Promise<string> {
  const document = await html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${receipt.title} ${receipt.number}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${receipt.title}</h1>
<p class="merchant">${receipt.merchant} · No. ${receipt.number} · ${receipt.date}</p>
<table>
<tbody>
${receipt.rows.map(([label, value]) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>`)}
<tr class="total"><th scope="row">Amount</th><td>${receipt.total}</td></tr>
</tbody>
</table>
${receipt.signature ? html`<p class="note">Signed by payform sandbox (test signature, no legal force): ${receipt.signature}</p>` : ''}
<p class="note">Issued by the payform sandbox gateway. Test mode: no real money moved.</p>
</main>
</body>
</html>`;
  return String(document);
}
