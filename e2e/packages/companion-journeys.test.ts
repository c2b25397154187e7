/**
 * The packaged `payform-companion` against the packaged `payform-sandbox`, both run from the
 * throwaway project's node_modules/.bin, pass the same HTTP journeys as `npm start`'s companion
 * (e2e/companion-http/npm-start.test.ts).
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { describeCompanionJourneys } from '../companion-http/journeys.js';
import { startPackagedStack } from './merchant.js';
import type { PackagedStack } from './merchant.js';

let stack: PackagedStack;

beforeAll(async () => {
  stack = await startPackagedStack(inject('packages').shop);
});

afterAll(async () => {
  await stack?.close();
});

describeCompanionJourneys('the packaged payform-companion and payform-sandbox, installed from their tarballs', () => stack);
