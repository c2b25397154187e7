import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { PayForm } from '../pay-form/pay-form.js';
import { autofill, button, card, errorText, field, message, mount, part, press, type } from '../test/harness.js';

const label = (form: PayForm, name: string): string => part(form, `label[for=${name}]`).textContent!;

describe('localisation', () => {
  it('speaks Ukrainian with lang="uk", amounts included', async () => {
    const form = await mount({}, { lang: 'uk' });
    await form.updateComplete;
    expect(label(form, 'number')).to.equal('Номер картки');
    expect(label(form, 'exp')).to.equal('Термін дії');
    expect(button(form).textContent).to.equal(`Сплатити ${new Intl.NumberFormat('uk', { style: 'currency', currency: 'UAH' }).format(100.5)}`);
    expect(button(form).textContent).to.contain('100,50');
    await type(field(form, 'number'), '4242');
    await press('Tab');
    expect(errorText(form, 'number')).to.equal('Номер картки неповний.');
  });

  for (const [lang, text] of [['pl', 'Numer karty'], ['de', 'Kartennummer'], ['fr', 'Numéro de carte'], ['es', 'Número de tarjeta'], ['uk-UA', 'Номер картки']]) {
    it(`follows the page's language: ${lang}`, async () => {
      const form = await mount({}, {}, 'pay-form', await fixture(html`<div lang=${lang!}></div>`));
      expect(label(form, 'number')).to.equal(text);
    });
  }

  // Where the hosted button goes, in every catalog: a page with both buttons never shows two alike.
  for (const [lang, text] of [
    ['en', 'Pay {} on the secure payment page'],
    ['uk', 'Сплатити {} на захищеній сторінці оплати'],
    ['pl', 'Zapłać {} na bezpiecznej stronie płatności'],
    ['de', 'Auf der sicheren Zahlungsseite {} bezahlen'],
    ['fr', 'Payer {} sur la page de paiement sécurisée'],
    ['es', 'Pagar {} en la página de pago segura'],
  ] as const) {
    it(`names the hosted page on its button: ${lang}`, async () => {
      const payButton = await mount({}, { lang }, 'pay-button');
      await payButton.updateComplete;
      const amount = new Intl.NumberFormat(lang, { style: 'currency', currency: 'UAH' }).format(100.5);
      expect(button(payButton).textContent).to.equal(text.replace('{}', amount));
    });
  }

  it('speaks the language set as a property, as React and Vue set it, at once and on a change', async () => {
    const form = await mount();
    form.lang = 'uk';
    await waitUntil(() => label(form, 'number') === 'Номер картки', 'not Ukrainian after lang was set');
    form.lang = 'de';
    await waitUntil(() => label(form, 'number') === 'Kartennummer', 'the language before, not the one just set');
  });

  it('says what the live region shows in the language the page switches to, a decline included', async () => {
    const form = await mount();
    const says = async (text: string, why: string): Promise<void> => waitUntil(() => message(form) === text, `${why}: "${message(form)}"`);
    button(form).click();
    await says('Check the highlighted fields.', 'no note on an empty submit');
    form.lang = 'uk';
    await says('Перевірте виділені поля.', 'the note stayed English');
    form.lang = 'en';
    await says('Check the highlighted fields.', 'the note stayed Ukrainian');
    autofill(form, card('4000000000000002'));
    const failure = oneEvent(form, 'pay-failure');
    button(form).click();
    // English shows the companion's words for a decline; the other languages their own general sentence.
    const { message: declined } = (await failure).detail;
    await says(declined, 'no decline');
    form.lang = 'de';
    await says('Die Zahlung wurde abgelehnt. Prüfen Sie die Angaben oder verwenden Sie eine andere Karte.', 'the decline stayed English');
    form.lang = 'en';
    await says(declined, 'the decline stayed German');
  });

  it('uses <html lang> when nothing closer says otherwise', async () => {
    const before = document.documentElement.lang;
    document.documentElement.lang = 'de-AT';
    try {
      const form = await mount();
      await form.updateComplete;
      expect(button(form).textContent).to.match(/^UAH\s100,50 bezahlen$/);
    } finally {
      document.documentElement.lang = before;
    }
  });

  it('falls back to English for languages it has no catalog for and for malformed tags, and says so once in the console', async () => {
    const warnings: string[] = [];
    const real = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      for (const lang of ['ja', 'not a language!']) {
        const form = await mount({}, { lang });
        await form.updateComplete;
        expect(label(form, 'number'), lang).to.equal('Card number');
      }
    } finally {
      console.warn = real;
    }
    expect(warnings).to.deep.equal(['<pay-form>: no words for lang="ja", so English is shown; the widget speaks en, uk, pl, de, fr and es']);
  });

  // WCAG 3.1.2: a screen reader reads English words with the page's language's voice unless told.
  it('marks its English as English on a page in a language it has no words for, and only there', async () => {
    const speaks = (form: PayForm, lang: string): boolean => part(form, 'label[for=number]').matches(`:lang(${lang})`) && button(form).matches(`:lang(${lang})`);
    const real = console.warn;
    console.warn = () => {};
    try {
      const italian = await mount({}, {}, 'pay-form', await fixture(html`<div lang="it"></div>`));
      expect(label(italian, 'number')).to.equal('Card number');
      expect(speaks(italian, 'en'), 'English words in the Italian page').to.equal(true);
      expect(speaks(italian, 'it')).to.equal(false);
    } finally {
      console.warn = real;
    }
    const german = await mount({}, {}, 'pay-form', await fixture(html`<div lang="de-AT"></div>`));
    expect(speaks(german, 'de-AT'), 'German words in the Austrian page').to.equal(true);
    const british = await mount({}, {}, 'pay-form', await fixture(html`<div lang="en-GB"></div>`));
    expect(speaks(british, 'en-GB'), 'English words in the British page').to.equal(true);
  });

  it('changes language when the lang attribute changes', async () => {
    const form = await mount({}, { lang: 'en' });
    form.setAttribute('lang', 'fr');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await form.updateComplete;
    expect(label(form, 'number')).to.equal('Numéro de carte');
  });

  it('lays out right to left while card digits stay left to right', async () => {
    const form = await mount({ customer: {} }, {}, 'pay-form', await fixture(html`<div dir="rtl" lang="ar"></div>`));
    const direction = (element: Element): string => getComputedStyle(element).direction;
    expect(direction(part(form, 'form'))).to.equal('rtl');
    for (const name of ['number', 'exp', 'cvv', 'phone', 'email'] as const) expect(direction(field(form, name)), name).to.equal('ltr');
    expect(direction(field(form, 'fname'))).to.equal('rtl');
    await type(field(form, 'number'), '4242424242424242');
    expect(field(form, 'number').value).to.equal('4242 4242 4242 4242');
    const { left: labelLeft } = part(form, 'label[for=number]').getBoundingClientRect();
    const { left: fieldLeft, right: fieldRight } = field(form, 'number').getBoundingClientRect();
    expect(labelLeft, 'the label sits at the right').to.be.greaterThan((fieldLeft + fieldRight) / 2);
  });
});
