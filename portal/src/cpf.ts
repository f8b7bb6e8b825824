// A CPF's check digits, checked in the browser before a form is sent, so a mistyped CPF is refused
// on the page, in the person's language (the service checks it again, and CNPJs and every other
// value too).

/** Whether `value` looks like a CPF (11 digits, punctuation optional) rather than anything else. */
export const looksLikeCpf = (value: string): boolean => /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(value.trim());

/** Whether an 11-digit CPF's two check digits are right (and it is not one digit repeated). */
export function isValidCpf(value: string): boolean {
  const digits = value.replace(/\D/g, '');
  if (digits.length !== 11 || /^(\d)\1{10}$/.test(digits)) return false;
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}
