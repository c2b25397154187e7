/** Card schemes the form recognises from the number's first digits (the issuer identification number). */
export type BrandId =
  | 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'maestro' | 'mir' | 'prostir';

export interface Brand {
  id: BrandId;
  name: string;
  /** Prefixes as a digit string or an inclusive range of equally long digit strings ("2221-2720"). */
  prefixes: readonly string[];
  /** Allowed lengths, ascending; the last is the brand's maximum. */
  lengths: readonly number[];
  /** Digit counts after which the display puts a space; 4-4-4-4… when absent. */
  gaps?: readonly number[];
  /** Digits of the security code when not 3. */
  cvv?: 4;
  /** Set for UnionPay, whose numbers need not pass the Luhn check. */
  noLuhn?: true;
}

// Lengths spelt out: the page's bundle carries them in fewer bytes than a helper to count them.
// The lengths issued today: Visa's 13 and Maestro's 12–13 are long expired, and payform's
// recogniser, which must find every card number the form takes, starts at 14 (MIN_DIGITS).
// Co-branded ranges that would make two schemes claim the same number are given to one scheme:
// 622126–622925 (Discover on UnionPay cards) to UnionPay, 493698 (a Maestro BIN) to Visa.
export const BRANDS: readonly Brand[] = [
  { id: 'visa', name: 'Visa', prefixes: ['4'], lengths: [16, 19] },
  { id: 'mastercard', name: 'Mastercard', prefixes: ['51-55', '2221-2720'], lengths: [16] },
  { id: 'amex', name: 'American Express', prefixes: ['34', '37'], lengths: [15], gaps: [4, 10], cvv: 4 },
  { id: 'discover', name: 'Discover', prefixes: ['6011', '644-649', '65'], lengths: [16, 19] },
  { id: 'diners', name: 'Diners Club', prefixes: ['300-305', '3095', '36', '38', '39'], lengths: [14, 16, 19], gaps: [4, 10] },
  { id: 'jcb', name: 'JCB', prefixes: ['3528-3589'], lengths: [16, 17, 18, 19] },
  { id: 'unionpay', name: 'UnionPay', prefixes: ['62', '81'], lengths: [14, 15, 16, 17, 18, 19], noLuhn: true },
  { id: 'maestro', name: 'Maestro', prefixes: ['500000-504174', '504176-506698', '506779-508999', '56-59', '63', '67'], lengths: [14, 15, 16, 17, 18, 19] },
  { id: 'mir', name: 'Mir', prefixes: ['2200-2204'], lengths: [16, 17, 18, 19] },
  { id: 'prostir', name: 'Prostir', prefixes: ['9804'], lengths: [16] },
];

/** Whether `digits` can start with (or already starts with) `prefix`. */
function mayStartWith(digits: string, prefix: string): boolean {
  const [low, high = low] = prefix.split('-') as [string, string?];
  const n = Math.min(digits.length, low.length);
  const head = digits.slice(0, n);
  // Equal-length digit strings compare like the numbers they spell.
  return head >= low.slice(0, n) && head <= high.slice(0, n);
}

// No prefix is longer than 6 digits, so the first 6 decide: each keystroke costs a lookup.
const known = new Map<string, Brand[]>();

/** Every brand the number could still belong to. */
export function candidates(digits: string): Brand[] {
  const head = digits.slice(0, 6);
  let found = known.get(head);
  if (!found) {
    if (known.size > 999) known.clear();
    known.set(head, (found = BRANDS.filter((brand) => brand.prefixes.some((prefix) => mayStartWith(head, prefix)))));
  }
  return found;
}

/** The brand once the prefix is unique; `undefined` while ambiguous (or when nothing matches). */
export function detectBrand(digits: string): Brand | undefined {
  const found = candidates(digits);
  return found.length === 1 ? found[0] : undefined;
}

export const maxLength = (brand: Brand | undefined): number => brand?.lengths.at(-1) ?? 19;

/** Where the display of the brand's numbers puts spaces. */
export const gapsOf = (brand: Brand | undefined): readonly number[] => brand?.gaps ?? [4, 8, 12, 16];
