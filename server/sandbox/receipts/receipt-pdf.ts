/**
 * A receipt as a PDF (pdf-lib, standard Helvetica). Standard PDF fonts cover Latin-1 only, so
 * Cyrillic text (common in this gateway's descriptions and names) is transliterated and any
 * other character the font lacks becomes `?`.
 */
import type { PDFFont, PDFPage } from 'pdf-lib';
import type { Receipt } from './receipt.js';

const PAGE = { width: 420, height: 595, margin: 36 } as const;

// Ukrainian national transliteration (simplified: one spelling per letter), with Russian extras.
const CYRILLIC: Readonly<Record<string, string>> = Object.fromEntries(
  [...'абвгґдеєжзиіїйклмнопрстуфхцчшщьюяыэъё'].map((letter, index) => [
    letter,
    ['a', 'b', 'v', 'h', 'g', 'd', 'e', 'ie', 'zh', 'z', 'y', 'i', 'i', 'i', 'k', 'l', 'm', 'n', 'o', 'p', 'r', 's', 't', 'u', 'f', 'kh', 'ts', 'ch', 'sh', 'shch', '', 'iu', 'ia', 'y', 'e', '', 'io'][index] ?? '',
  ]),
);

function printable(text: string, font: PDFFont): string {
  let out = '';
  for (const character of text) {
    const lower = character.toLowerCase();
    const latin = CYRILLIC[lower];
    if (latin !== undefined) {
      out += character === lower ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
      continue;
    }
    try {
      font.encodeText(character);
      out += character;
    } catch {
      out += '?';
    }
  }
  return out;
}

/** Splits text into lines no wider than `width`, breaking at spaces where it can. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(\s+)/)) {
    if (font.widthOfTextAtSize(line + word, size) <= width) {
      line += word;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    line = word.trimStart();
    while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut -= 1;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines.length > 0 ? lines : [''];
}

export async function receiptPdf(receipt: Receipt): Promise<Uint8Array> {
  // pdf-lib is large: loaded with the first PDF asked for, not when the sandbox starts (here,
  // not where this module is imported, so that a bundle of the sandbox keeps it so too).
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const document = await PDFDocument.create();
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  document.setTitle(`${receipt.title} ${receipt.number}`);
  document.setAuthor(printable(receipt.merchant, regular));
  document.setCreator('payform sandbox gateway');
  document.setProducer('payform sandbox gateway');
  if (receipt.signature) document.setSubject(`Sandbox signature ${receipt.signature}`);

  let page: PDFPage = document.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const text = (value: string, options: { font?: PDFFont; size?: number; x?: number; width?: number; grey?: boolean } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    const x = options.x ?? PAGE.margin;
    const lines = wrap(printable(value, font), font, size, options.width ?? PAGE.width - x - PAGE.margin);
    for (const line of lines) {
      if (y < PAGE.margin + size) {
        page = document.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - PAGE.margin;
      }
      page.drawText(line, { x, y: y - size, size, font, color: options.grey ? rgb(0.34, 0.38, 0.42) : rgb(0.1, 0.12, 0.14) });
      y -= size * 1.4;
    }
    return lines.length;
  };

  text(receipt.title, { font: bold, size: 16 });
  text(`${receipt.merchant} - No. ${receipt.number} - ${receipt.date}`, { grey: true });
  y -= 8;
  const valueX = PAGE.margin + 130;
  for (const [label, value] of [...receipt.rows, ['Amount', receipt.total] as const]) {
    const top = y;
    const isTotal = label === 'Amount';
    text(label, { grey: !isTotal, width: 124, font: isTotal ? bold : regular });
    const labelBottom = y;
    y = top;
    text(value, { x: valueX, font: isTotal ? bold : regular, size: isTotal ? 12 : 10 });
    y = Math.min(y, labelBottom) - 2;
  }
  y -= 10;
  if (receipt.signature) text(`Signed by payform sandbox (test signature, no legal force): ${receipt.signature}`, { size: 8, grey: true });
  text('Issued by the payform sandbox gateway. Test mode: no real money moved.', { size: 8, grey: true });
  return document.save();
}
