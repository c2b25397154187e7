// The shared ledger suite on PostgreSQL (TEST_DATABASE_URL), a fresh schema per test.
import { describeLedgerContract } from './testing/contract.js';
import { postgresBackend, withTestDatabase } from './testing/databases.js';

withTestDatabase((url) => describeLedgerContract(postgresBackend(url)));
