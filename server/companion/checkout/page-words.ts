/**
 * The words of the companion's own customer pages (the 3-D Secure return, the challenge link),
 * in the six languages `<pay-form>` speaks: the customer reads them right after the widget, and
 * the bank's page, in theirs. The language is the merchant's `customer.lang` when it is one of
 * them, else the browser's `Accept-Language`, else English.
 */
import type { SessionViewStatus } from './session-view.js';

export const PAGE_LANGUAGES = ['en', 'uk', 'de', 'pl', 'fr', 'es'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/**
 * What the customer's page says happened: the widget's status, but a session the merchant
 * closed reads as cancelled — not as run out of time, which it did not.
 */
export type PageOutcome = SessionViewStatus | 'cancelled';

export interface PageWords {
  readonly headings: Readonly<Record<PageOutcome, string>>;
  /** A card verification (lookup) paid nothing: its page speaks of the card. */
  readonly verificationHeadings: Readonly<Record<Exclude<SessionViewStatus, 'expired'>, string>>;
  readonly thanks: string;
  readonly close: string;
  /** Said whenever nothing was taken, so a customer never wonders whether to pay again. */
  readonly notCharged: string;
  /** The link to the shop's home, when the companion knows the one shop it serves. */
  readonly backToShop: string;
  /** A payment still being decided: the page reloads itself until it is. */
  readonly checking: string;
  /** A payment the gateway reported with other figures, held for a person: no reload would decide it. */
  readonly held: string;
  /** A failure in another language than English: the companion's reasons are English only. */
  readonly notCompleted: string;
  readonly notFound: { readonly heading: string; readonly text: string };
  readonly linkNotFound: { readonly heading: string; readonly text: string };
  readonly confirm: { readonly heading: string; readonly text: string; readonly link: string };
  readonly outage: { readonly heading: string; readonly text: string };
}

const WORDS: Readonly<Record<PageLanguage, PageWords>> = {
  en: {
    headings: { success: 'Payment received', failure: 'Payment not completed', pending: 'Payment is being processed', open: 'Payment not completed', expired: 'This checkout has expired', cancelled: 'This checkout was cancelled' },
    verificationHeadings: { success: 'Card saved', failure: 'Card not saved', open: 'Card not saved', pending: 'Card is being verified' },
    thanks: 'Thank you. You can close this page.',
    close: 'You can close this page.',
    notCharged: 'You have not been charged.',
    backToShop: 'Return to the shop',
    checking: 'This page updates by itself in a few seconds. Please do not pay again.',
    held: 'The shop is checking this payment. Please do not pay again.',
    notCompleted: 'The payment was not completed. Try again or use another card.',
    notFound: { heading: 'Checkout not found', text: 'This checkout does not exist. Return to the shop and start again.' },
    linkNotFound: { heading: 'Payment link not found', text: 'This payment link does not exist. Ask the shop for a new one.' },
    confirm: { heading: 'Confirm your payment', text: 'Your bank asks you to confirm this payment.', link: 'Continue to your bank' },
    outage: { heading: 'Your payment is being checked', text: 'We cannot look it up right now. Your payment is not lost: reload this page in a few seconds, and please do not pay again.' },
  },
  uk: {
    headings: { success: 'Оплату отримано', failure: 'Оплату не завершено', pending: 'Оплата обробляється', open: 'Оплату не завершено', expired: 'Час на оплату минув', cancelled: 'Оплату скасовано' },
    verificationHeadings: { success: 'Картку збережено', failure: 'Картку не збережено', open: 'Картку не збережено', pending: 'Картка перевіряється' },
    thanks: 'Дякуємо. Цю сторінку можна закрити.',
    close: 'Цю сторінку можна закрити.',
    notCharged: 'Кошти не списано.',
    backToShop: 'Повернутися до магазину',
    checking: 'Сторінка оновиться сама за кілька секунд. Будь ласка, не платіть удруге.',
    held: 'Магазин перевіряє цю оплату. Будь ласка, не платіть удруге.',
    notCompleted: 'Оплату не завершено. Спробуйте ще раз або скористайтеся іншою карткою.',
    notFound: { heading: 'Оплату не знайдено', text: 'Такої оплати не існує. Поверніться до магазину й почніть знову.' },
    linkNotFound: { heading: 'Посилання не знайдено', text: 'Такого посилання на оплату не існує. Попросіть у магазину нове.' },
    confirm: { heading: 'Підтвердьте оплату', text: 'Ваш банк просить підтвердити цю оплату.', link: 'Перейти до банку' },
    outage: { heading: 'Оплата перевіряється', text: 'Зараз не вдається її перевірити. Оплату не втрачено: оновіть сторінку за кілька секунд і, будь ласка, не платіть удруге.' },
  },
  de: {
    headings: { success: 'Zahlung erhalten', failure: 'Zahlung nicht abgeschlossen', pending: 'Zahlung wird bearbeitet', open: 'Zahlung nicht abgeschlossen', expired: 'Dieser Bezahlvorgang ist abgelaufen', cancelled: 'Dieser Bezahlvorgang wurde storniert' },
    verificationHeadings: { success: 'Karte gespeichert', failure: 'Karte nicht gespeichert', open: 'Karte nicht gespeichert', pending: 'Karte wird geprüft' },
    thanks: 'Vielen Dank. Sie können diese Seite schließen.',
    close: 'Sie können diese Seite schließen.',
    notCharged: 'Es wurde nichts abgebucht.',
    backToShop: 'Zurück zum Shop',
    checking: 'Diese Seite aktualisiert sich in wenigen Sekunden selbst. Bitte zahlen Sie nicht noch einmal.',
    held: 'Der Shop prüft diese Zahlung. Bitte zahlen Sie nicht noch einmal.',
    notCompleted: 'Die Zahlung wurde nicht abgeschlossen. Versuchen Sie es erneut oder verwenden Sie eine andere Karte.',
    notFound: { heading: 'Bezahlvorgang nicht gefunden', text: 'Diesen Bezahlvorgang gibt es nicht. Kehren Sie zum Shop zurück und beginnen Sie neu.' },
    linkNotFound: { heading: 'Zahlungslink nicht gefunden', text: 'Diesen Zahlungslink gibt es nicht. Bitten Sie den Shop um einen neuen.' },
    confirm: { heading: 'Zahlung bestätigen', text: 'Ihre Bank bittet Sie, diese Zahlung zu bestätigen.', link: 'Weiter zu Ihrer Bank' },
    outage: { heading: 'Ihre Zahlung wird geprüft', text: 'Wir können sie gerade nicht abrufen. Ihre Zahlung geht nicht verloren: Laden Sie diese Seite in einigen Sekunden neu und zahlen Sie bitte nicht noch einmal.' },
  },
  pl: {
    headings: { success: 'Płatność otrzymana', failure: 'Płatność nie została zakończona', pending: 'Płatność jest przetwarzana', open: 'Płatność nie została zakończona', expired: 'Czas na płatność minął', cancelled: 'Płatność została anulowana' },
    verificationHeadings: { success: 'Karta zapisana', failure: 'Karta nie została zapisana', open: 'Karta nie została zapisana', pending: 'Karta jest weryfikowana' },
    thanks: 'Dziękujemy. Możesz zamknąć tę stronę.',
    close: 'Możesz zamknąć tę stronę.',
    notCharged: 'Nie pobrano żadnych środków.',
    backToShop: 'Wróć do sklepu',
    checking: 'Ta strona odświeży się sama za kilka sekund. Prosimy nie płacić ponownie.',
    held: 'Sklep sprawdza tę płatność. Prosimy nie płacić ponownie.',
    notCompleted: 'Płatność nie została zakończona. Spróbuj ponownie lub użyj innej karty.',
    notFound: { heading: 'Nie znaleziono płatności', text: 'Taka płatność nie istnieje. Wróć do sklepu i zacznij od nowa.' },
    linkNotFound: { heading: 'Nie znaleziono linku', text: 'Taki link do płatności nie istnieje. Poproś sklep o nowy.' },
    confirm: { heading: 'Potwierdź płatność', text: 'Twój bank prosi o potwierdzenie tej płatności.', link: 'Przejdź do banku' },
    outage: { heading: 'Płatność jest sprawdzana', text: 'Nie możemy jej teraz sprawdzić. Płatność nie przepadła: odśwież stronę za kilka sekund i prosimy nie płacić ponownie.' },
  },
  fr: {
    headings: { success: 'Paiement reçu', failure: 'Paiement non abouti', pending: 'Paiement en cours de traitement', open: 'Paiement non abouti', expired: 'Ce paiement a expiré', cancelled: 'Ce paiement a été annulé' },
    verificationHeadings: { success: 'Carte enregistrée', failure: 'Carte non enregistrée', open: 'Carte non enregistrée', pending: 'Carte en cours de vérification' },
    thanks: 'Merci. Vous pouvez fermer cette page.',
    close: 'Vous pouvez fermer cette page.',
    notCharged: 'Aucun montant n’a été débité.',
    backToShop: 'Retour à la boutique',
    checking: 'Cette page se met à jour d’elle-même dans quelques secondes. Merci de ne pas payer à nouveau.',
    held: 'La boutique vérifie ce paiement. Merci de ne pas payer à nouveau.',
    notCompleted: 'Le paiement n’a pas abouti. Réessayez ou utilisez une autre carte.',
    notFound: { heading: 'Paiement introuvable', text: 'Ce paiement n’existe pas. Revenez à la boutique et recommencez.' },
    linkNotFound: { heading: 'Lien de paiement introuvable', text: 'Ce lien de paiement n’existe pas. Demandez-en un nouveau à la boutique.' },
    confirm: { heading: 'Confirmez votre paiement', text: 'Votre banque vous demande de confirmer ce paiement.', link: 'Continuer vers votre banque' },
    outage: { heading: 'Votre paiement est en cours de vérification', text: 'Nous ne pouvons pas le consulter pour le moment. Votre paiement n’est pas perdu : rechargez cette page dans quelques secondes et ne payez pas à nouveau.' },
  },
  es: {
    headings: { success: 'Pago recibido', failure: 'Pago no completado', pending: 'El pago se está procesando', open: 'Pago no completado', expired: 'Este pago ha caducado', cancelled: 'Este pago ha sido cancelado' },
    verificationHeadings: { success: 'Tarjeta guardada', failure: 'Tarjeta no guardada', open: 'Tarjeta no guardada', pending: 'La tarjeta se está verificando' },
    thanks: 'Gracias. Puede cerrar esta página.',
    close: 'Puede cerrar esta página.',
    notCharged: 'No se le ha cobrado nada.',
    backToShop: 'Volver a la tienda',
    checking: 'Esta página se actualizará sola en unos segundos. Por favor, no vuelva a pagar.',
    held: 'La tienda está comprobando este pago. Por favor, no vuelva a pagar.',
    notCompleted: 'El pago no se completó. Inténtelo de nuevo o use otra tarjeta.',
    notFound: { heading: 'Pago no encontrado', text: 'Este pago no existe. Vuelva a la tienda y empiece de nuevo.' },
    linkNotFound: { heading: 'Enlace de pago no encontrado', text: 'Este enlace de pago no existe. Pida uno nuevo a la tienda.' },
    confirm: { heading: 'Confirme su pago', text: 'Su banco le pide que confirme este pago.', link: 'Continuar a su banco' },
    outage: { heading: 'Se está comprobando su pago', text: 'Ahora no podemos consultarlo. Su pago no se ha perdido: recargue esta página en unos segundos y, por favor, no vuelva a pagar.' },
  },
};

/** Ranges read from `Accept-Language`: a browser sends a handful; anyone may send thousands. */
const RANGES_READ = 16;

function known(tag: string | undefined): PageLanguage | undefined {
  const primary = tag?.trim().split(/[-_]/)[0]?.toLowerCase();
  return PAGE_LANGUAGES.find((language) => language === primary);
}

/** The language a page speaks: `preferred` (the merchant's `customer.lang`), else the best of `acceptLanguage`, else English. */
export function pageLanguage(acceptLanguage: string | undefined, preferred?: string): PageLanguage {
  return known(preferred) ?? browserLanguage(acceptLanguage) ?? 'en';
}

/** The best of `acceptLanguage` (a browser's `Accept-Language`) these pages speak; none when it names none of them. */
export function browserLanguage(acceptLanguage: string | undefined): PageLanguage | undefined {
  const ranges = (acceptLanguage ?? '').split(',').slice(0, RANGES_READ).map((range, order) => {
    const [tag, ...parameters] = range.split(';');
    const q = parameters.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((value) => value !== undefined);
    return { language: known(tag), weight: q === undefined ? 1 : Number(q), order };
  });
  const best = ranges
    .filter((range) => range.language !== undefined && range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)[0];
  return best?.language;
}

export function pageWords(language: PageLanguage): PageWords {
  return WORDS[language];
}
