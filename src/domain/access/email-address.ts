// What counts as an e-mail address wherever a person gives one (an invitation, a sign-up).
import { invalid } from '../errors.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The address trimmed and lowercased (one account per address, whatever its case), or a 400 saying it is none. */
export function emailAddressOf(email: string): string {
  const address = email.trim().toLowerCase();
  if (!EMAIL.test(address) || address.length > 254) throw invalid('invalid_email', `${email} is not an e-mail address`);
  return address;
}
