import { router } from '../../trpc/init.ts';
import { deleteSso } from './delete-sso.ts';
import { deprovision } from './deprovision.ts';
import { getSso } from './get-sso.ts';
import { putSso } from './put-sso.ts';

export const ssoRouter = router({ get: getSso, put: putSso, delete: deleteSso, deprovision });
