// The shared ledger suite on PostgreSQL (TEST_DATABASE_URL), a fresh schema per test.
import { describeLedgerContract } from './testing/contract.js';
import { postgresBackend, testDatabaseUrl } from './testing/databases.js';

describeLedgerContract(postgresBackend(testDatabaseUrl()));
