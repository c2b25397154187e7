/**
 * The page a back-office module reads its language and direction from (`<html lang dir>`, which
 * preferences.ts sets), stubbed for a test in Node, before each test and removed after it. The
 * language may change within a test: `page.lang = 'uk'`.
 */
import { afterEach, beforeEach, vi } from 'vitest';

export interface StubbedPage {
  lang: string;
}

export function stubbedPage(dir: 'ltr' | 'rtl' = 'ltr'): StubbedPage {
  const page: StubbedPage = { lang: 'en' };
  beforeEach(() => {
    page.lang = 'en';
    vi.stubGlobal('document', { documentElement: { get lang() { return page.lang; }, dir, dataset: {} } });
  });
  afterEach(() => void vi.unstubAllGlobals());
  return page;
}
