// The journeys over HTTP with the ledger on PostgreSQL (TEST_DATABASE_URL).
import { postgresBackend, withTestDatabase } from '../../ledger/testing/databases.js';
import { describeJourneys } from './journeys.js';

withTestDatabase((url) => describeJourneys(postgresBackend(url)));
