// The journeys over HTTP with the ledger on SQLite (a WAL file, as in production).
import { fileBackend } from '../../ledger/testing/databases.js';
import { describeJourneys } from './journeys.js';

describeJourneys(fileBackend);
