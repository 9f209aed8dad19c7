import { openHistoryDatabase } from './lib/history-database.ts';

const db = await openHistoryDatabase((l) => console.error(l));
console.log(JSON.stringify(db.fill));
db.postgres.stop();
