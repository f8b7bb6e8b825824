// The owners of an affiliate's or a brand's team: who is told of what concerns the account
// (payouts, statements, claims, payee changes, approvals) and who may not be left without one.
import type { UserOwner, UsersRepository } from '../../storage/repositories/users.js';
import type { UserRow } from '../../storage/tables.js';

export async function ownersOf(users: Pick<UsersRepository, 'listOf'>, account: UserOwner): Promise<UserRow[]> {
  return (await users.listOf(account)).filter((user) => user.role === 'owner');
}
