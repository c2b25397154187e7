/**
 * Hand-drawn product pictures as SVG templates (no image files, no inline styles: presentation
 * attributes only, which a strict CSP allows). Each sits on a tile of its tint.
 */
import { html, svg } from 'lit';
import type { SVGTemplateResult, TemplateResult } from 'lit';
import type { Product, ProductArt } from '../../catalog.js';

/** Tile, main colour, shade, highlight. */
const TINTS: Record<Product['tint'], readonly [string, string, string, string]> = {
  amber: ['#f6e2c4', '#c9772e', '#8e4c17', '#f3c48c'],
  rose: ['#f7dcd8', '#c5545a', '#8b2f36', '#f2a7a4'],
  teal: ['#d5ece8', '#2f8c86', '#1d5c58', '#9ad3cb'],
  clay: ['#f1ddcf', '#b5653d', '#7a3d1f', '#e3a682'],
  slate: ['#dde3ea', '#4d5d72', '#2d3847', '#a6b3c4'],
  sand: ['#f2ead9', '#c2a772', '#8a7246', '#e6d6ae'],
  plum: ['#e9dcea', '#7b4f86', '#4e2e57', '#c4a4cc'],
  olive: ['#e3e7d0', '#7d8a3b', '#515b22', '#c3cc8f'],
};

const DRAWINGS: Record<ProductArt, (main: string, shade: string, light: string) => SVGTemplateResult> = {
  bag: (main, shade, light) => svg`
    <ellipse cx="100" cy="140" rx="46" ry="6" fill="${shade}" opacity=".18"/>
    <path d="M62 44 L138 44 L146 136 Q100 144 54 136 Z" fill="${main}"/>
    <path d="M62 44 L138 44 L140 58 L60 58 Z" fill="${shade}"/>
    <path d="M60 30 H140 L138 44 H62 Z" fill="${light}"/>
    <path d="M70 36 H130" stroke="${shade}" stroke-width="2" stroke-dasharray="4 4"/>
    <rect x="72" y="72" width="56" height="46" rx="6" fill="#fffaf2"/>
    <ellipse cx="100" cy="95" rx="9" ry="13" fill="${shade}" transform="rotate(25 100 95)"/>
    <path d="M96 84 Q104 95 98 106" stroke="#fffaf2" stroke-width="2" fill="none" stroke-linecap="round"/>`,
  cup: (main, shade, light) => svg`
    <ellipse cx="100" cy="132" rx="58" ry="10" fill="${light}"/>
    <ellipse cx="100" cy="130" rx="44" ry="6" fill="${shade}" opacity=".25"/>
    <path d="M146 70 q26 2 22 24 q-4 18 -28 16" fill="none" stroke="${main}" stroke-width="9" stroke-linecap="round"/>
    <path d="M52 56 H148 L140 112 Q138 126 124 128 H76 Q62 126 60 112 Z" fill="${main}"/>
    <ellipse cx="100" cy="56" rx="48" ry="9" fill="${shade}"/>
    <ellipse cx="100" cy="57" rx="42" ry="6" fill="#5a3521"/>
    <path d="M64 84 Q100 96 136 84" stroke="${light}" stroke-width="4" fill="none"/>
    <circle cx="78" cy="104" r="4" fill="${light}"/><circle cx="100" cy="108" r="4" fill="${light}"/><circle cx="122" cy="104" r="4" fill="${light}"/>`,
  dripper: (main, shade, light) => svg`
    <rect x="62" y="118" width="76" height="14" rx="7" fill="${shade}"/>
    <path d="M56 38 H144 L116 110 H84 Z" fill="${main}"/>
    <ellipse cx="100" cy="38" rx="44" ry="8" fill="${shade}"/>
    <ellipse cx="100" cy="39" rx="38" ry="5" fill="${light}"/>
    <path d="M80 56 L92 100 M100 56 V102 M120 56 L108 100" stroke="${shade}" stroke-width="3" stroke-linecap="round" opacity=".55"/>
    <rect x="88" y="108" width="24" height="12" rx="3" fill="${main}"/>
    <path d="M100 122 v8" stroke="#5a3521" stroke-width="3" stroke-linecap="round"/>`,
  kettle: (main, shade, light) => svg`
    <ellipse cx="96" cy="136" rx="50" ry="6" fill="${shade}" opacity=".2"/>
    <path d="M62 62 H130 L138 128 Q96 138 54 128 Z" fill="${main}"/>
    <path d="M60 76 H132" stroke="${light}" stroke-width="3"/>
    <path d="M64 62 Q96 48 128 62" fill="${shade}"/>
    <circle cx="96" cy="48" r="7" fill="${shade}"/>
    <path d="M58 108 Q34 104 34 80 Q34 58 22 44" fill="none" stroke="${main}" stroke-width="7" stroke-linecap="round"/>
    <path d="M134 72 Q162 76 160 100 Q158 118 136 118" fill="none" stroke="${shade}" stroke-width="9" stroke-linecap="round"/>`,
  grinder: (main, shade, light) => svg`
    <ellipse cx="100" cy="140" rx="40" ry="5" fill="${shade}" opacity=".2"/>
    <path d="M70 74 H130 L126 134 Q100 140 74 134 Z" fill="${main}"/>
    <path d="M74 92 H126 M75 110 H125" stroke="${shade}" stroke-width="3" opacity=".5"/>
    <rect x="64" y="62" width="72" height="14" rx="5" fill="${shade}"/>
    <rect x="94" y="44" width="12" height="20" rx="3" fill="${shade}"/>
    <path d="M100 46 L150 30" stroke="${shade}" stroke-width="7" stroke-linecap="round"/>
    <circle cx="154" cy="29" r="9" fill="${light}" stroke="${shade}" stroke-width="3"/>
    <circle cx="100" cy="46" r="6" fill="${light}"/>
    <rect x="80" y="80" width="7" height="48" rx="3.5" fill="${light}" opacity=".45"/>`,
  filters: (main, shade, light) => svg`
    <ellipse cx="100" cy="132" rx="56" ry="6" fill="${shade}" opacity=".2"/>
    <path d="M44 46 H124 L104 126 H64 Z" fill="${light}" stroke="${shade}" stroke-width="2"/>
    <path d="M62 40 H142 L122 120 H82 Z" fill="#fbf6ec" stroke="${main}" stroke-width="2"/>
    <path d="M76 54 L92 112 M102 54 V112 M128 54 L112 112" stroke="${main}" stroke-width="2" opacity=".5"/>
    <path d="M62 40 H142" stroke="${shade}" stroke-width="4" stroke-linecap="round"/>`,
};

export function productArt(product: Product): TemplateResult {
  const [tile, main, shade, light] = TINTS[product.tint];
  return html`<svg class="product-art" viewBox="0 0 200 160" aria-hidden="true" focusable="false">
    <rect width="200" height="160" rx="18" fill="${tile}"/>
    <circle cx="164" cy="30" r="46" fill="${light}" opacity=".35"/>
    ${DRAWINGS[product.art](main, shade, light)}
  </svg>`;
}

/** The shop's mark: a coffee bean in a rounded square. */
export const brandMark = html`<svg viewBox="0 0 64 64" aria-hidden="true" focusable="false">
  <rect width="64" height="64" rx="16" fill="#8a3a1a"/>
  <ellipse cx="32" cy="32" rx="15" ry="21" fill="#f6e7d8" transform="rotate(28 32 32)"/>
  <path d="M25 14c10 8 4 28 14 36" fill="none" stroke="#8a3a1a" stroke-width="4" stroke-linecap="round"/>
</svg>`;
