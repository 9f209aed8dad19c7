import { z } from 'zod';

// Read by zod when each schema is built: imported ahead of the contracts (lib/contracts.ts).
z.config({ jitless: true });
