// The shared ledger suite on SQLite: in memory and in a WAL file.
import { describeLedgerContract } from './testing/contract.js';
import { fileBackend, memoryBackend } from './testing/databases.js';

describeLedgerContract(memoryBackend);
describeLedgerContract(fileBackend);
