// What a new password must be: 10 to 200 characters, and not one of the passwords people pick most
// often (the first thing anyone guessing tries). The list is the common-passwords dictionary of
// @zxcvbn-ts/language-common (about 49,000 passwords from published breaches, MIT), read on the
// first check and kept: a few MB that a service where nobody sets a password never loads. Passwords
// are compared in lower case, so "Password123" is as common as "password123".
import { createRequire } from 'node:module';
import { invalid } from '../errors.js';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

let common: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as { dictionary: { 'passwords-common': string[] } };
    common = new Set(dictionary['passwords-common'].filter((password) => password.length >= MIN_PASSWORD_LENGTH).map((password) => password.toLowerCase()));
  }
  return common;
}

/** Whether `password` is among the most common ones (any case). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.normalize('NFC').toLowerCase());
}

/** Refuses a password that may not be set (400 invalid_password, saying why). */
export function checkNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalid('invalid_password', `password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  if (password.length > MAX_PASSWORD_LENGTH) throw invalid('invalid_password', `password must be at most ${MAX_PASSWORD_LENGTH} characters long`);
  if (isCommonPassword(password)) throw invalid('invalid_password', 'this password is one of the most common ones, which are tried first by anyone guessing: choose another (a few unrelated words make a good one)');
}
