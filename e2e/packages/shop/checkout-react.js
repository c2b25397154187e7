/* global document, location, URLSearchParams -- runs in the browser */
// A merchant's React page: PayForm from the installed @payform/widget/react (plain
// createElement, so no JSX plugin is needed). Not named react.js: Vite would take the root's
// react.js for the bare `react` import.
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PayForm } from '@payform/widget/react';

function Checkout({ session, endpoint }) {
  const [paid, setPaid] = useState('');
  return h(
    'main',
    null,
    h(PayForm, { session, endpoint, onPaySuccess: (event) => setPaid(event.detail.orderId ?? '') }),
    h('p', { role: 'status', id: 'outcome' }, paid ? `Paid: order ${paid}` : ''),
  );
}

const query = new URLSearchParams(location.search);
createRoot(document.querySelector('#root')).render(h(Checkout, { session: query.get('session') ?? '', endpoint: query.get('endpoint') ?? '' }));
