/**
 * A card's security code as the widget's languages name it (its own labels among them) and a few
 * neighbours' do, as regular-expression stems, words apart by a space: one list for the names a
 * text mentions (`errors.ts`) and the keys that hold a code (`redact.ts`), so that a name added
 * for one is known to both. English's own names, with their exceptions, stay with each.
 */
const STEMS = [
  'card verification (?:value|code)',
  // Ukrainian, Russian.
  'код (?:безпеки|безопасности)',
  // German: Sicherheitscode, Kartenprüfnummer (written `pruef` in keys and plain text).
  'sicherheitscode', 'pr(?:ü|ue)fnummer',
  // French: code de sécurité, cryptogramme (visuel).
  'cryptogramme', 'code de s[ée]curit',
  // Polish: kod zabezpieczający, kod bezpieczeństwa.
  'kod zabezpieczaj', 'kod bezpiecze[nń]st',
  // Spanish, Portuguese, Italian.
  'c[oó]digo de segur', 'codice di sicurezza',
];

/** The names as a text writes them: a space, `_` or `-` between the words, or none. */
export const SECURITY_CODE_NAMES_IN_TEXT = STEMS.map((stem) => stem.replace(/ /g, String.raw`[\s_-]?`)).join('|');

/** The names in a key lower-cased, its `_` and `-` dropped (`codigo_de_seguridad`, `Kod-Zabezpieczajacy`). */
export const SECURITY_CODE_NAMES_IN_KEYS = STEMS.map((stem) => stem.replace(/ /g, String.raw`\s?`)).join('|');
