import { Type } from '@sinclair/typebox';

export const MemberParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The user id (usr_…)' }) });
