/* global document, location, URLSearchParams -- runs in the browser */
// A merchant's React page: PayForm from the installed @payform/widget/react (plain
// createElement, so no JSX plugin is needed). Not named react.js: Vite would take the root's
// react.js for the bare `react` import. With `?leave=1` the customer follows a link as they pay:
// the page's router shows another page, unmounting the form.
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PayForm } from '@payform/widget/react';

/** How often the form's `onPaySuccess` ran, and the document heard `pay-success`, and of which order. */
const told = { prop: [], document: [] };
const show = () => (document.querySelector('#told').textContent = JSON.stringify(told));
document.addEventListener('pay-success', (event) => (told.document.push(event.detail.orderId), show()));

function Checkout({ session, endpoint, leave }) {
  const [paid, setPaid] = useState('');
  const [away, setAway] = useState(false);
  const onPaySuccess = (event) => {
    told.prop.push(event.detail.orderId);
    show();
    setPaid(event.detail.orderId ?? '');
  };
  return h(
    'main',
    null,
    away ? h('h1', null, 'Another page') : h(PayForm, { session, endpoint, onPaySuccess, onPaySubmit: () => leave && setAway(true) }),
    h('p', { role: 'status', id: 'outcome' }, paid ? `Paid: order ${paid}` : ''),
  );
}

const query = new URLSearchParams(location.search);
createRoot(document.querySelector('#root')).render(h(Checkout, { session: query.get('session') ?? '', endpoint: query.get('endpoint') ?? '', leave: query.has('leave') }));
