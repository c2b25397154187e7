/* global document, fetch, InputEvent, FocusEvent, setTimeout -- runs in the browser */
// The screenshot page's script: one test session per form, a card typed into each.
const forms = [...document.querySelectorAll('pay-form')];
for (const form of forms) {
  const response = await fetch('/__fixture/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 124950, currency: 'UAH', description: 'Order #1042', customer: { phone: '+380671234567' } }),
  });
  form.session = (await response.json()).id;
  await new Promise((resolve) => form.addEventListener('pay-ready', resolve, { once: true }));
  await form.updateComplete;
  const root = form.shadowRoot;
  const fill = (name, value) => {
    const input = root.querySelector(`#${name}`);
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertReplacementText' }));
  };
  fill('number', '4242424242424242');
  fill('exp', `09/${String(new Date().getFullYear() + 3).slice(2)}`);
  fill('fname', form.closest('[lang=uk]') ? 'Олена' : 'Olena');
  fill('lname', form.closest('[lang=uk]') ? 'Коваленко' : 'Kovalenko');
  fill('email', 'olena@example');
  root.querySelector('#email').dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  root.querySelector('#cvv').focus();
}
await new Promise((resolve) => setTimeout(resolve, 300));
document.body.dataset.ready = 'true';
