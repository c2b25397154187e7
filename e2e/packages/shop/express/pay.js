/* global document, location, URLSearchParams -- runs in the browser */
// The shop's checkout page: <pay-form> from the companion mounted under /payments, for the
// session in the query string (the test opens it through the merchant API).
const form = document.createElement('pay-form');
form.setAttribute('session', new URLSearchParams(location.search).get('session') ?? '');
form.setAttribute('endpoint', `${location.origin}/payments`);
form.addEventListener('pay-success', (event) => {
  document.querySelector('#outcome').textContent = `Paid: order ${event.detail.orderId}`;
});
document.querySelector('#checkout').append(form);
