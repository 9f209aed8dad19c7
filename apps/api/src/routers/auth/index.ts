import { router } from '../../trpc/init.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { register } from './register.ts';
import { session } from './session.ts';
import { state } from './state.ts';

export const authRouter = router({ register, login, logout, session, state });
