/* global document, location, URLSearchParams -- runs in the browser */
// A merchant's page: <pay-form> from the installed @payform/widget, bundled by Vite. The
// session and the companion's address come in the query string (the test opens the session).
import '@payform/widget';

const query = new URLSearchParams(location.search);
const form = document.createElement('pay-form');
form.setAttribute('session', query.get('session') ?? '');
form.setAttribute('endpoint', query.get('endpoint') ?? '');
form.addEventListener('pay-success', (event) => {
  document.querySelector('#outcome').textContent = `Paid: order ${event.detail.orderId}`;
});
document.querySelector('#checkout').append(form);
