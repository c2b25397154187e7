/* global process, console, URL -- runs in Node, from the throwaway shop */
// A merchant's Express 5 server with the installed @payform/companion mounted under /payments and
// its back office turned on, as the companion's README shows. The shop's own page (pay.html) pays
// with the widget the companion serves. Settings come from the environment it is started with;
// it prints "listening on <url>" once it takes requests, and closes cleanly on SIGTERM.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { composeCompanion, readCompanionConfig, toNodeListener } from '@payform/companion';

const shop = express();
const server = createServer(shop).listen(0, '127.0.0.1');
await once(server, 'listening');
const url = `http://127.0.0.1:${server.address().port}`;

const companion = await composeCompanion(readCompanionConfig(process.env), {
  publicUrl: url,
  basePath: '/payments',
  backOffice: { path: '/admin' },
});
shop.use('/payments', toNodeListener(companion.app));
shop.use(express.static(fileURLToPath(new URL('.', import.meta.url)), { index: false }));

console.log(`listening on ${url}`);
process.once('SIGTERM', () => {
  server.close(() => void companion.close().then(() => process.exit(0)));
  server.closeAllConnections();
});
