/* global console, document, location, navigator, URLSearchParams, window -- runs in the browser */
// A merchant's page: <pay-form> from the installed @payform/widget, bundled by Vite. The
// session and the companion's address come in the query string (the test opens the session).
import '@payform/widget';

const query = new URLSearchParams(location.search);
const form = document.createElement('pay-form');
form.setAttribute('session', query.get('session') ?? '');
form.setAttribute('endpoint', query.get('endpoint') ?? '');
if (query.has('mode')) form.setAttribute('mode', query.get('mode'));
// A slow answer: the customer's click is over when the widget leaves for the bank or the hosted
// page. Opening a window uses the click up, as its end would (a frame's sandbox must allow popups).
// In a frame of another process, Chromium now and then tells it of the click again just after:
// a few tries, and a word in the console should none do.
const useUpClick = () => {
  for (let tries = 0; tries < 5 && navigator.userActivation.isActive; tries += 1) window.open('about:blank')?.close();
  if (navigator.userActivation.isActive) console.error('shop: the click could not be used up, so the widget may leave at once');
};
if (query.has('slow')) form.addEventListener('pay-redirect', useUpClick, { once: true });
form.addEventListener('pay-success', (event) => {
  document.querySelector('#outcome').textContent = `Paid: order ${event.detail.orderId}`;
});
document.querySelector('#checkout').append(form);
