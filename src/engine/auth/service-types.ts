/** Types the auth facade shares with the engine session contract. */
import type { Session } from '../session/types.js';

export type { Permission, SecurityContext } from '../session/types.js';

/** Opens an unrestricted session on the `system` database. */
export type SystemSessionFactoryLike = () => Session;
