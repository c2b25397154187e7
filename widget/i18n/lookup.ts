import type { Catalog, Strings } from './en.js';

/** A card verification's words: the pay buttons' and the success message, and the note above the button (`{}`: the amount). */
export type Verification = Pick<Catalog, 'pay' | 'pay_hosted' | 'paid'> & { note: string };

const WORDING: Record<string, Verification> = {
  en: { pay_hosted: 'Save card on the secure payment page', pay: 'Save card', paid: 'Card saved', note: 'Your card is kept for later payments. Nothing is charged: your bank may briefly hold {} to verify it.' },
  uk: { pay_hosted: 'Зберегти картку на захищеній сторінці оплати', pay: 'Зберегти картку', paid: 'Картку збережено', note: 'Картку буде збережено для наступних платежів. Кошти не списуються: банк може ненадовго заблокувати {} для перевірки.' },
  pl: { pay_hosted: 'Zapisz kartę na bezpiecznej stronie płatności', pay: 'Zapisz kartę', paid: 'Karta zapisana', note: 'Karta zostanie zapisana do kolejnych płatności. Nic nie zostanie pobrane: bank może na chwilę zablokować {} w celu weryfikacji.' },
  de: { pay_hosted: 'Karte auf der sicheren Zahlungsseite speichern', pay: 'Karte speichern', paid: 'Karte gespeichert', note: 'Die Karte wird für spätere Zahlungen gespeichert. Es wird nichts abgebucht: Ihre Bank kann kurz {} zur Prüfung vormerken.' },
  fr: { pay_hosted: 'Enregistrer la carte sur la page de paiement sécurisée', pay: 'Enregistrer la carte', paid: 'Carte enregistrée', note: 'La carte est conservée pour vos prochains paiements. Rien n’est débité : votre banque peut bloquer brièvement {} pour la vérifier.' },
  es: { pay_hosted: 'Guardar tarjeta en la página de pago segura', pay: 'Guardar tarjeta', paid: 'Tarjeta guardada', note: 'La tarjeta se guarda para tus próximos pagos. No se cobra nada: tu banco puede retener {} brevemente para comprobarla.' },
};

/**
 * `catalog` with the words of a session that saves a card (`lookup`) instead of paying, in the
 * catalog's languages (English for any other, and where the catalog fell back on English). A
 * module of its own, loaded only for such a session.
 */
export default (catalog: Strings, tag: string): Strings & Verification => ({ ...catalog, ...(WORDING[catalog.lang ?? tag.split('-')[0]!.toLowerCase()] ?? WORDING.en!) });
