// What a new password must be, wherever one is chosen (a link, a sign-up).
import { invalid } from '../errors.js';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** Throws a 400 saying what to change when `password` may not be used. */
export function checkNewPassword(password: string): void {
  if (password.length < PASSWORD_MIN) throw invalid('invalid_password', `password must be at least ${PASSWORD_MIN} characters long`);
  if (password.length > PASSWORD_MAX) throw invalid('invalid_password', `password must be at most ${PASSWORD_MAX} characters long`);
}
